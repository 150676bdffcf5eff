/**
 * Trends: the spec's `{name, url, query, tweet_volume}`; the live service
 * wraps each: `{trend: {name, target: {query}, rank, meta_description}}`.
 */
import { isObject, str, type Obj } from './values';

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
