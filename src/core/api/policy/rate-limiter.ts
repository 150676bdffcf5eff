/**
 * Client-side pacing so paging never provokes a 429: requests start at
 * least 1/rate seconds apart (no bursts: the live service's free balance
 * allows about one request per 5 s). Slots are handed out in call order.
 *
 * Defaults (docs/using.md, "Live mode"; docs/api-client.md): live mode uses the user's setting,
 * 0.2 req/s out of the box (the free tier: the only rate that is safe for
 * every balance); demo mode talks to the local sandbox and is not paced.
 */
import type { Clock } from '../../ports';

/**
 * The longest pause a Retry-After can impose (15 min): a longer one is shown to the user in the
 * service's words (the error's retryAt), and calls after this bound go out and ask again.
 */
export const MAX_PAUSE_MS = 15 * 60 * 1000;

export interface RateLimiter {
  /** wait for the next slot; rejects with the signal's reason if aborted while waiting */
  acquire: (signal?: AbortSignal) => Promise<void>;
  /** requests per second; Infinity = no pacing */
  setRate: (rps: number) => void;
  readonly rate: number;
  /** no slot before `epochMs` (the service said Retry-After), at most MAX_PAUSE_MS from now */
  pauseUntil: (epochMs: number, why?: string) => void;
  /** when the current pause ends (epoch ms), or null when not paused */
  pausedUntil: () => number | null;
  /** what the service said when it asked for the current pause */
  pauseReason: () => string | null;
  /** the user said "try now": drop the pause; true when there was one */
  clearPause: () => boolean;
}

export function createRateLimiter(clock: Clock, rps: number): RateLimiter {
  let rate = rps;
  /** start time of the most recently granted slot */
  let last = -Infinity;
  let pausedUntil = -Infinity;
  let reason: string | null = null;

  const interval = () => (Number.isFinite(rate) && rate > 0 ? 1000 / rate : 0);

  return {
    get rate() {
      return rate;
    },
    setRate(next) {
      if (!(next > 0)) throw new RangeError('rate must be positive');
      rate = next;
    },
    pauseUntil(epochMs, why) {
      pausedUntil = Math.max(pausedUntil, Math.min(epochMs, clock.now() + MAX_PAUSE_MS));
      if (why !== undefined) reason = why;
    },
    pausedUntil: () => (pausedUntil > clock.now() ? pausedUntil : null),
    pauseReason: () => (pausedUntil > clock.now() ? reason : null),
    clearPause() {
      const was = pausedUntil > clock.now();
      pausedUntil = -Infinity;
      if (was) last = Math.min(last, clock.now());
      return was;
    },
    async acquire(signal) {
      if (signal?.aborted) throw signal.reason as Error;
      const now = clock.now();
      const prev = last;
      const slot = Math.max(now, last + interval(), pausedUntil);
      last = slot;
      if (slot > now) {
        try {
          await clock.sleep(slot - now, signal);
        } catch (e) {
          // give the slot back if nobody took a later one
          if (last === slot) last = prev;
          throw e;
        }
      }
    },
  };
}
