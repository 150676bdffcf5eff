import type { ItemKind } from '../../../../shared/api/catalog';
import type { CsvColumns } from '../../../../shared/ipc/export';
import type { FormatChoice } from '../form';
import { columnSetApplies, CSV_COLUMN_SETS, formatsFor } from '../formats';

interface Props {
  itemKind: ItemKind;
  choice: FormatChoice;
  onChoice: (c: FormatChoice) => void;
  exactCells: boolean;
  onExactCells: (v: boolean) => void;
  columns: CsvColumns;
  onColumns: (c: CsvColumns) => void;
  oneLine: boolean;
  onOneLine: (v: boolean) => void;
}

/** The CSV's own choices, shown right under the CSV flavour picked. */
function CsvOptions(p: Props) {
  const sets = CSV_COLUMN_SETS.filter((c) => columnSetApplies(p.itemKind, c.value));
  return (
    <>
      {p.choice === 'csv-spreadsheet' ? (
        <label className="export__choice export__sub">
          <input type="checkbox" checked={p.exactCells} onChange={(e) => p.onExactCells(e.target.checked)} />
          <span>
            Write formula-like cells exactly{' '}
            <span className="muted">
              (unsafe to open in a spreadsheet: cells starting with = + - @ may run as formulas)
            </span>
          </span>
        </label>
      ) : null}
      {sets.length > 1 ? (
        <label className="export__choice export__sub">
          <span>Columns</span>
          <select value={p.columns} onChange={(e) => p.onColumns(e.target.value as CsvColumns)}>
            {sets.map((c) => (
              <option key={c.value} value={c.value}>
                {c.label}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      <label className="export__choice export__sub">
        <input type="checkbox" checked={p.oneLine} onChange={(e) => p.onOneLine(e.target.checked)} />
        <span>
          One line per row <span className="muted">(line breaks in text written as \n)</span>
        </span>
      </label>
    </>
  );
}

/** The formats a view can be exported to, each with its hint; a CSV's options under it. */
export function FormatFields(p: Props) {
  return (
    <fieldset>
      <legend>Format</legend>
      {formatsFor(p.itemKind).map((f) => (
        <div key={f.value}>
          <label className="export__choice">
            <input
              type="radio"
              name="format"
              value={f.value}
              checked={p.choice === f.value}
              onChange={() => p.onChoice(f.value)}
            />
            <span>
              <strong>{f.label}</strong> <span className="muted">{f.hint}</span>
            </span>
          </label>
          {p.choice === f.value && f.value.startsWith('csv') ? <CsvOptions {...p} /> : null}
        </div>
      ))}
    </fieldset>
  );
}
