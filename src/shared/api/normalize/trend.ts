/**
 * Trends: the spec's `{name, url, query, tweet_volume}`; the live service
 * wraps each: `{trend: {name, target: {query}, rank, meta_description}}`.
 */
import type { AnswerSnapshot } from '../../ipc/api';
import { isObject, str, toInt, type Obj } from './values';

/** what a trend's `url` is when it cannot be built ('' means "no link") */
const NO_URL = '';
/**
 * Neither live form (wrapped or unwrapped) carries a URL: the search link is built from
 * `target.query` on the site the live service reads (its posts' `twitterUrl`s point there).
 */
const TREND_SEARCH_BASE = 'https://x.com/search?q=';

function searchUrl(url: unknown, query: string): string {
  if (typeof url === 'string' && url !== '') return url;
  return query === '' ? NO_URL : `${TREND_SEARCH_BASE}${query}`;
}

function encodedQuery(q: string): string {
  // already percent-encoded (has %XX and no raw spaces or #): keep it
  if (/%[0-9A-Fa-f]{2}/.test(q) && !/[\s#]/.test(q)) return q;
  return encodeURIComponent(q);
}

export function normalizeTrend(v: unknown): unknown {
  if (!isObject(v)) return v;
  const inner: Obj = isObject(v.trend) ? { ...v.trend } : { ...v };
  const name = inner.name;
  if (typeof name !== 'string') return inner;
  const target = isObject(inner.target) ? inner.target : {};
  const query = encodedQuery(str(inner.query, str(target.query, name)));
  return {
    ...inner,
    name,
    query,
    url: searchUrl(inner.url, query),
    tweet_volume: typeof inner.tweet_volume === 'number' ? inner.tweet_volume : null,
  };
}

/** the platform's first day: an earlier "time" is a placeholder (0, a default), never a real one */
const EARLIEST = Date.UTC(2006, 2, 21);

/**
 * The live trends' own time and place (`metadata: {timestamp (epoch ms), refresh_interval_millis,
 * woeid: {name, id}}`, api-field-notes.md "Round 2"); null when the answer says neither.
 */
export function readTrendsSnapshot(body: unknown): AnswerSnapshot | null {
  if (!isObject(body)) return null;
  const meta = isObject(body.metadata) ? body.metadata : isObject(body.data) ? body.data.metadata : undefined;
  if (!isObject(meta)) return null;
  const t = toInt(meta.timestamp);
  // seconds (below 1e11) or milliseconds, as elsewhere in the service's answers
  const ms = t === undefined ? null : t < 1e11 ? t * 1000 : t;
  const asOf = ms !== null && ms >= EARLIEST ? ms : null;
  const every = toInt(meta.refresh_interval_millis);
  const w = isObject(meta.woeid) ? meta.woeid : null;
  const name = typeof w?.name === 'string' && w.name.trim() !== '' ? w.name.trim() : null;
  const woeid = toInt(w?.id) ?? null;
  const place = name !== null ? { name, woeid } : null;
  if (asOf === null && place === null) return null;
  return { asOf, refreshIntervalMs: every !== undefined && every > 0 ? every : null, place };
}
