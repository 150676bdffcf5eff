/**
 * Trends: the spec's `{name, url, query, tweet_volume}`; the live service
 * wraps each: `{trend: {name, target: {query}, rank, meta_description}}`.
 */
import { isObject, str, type Obj } from './values';

/**
 * The wrapped form carries no URL and the spec does not say which site the
 * search URL points to, so none is invented: '' means "no link".
 */
export const NO_URL = '';

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
    url: str(inner.url, NO_URL),
    tweet_volume: typeof inner.tweet_volume === 'number' ? inner.tweet_volume : null,
  };
}
