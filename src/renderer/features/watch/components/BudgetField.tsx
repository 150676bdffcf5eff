import { count } from '../words';

/** A watch's whole budget in dollars, with the credit cap it sets said beside it (the new and edit forms alike). */
export function BudgetField({
  usd,
  credits,
  onChange,
}: {
  /** as the field shows it; '' while it holds no number */
  usd: number | '';
  credits: number;
  onChange: (usd: number) => void;
}) {
  return (
    <label className="field">
      <span>Budget ($)</span>
      <input
        className="input"
        type="number"
        min={0.01}
        step={0.01}
        value={usd}
        onChange={(e) => onChange(Number(e.target.value))}
      />
      <small className="muted">The total cap: {count(credits)} credits.</small>
    </label>
  );
}
