/**
 * Tolerant readers of raw item values (CSV rows, presets, Parquet, networks, ids): any shape in, a cell or null out. The
 * live service's variants (api-field-notes.md) read as the spec's.
 */
import { parseApiDate } from '../../shared/api/dates';

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

/** `Sun Nov 22 02:13:21 +0000 2026` → `2026-11-22T02:13:21.000Z`; null when unreadable. */
export function isoFromCreatedAt(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const fast = utcIso(value);
  // the epoch and before is a placeholder for none, as parseApiDate reads it
  if (fast !== null) return fast > EPOCH ? fast : null;
  const t = parseApiDate(value);
  return t === null ? null : new Date(t).toISOString();
}

const EPOCH = '1970-01-01T00:00:00.000Z';
const WEEKDAYS = new Set(['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun']);
/** month → its number and the days it always has (February: 28) */
const MONTHS = new Map<string, { mm: string; days: number }>(
  (['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const).map((m, i) => [
    m,
    { mm: String(i + 1).padStart(2, '0'), days: [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][i] as number },
  ]),
);
/** where `Www Mmm dd hh:mm:ss +0000 yyyy` has digits */
const DIGITS = [8, 9, 11, 12, 14, 15, 17, 18, 21, 22, 23, 24, 26, 27, 28, 29];

/**
 * The common case without a Date or a regex (an export reads one per row): a UTC API date whose fields cannot
 * roll over (a day the month always has, seconds below 60, a four-digit year from 1000) is its own ISO text.
 * Anything else (an offset, a 29th of February, a leap second, a one-digit day) is null: `parseApiDate` reads it.
 */
function utcIso(v: string): string | null {
  if (v.length !== 30 || v[3] !== ' ' || v[7] !== ' ' || v[10] !== ' ' || v[13] !== ':' || v[16] !== ':') return null;
  if (v[19] !== ' ' || v[20] !== '+' || v[25] !== ' ' || v[26] === '0') return null;
  for (const i of DIGITS) {
    const c = v.charCodeAt(i);
    if (c < 48 || c > 57) return null;
  }
  if (v[21] !== '0' || v[22] !== '0' || v[23] !== '0' || v[24] !== '0') return null;
  const month = MONTHS.get(v.slice(4, 7));
  if (month === undefined || !WEEKDAYS.has(v.slice(0, 3))) return null;
  const day = v.slice(8, 10);
  const hh = v.slice(11, 13);
  const mm = v.slice(14, 16);
  const ss = v.slice(17, 19);
  if (day === '00' || Number(day) > month.days || hh > '23' || mm > '59' || ss > '59') return null;
  return `${v.slice(26, 30)}-${month.mm}-${day}T${hh}:${mm}:${ss}.000Z`;
}

export function isoFromMs(value: unknown): string | null {
  const n = num(value);
  const d = n === null ? null : new Date(n);
  // a hostile number outside the Date range would make toISOString throw
  return d === null || Number.isNaN(d.getTime()) ? null : d.toISOString();
}

/** A numeric counter from the live variants of `viewCount` (string, number, `[0]`): else empty. */
export function counter(v: unknown): string | null {
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  if (typeof v === 'string' && /^\d+$/.test(v)) return v;
  return null;
}

/** Every media URL of a post: spec `entities.media` and the live `extendedEntities.media`. */
export function mediaUrls(post: Obj): string[] {
  const urls: string[] = [];
  for (const m of arr(obj(post.entities)?.media)) {
    const info = obj(obj(obj(obj(m)?.media_results)?.result)?.media_info);
    urls.push(
      nonEmpty(info?.original_img_url) ?? nonEmpty(obj(m)?.media_url_https) ?? nonEmpty(obj(m)?.expanded_url) ?? '',
    );
  }
  for (const m of arr(obj(post.extendedEntities)?.media)) {
    const o = obj(m);
    const variants = arr(obj(o?.video_info)?.variants).map((v) => nonEmpty(obj(v)?.url));
    urls.push(nonEmpty(o?.media_url_https) ?? '', ...variants.map((v) => v ?? ''));
  }
  return [...new Set(urls.filter(Boolean))];
}

/** The id that identifies an item for de-duplication, or null (trends, objects). */
export function itemIdOf(raw: unknown): string | null {
  if (raw === null || typeof raw !== 'object') return null;
  const r = raw as Record<string, unknown>;
  for (const key of ['id', 'rest_id', 'id_str']) {
    const v = r[key];
    if (typeof v === 'string' && v !== '') return v;
    if (typeof v === 'number' && Number.isSafeInteger(v)) return String(v);
  }
  return null;
}
