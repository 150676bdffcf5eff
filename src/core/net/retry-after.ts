/**
 * `Retry-After` (RFC 9110 §10.2.3): either delay-seconds (a non-negative
 * integer) or an HTTP-date. Returns the wait in milliseconds from `nowMs`
 * (0 when the date is already past), or null when absent or unreadable.
 */
const SECONDS = /^\d+$/;
const ASCTIME = /^[A-Za-z]{3} [A-Za-z]{3} [ \d]\d \d{2}:\d{2}:\d{2} \d{4}$/;
/** an upper bound so a hostile header cannot park the client for years */
export const MAX_RETRY_AFTER_MS = 24 * 60 * 60 * 1000;

export function parseRetryAfter(value: string | null | undefined, nowMs: number): number | null {
  if (value == null) return null;
  const v = value.trim();
  if (v === '') return null;
  if (SECONDS.test(v)) return Math.min(Number(v) * 1000, MAX_RETRY_AFTER_MS);
  // HTTP-date forms (IMF-fixdate, RFC 850, asctime) all carry a weekday name or a month name
  if (!/[a-z]{3}/i.test(v)) return null;
  // asctime carries no zone; HTTP dates are always GMT
  const at = Date.parse(ASCTIME.test(v) ? `${v} GMT` : v);
  if (Number.isNaN(at)) return null;
  return Math.min(Math.max(0, at - nowMs), MAX_RETRY_AFTER_MS);
}
