import type { ItemKind } from '../../../../shared/api/catalog';
import type { ControlKey, FormatControl, FormatOffer } from '../../../../shared/ipc/export';
import { choicesFor, controlsFor, controlValue, type ControlValues } from '../../../../shared/ipc/export-offers';

interface Props {
  itemKind: ItemKind;
  /** the offers of main's format registry for this view's kind of item */
  offers: readonly FormatOffer[];
  /** the chosen offer's id */
  choice: string | undefined;
  onChoice: (id: string) => void;
  values: ControlValues;
  onValue: (key: ControlKey, value: string | boolean) => void;
}

/** One of an offer's option controls, as main's registry describes it: a checkbox or a select. */
function Control({ control, ...p }: Pick<Props, 'itemKind' | 'values' | 'onValue'> & { control: FormatControl }) {
  if (control.type === 'toggle') {
    return (
      <label className="export__choice export__sub">
        <input
          type="checkbox"
          checked={p.values[control.key] === true}
          onChange={(e) => p.onValue(control.key, e.target.checked)}
        />
        <span>
          {control.label}
          {control.note ? (
            <>
              {' '}
              <span className="muted">{control.note}</span>
            </>
          ) : null}
        </span>
      </label>
    );
  }
  return (
    <label className="export__choice export__sub">
      <span>{control.label}</span>
      <select
        value={String(controlValue(control, p.values, p.itemKind))}
        onChange={(e) => p.onValue(control.key, e.target.value)}
      >
        {choicesFor(control, p.itemKind).map((c) => (
          <option key={c.value} value={c.value}>
            {c.label}
          </option>
        ))}
      </select>
    </label>
  );
}

/** The formats a view can be exported to, each with its hint; the chosen one's options under it. */
export function FormatFields(p: Props) {
  return (
    <fieldset>
      <legend>Format</legend>
      {p.offers.map((f) => (
        <div key={f.id}>
          <label className="export__choice">
            <input
              type="radio"
              name="format"
              value={f.id}
              checked={p.choice === f.id}
              onChange={() => p.onChoice(f.id)}
            />
            <span>
              <strong>{f.label}</strong> <span className="muted">{f.hint}</span>
            </span>
          </label>
          {p.choice === f.id
            ? controlsFor(f, p.itemKind).map((c) => (
                <Control key={c.key} control={c} itemKind={p.itemKind} values={p.values} onValue={p.onValue} />
              ))
            : null}
        </div>
      ))}
    </fieldset>
  );
}
