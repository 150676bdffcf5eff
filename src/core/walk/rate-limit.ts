/**
 * Waiting out a rate limit the service announced (429, Retry-After): the walk waits, then asks for the same
 * page again. The wait is bounded for one page, in total and in count, so a service asking for hours (or a
 * storm of zero-second Retry-Afters) stops the walk instead, where it can be resumed.
 */
import { isSkeinError } from '../../shared/errors';

/** the longest a walk waits out rate limits for one page, in total */
export const MAX_RATE_LIMIT_WAIT_MS = 15 * 60_000;
/** a rate limit without a known end is waited out this long */
export const UNTIMED_RATE_LIMIT_WAIT_MS = 10_000;
/** and at most this many times for one page */
export const MAX_RATE_LIMIT_WAITS = 30;

/** rate-limit waits so far for the page being asked for */
export interface Waited {
  ms: number;
  times: number;
}

export const NOT_WAITED: Waited = { ms: 0, times: 0 };

/**
 * How long to wait before asking for the page again, or null: the error is not a rate limit, or waiting it out
 * would pass the bound for one page (the walk stops instead).
 */
export function rateLimitWait(error: unknown, now: number, waited: Waited): number | null {
  if (!isSkeinError(error) || error.code !== 'rate-limited') return null;
  const at = error.details?.serviceRetryAt ?? error.details?.retryAt;
  const wait = typeof at === 'number' ? Math.max(0, at - now) : UNTIMED_RATE_LIMIT_WAIT_MS;
  if (waited.ms + wait > MAX_RATE_LIMIT_WAIT_MS || waited.times >= MAX_RATE_LIMIT_WAITS) return null;
  return wait;
}
