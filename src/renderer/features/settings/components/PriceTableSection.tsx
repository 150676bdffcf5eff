import { useId, useState, type FormEvent } from 'react';
import { DEFAULT_PRICES, type PriceTable } from '../../../../shared/api/pricing';
import { ErrorState } from '../../../components/ErrorState';
import {
  PRICE_FIELDS,
  differsFromDefaults,
  toFormValues,
  validatePriceForm,
  type PriceField,
  type PriceFormErrors,
  type PriceFormValues,
} from '../price-form';
import { useUpdateSettings } from '../use-settings';

/** The editable price table behind every cost estimate, with reset to the documented defaults. */
export function PriceTableSection({ prices }: { prices: PriceTable }) {
  const update = useUpdateSettings();
  const [values, setValues] = useState<PriceFormValues>(() => toFormValues(prices));
  const [errors, setErrors] = useState<PriceFormErrors>({});
  const [saved, setSaved] = useState<string | null>(null);
  const baseId = useId();
  const dirty = PRICE_FIELDS.some(({ field }) => values[field].trim() !== String(prices[field]));

  const save = (next: PriceTable, message: string) =>
    update.mutate(
      { prices: next },
      {
        onSuccess: ({ after }) => {
          setValues(toFormValues(after.prices));
          setErrors({});
          setSaved(message);
        },
      },
    );

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const r = validatePriceForm(values);
    if (!r.ok) {
      setErrors(r.errors);
      setSaved(null);
      return;
    }
    save(r.prices, 'Prices saved.');
  };

  const onChange = (field: PriceField, text: string) => {
    setValues((v) => ({ ...v, [field]: text }));
    setSaved(null);
  };

  return (
    <section className="settings__section" aria-labelledby="settings-prices">
      <h2 id="settings-prices">Price table</h2>
      <p className="muted settings__hint">
        Skein estimates what each call costs with these numbers (credits), shown in the status bar, the usage panel and
        before costly actions. The defaults follow the API’s published prices; edit them if yours differ.
      </p>
      <form onSubmit={onSubmit} noValidate aria-label="Price table">
        <div className="settings__prices">
          {PRICE_FIELDS.map((spec) => {
            const id = `${baseId}-${spec.field}`;
            const err = errors[spec.field];
            return (
              <div key={spec.field} className="settings__price">
                <label htmlFor={id}>{spec.label}</label>
                <input
                  id={id}
                  className="input"
                  inputMode={spec.integer ? 'numeric' : 'decimal'}
                  value={values[spec.field]}
                  aria-invalid={err ? true : undefined}
                  aria-describedby={`${id}-hint${err ? ` ${id}-error` : ''}`}
                  onChange={(e) => onChange(spec.field, e.target.value)}
                />
                <span id={`${id}-hint`} className="muted settings__hint">
                  {spec.hint}
                </span>
                {err ? (
                  <span id={`${id}-error`} className="settings__error">
                    {err}
                  </span>
                ) : null}
              </div>
            );
          })}
        </div>
        <div className="settings__buttons">
          <button type="submit" className="btn btn--primary" disabled={update.isPending || !dirty}>
            Save prices
          </button>
          <button
            type="button"
            className="btn"
            disabled={update.isPending || (!differsFromDefaults(prices) && !dirty)}
            onClick={() => save({ ...DEFAULT_PRICES }, 'Prices reset to the defaults.')}
          >
            Reset to defaults
          </button>
          <span role="status" className="settings__saved">
            {Object.keys(errors).length ? 'Some prices need fixing.' : saved}
          </span>
        </div>
      </form>
      {update.isError ? <ErrorState compact error={update.error} what="the prices" /> : null}
    </section>
  );
}
