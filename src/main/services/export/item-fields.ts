/**
 * Tolerant readers of raw item values (CSV rows, presets, Parquet, networks, ids): any shape in, a cell or null out. The
 * live service's variants (api-field-notes.md) read as the spec's.
 */
import { parseApiDate } from '../../../shared/api/dates';

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
  const t = typeof value === 'string' ? parseApiDate(value) : null;
  return t === null ? null : new Date(t).toISOString();
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
