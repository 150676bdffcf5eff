/**
 * Tolerant readers of raw items' fields (the live service's variants included, api-field-notes.md): every
 * export table, preset and network reads items through them, so a hostile or odd item gives empty cells,
 * never a throw.
 */
export type Obj = Record<string, unknown>;
export const obj = (v: unknown): Obj | null =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : null;
export const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
export const str = (v: unknown): string | null =>
  typeof v === 'string' ? v : typeof v === 'number' ? String(v) : null;
export const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
export const bool = (v: unknown): boolean | null => (typeof v === 'boolean' ? v : null);
export const nonEmpty = (v: unknown): string | null => {
  const s = str(v);
  return s === null || s === '' ? null : s;
};
export const join = (values: Array<string | null>): string => values.filter((v): v is string => !!v).join(' ');

export const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
export const CREATED_AT = /^\w{3} (\w{3}) (\d{1,2}) (\d{2}):(\d{2}):(\d{2}) ([+-])(\d{2})(\d{2}) (\d{4})$/;

/** `Sun Nov 22 02:13:21 +0000 2026` → `2026-11-22T02:13:21.000Z`; null when unreadable. */
export function isoFromCreatedAt(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const m = CREATED_AT.exec(value);
  if (m) {
    const [, mon, d, hh, mm, ss, sign, oh, om, y] = m as unknown as string[];
    const month = MONTHS.indexOf(mon as string);
    // out-of-range fields (a 99:99:99, a 32nd day) would roll over into another date: unreadable instead
    if (month < 0 || Number(d) < 1 || Number(d) > 31 || Number(hh) > 23 || Number(mm) > 59 || Number(ss) > 60)
      return null;
    if (Number(oh) > 14 || Number(om) > 59) return null;
    const offset = (sign === '-' ? -1 : 1) * (Number(oh) * 60 + Number(om));
    const t = Date.UTC(Number(y), month, Number(d), Number(hh), Number(mm), Number(ss)) - offset * 60_000;
    return Number.isFinite(t) ? new Date(t).toISOString() : null;
  }
  const t = Date.parse(value);
  return Number.isFinite(t) ? new Date(t).toISOString() : null;
}

export function isoFromMs(value: unknown): string | null {
  const n = num(value);
  const d = n === null ? null : new Date(n);
  // a hostile number outside the Date range would make toISOString throw
  return d === null || Number.isNaN(d.getTime()) ? null : d.toISOString();
}
