/**
 * Capped exponential backoff with full jitter (AWS Architecture Blog,
 * "Exponential Backoff And Jitter"): the wait before retry n (n = 1 for the
 * first retry) is uniform in [0, min(cap, base * 2^(n-1))).
 */
export interface BackoffOptions {
  baseMs: number;
  capMs: number;
}

export const DEFAULT_BACKOFF: BackoffOptions = { baseMs: 500, capMs: 8_000 };

/** The ceiling of the wait before retry `retry` (1-based). */
export function backoffCeiling(retry: number, opts: BackoffOptions = DEFAULT_BACKOFF): number {
  const n = Math.max(1, Math.floor(retry));
  // 2^(n-1) overflows to Infinity for large n; min() keeps it at the cap
  return Math.min(opts.capMs, opts.baseMs * 2 ** (n - 1));
}

/** The wait before retry `retry`; `random` returns a number in [0, 1). */
export function backoffDelay(retry: number, random: () => number, opts: BackoffOptions = DEFAULT_BACKOFF): number {
  const r = Math.min(Math.max(random(), 0), 1);
  return Math.floor(r * backoffCeiling(retry, opts));
}
