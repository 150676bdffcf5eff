/**
 * The attempt loop: pace (limiter), try (transport), judge (classify), and
 * retry transient failures with capped, fully jittered exponential backoff or
 * the service's Retry-After, within a bounded number of attempts and an
 * overall deadline. Never retries 501, 4xx other than 408/429, or a
 * cancellation.
 */
import type { Clock } from '../ports';
import type { OperationId } from '../../shared/api/catalog';
import { SkeinError, makeError } from '../../shared/errors';
import { backoffCeiling, backoffDelay, DEFAULT_BACKOFF, type BackoffOptions } from './policy/backoff';
import { classifyAnswer, keyRefusedTwice, rateLimitedMessage } from './policy/classify';
import type { RateLimiter } from './policy/rate-limiter';
import { attempt, AttemptFailure, type FetchLike, type HttpAnswer } from './transport';

export interface RequestPolicy {
  /** attempts per call, the first included */
  maxAttempts: number;
  attemptTimeoutMs: number;
  /** the whole call, waits included */
  deadlineMs: number;
  backoff: BackoffOptions;
  /** answers larger than this are refused */
  maxBytes: number;
}

export const DEFAULT_POLICY: RequestPolicy = {
  maxAttempts: 4,
  attemptTimeoutMs: 20_000,
  deadlineMs: 90_000,
  backoff: DEFAULT_BACKOFF,
  maxBytes: 32 * 1024 * 1024,
};

export interface ExecuteInput {
  operation: OperationId;
  url: string;
  headers: Record<string, string>;
  fetch: FetchLike;
  clock: Clock;
  limiter: RateLimiter;
  /** uniform in [0, 1): the jitter source */
  random: () => number;
  policy: RequestPolicy;
  signal: AbortSignal;
  /**
   * A softer cancel (a long job's Cancel): ends a wait (limiter, backoff) and keeps a new attempt from
   * starting, but never aborts a request in flight, so an answer already paid for is still returned.
   */
  cancelWaits?: AbortSignal;
  /** a wait for a rate limit starts (until then, epoch ms) or ends (null): a long job shows it */
  onRateLimitWait?: (until: number | null) => void;
  /** awaited once, after the limiter lets the first attempt go and before it leaves (see FetchPageInput) */
  beforeSend?: () => Promise<void>;
  /** every HTTP answer, in order (the usage meter counts attempts, as the service bills them) */
  onAnswer?: (answer: HttpAnswer) => void;
  /** a request that left but got no answer (network error, timeout, cancelled in flight) */
  onNoAnswer?: () => void;
  /** the request carries the stored key (a 403 "API key required" is then the key, or the service throttling) */
  keySent?: boolean;
}

export interface Executed {
  answer: HttpAnswer;
  attempts: number;
  /** what the call met on the way that a person should know (a 403 that turned out to be throttling) */
  notice?: string;
}

class DeadlineExceeded extends Error {}

export async function execute(input: ExecuteInput): Promise<Executed> {
  const { clock, policy } = input;
  const started = clock.now();
  const deadlineAt = started + policy.deadlineMs;
  const ac = new AbortController();
  const onAbort = () => ac.abort(input.signal.reason);
  if (input.signal.aborted) onAbort();
  input.signal.addEventListener('abort', onAbort, { once: true });
  const cancelDeadline = clock.setTimer(policy.deadlineMs, () => ac.abort(new DeadlineExceeded()));
  // not AbortSignal.any: a signal it makes from a long-lived one (a job's Cancel, 10,000 calls long) is never
  // freed in Node 24 (~1 KB a call); this one lets go of the job's signal when the call ends
  const waitsController = new AbortController();
  const onCancelWaits = () => waitsController.abort(input.cancelWaits?.reason);
  const waits = input.cancelWaits ? waitsController.signal : ac.signal;
  if (input.cancelWaits) {
    ac.signal.addEventListener('abort', () => waitsController.abort(ac.signal.reason), { once: true });
    if (input.cancelWaits.aborted) onCancelWaits();
    else input.cancelWaits.addEventListener('abort', onCancelWaits, { once: true });
  }
  let attempts = 0;
  let last: SkeinError | undefined;
  /** the first answer of an ambiguous 403 (key sent, "API key required"), and how long Skein waited after it */
  let keyOrThrottle: { error: SkeinError; waitMs: number } | undefined;
  const asked = { keySent: input.keySent ?? false };
  try {
    for (;;) {
      attempts++;
      let retryAfterMs: number | null = null;
      try {
        // paused past this call's deadline (a 429 earlier): say so at once, with the countdown, instead of waiting silently
        const paused = input.limiter.pausedUntil();
        if (paused !== null && paused >= deadlineAt) {
          throw withAttempts(
            makeError(
              'rate-limited',
              `Calls to this service are paused until ${new Date(paused).toLocaleTimeString()}: it answered “429 Too Many Requests”. ${input.limiter.pauseReason() ?? ''}`.trim(),
              {
                retryAt: paused,
                action: 'Wait for the countdown, or use Try now to ask the service again sooner.',
              },
            ),
            attempts - 1,
          );
        }
        try {
          await input.limiter.acquire(waits);
        } catch (e) {
          // this attempt never left: refused by the limiter (the hourly budget), or its wait was cancelled
          if (e instanceof SkeinError) throw withAttempts(e, attempts - 1);
          throw stopped(waits.reason, last, attempts - 1, policy, clock.now());
        }
        if (attempts === 1 && input.beforeSend) {
          try {
            await input.beforeSend();
          } catch (e) {
            // nothing left: a walk that could not say it was about to buy the page does not buy it
            if (e instanceof SkeinError) throw withAttempts(e, 0);
            throw e;
          }
        }
        const answer = await attempt({
          url: input.url,
          headers: input.headers,
          fetch: input.fetch,
          clock,
          timeoutMs: policy.attemptTimeoutMs,
          maxBytes: policy.maxBytes,
          signal: ac.signal,
        });
        input.onAnswer?.(answer);
        const verdict = classifyAnswer(input.operation, answer, clock.now(), asked);
        if (verdict.kind === 'ok')
          return { answer, attempts, ...(keyOrThrottle ? { notice: wasThrottling(keyOrThrottle) } : {}) };
        if (verdict.kind === 'fail') throw withAttempts(verdict.error, attempts);
        if (verdict.keyOrThrottle) {
          // asked once more after the wait: the same 403 again is the key (most likely), and said so
          if (keyOrThrottle) throw withAttempts(keyRefusedTwice(keyOrThrottle.error, keyOrThrottle.waitMs), attempts);
          keyOrThrottle = { error: verdict.error, waitMs: verdict.retryAfterMs ?? 0 };
        }
        last = verdict.error;
        retryAfterMs = verdict.retryAfterMs;
        if (retryAfterMs !== null && verdict.error.code === 'rate-limited')
          input.limiter.pauseUntil(clock.now() + retryAfterMs, verdict.error.message);
      } catch (e) {
        if (e instanceof SkeinError) throw e;
        if (e instanceof AttemptFailure && e.sent) input.onNoAnswer?.();
        if (ac.signal.aborted) throw stopped(ac.signal.reason, last, attempts, policy, clock.now());
        if (!(e instanceof AttemptFailure)) throw e;
        if (!e.retryable) throw withAttempts(e.error, attempts);
        last = e.error;
      }
      // a transient failure: retry if the bounds allow
      if (attempts >= policy.maxAttempts) throw final(last, attempts, clock.now(), policy);
      const wait = retryAfterMs ?? backoffDelay(attempts, input.random, policy.backoff);
      if (clock.now() + wait >= deadlineAt) throw final(last, attempts, clock.now(), policy);
      const rateLimited = last.code === 'rate-limited';
      if (rateLimited) input.onRateLimitWait?.(clock.now() + wait);
      try {
        await clock.sleep(wait, waits);
      } catch {
        throw stopped(waits.reason, last, attempts, policy, clock.now());
      } finally {
        if (rateLimited) input.onRateLimitWait?.(null);
      }
    }
  } finally {
    cancelDeadline();
    input.signal.removeEventListener('abort', onAbort);
    input.cancelWaits?.removeEventListener('abort', onCancelWaits);
  }
}

/** The notice of a call whose ambiguous 403 was followed by an answer: it was the service throttling. */
function wasThrottling(first: { error: SkeinError; waitMs: number }): string {
  const said = first.error.details?.serviceMessage ?? 'API key required';
  return `The service first answered HTTP ${first.error.details?.httpStatus ?? 403} “${said}” although your key was sent; Skein waited ${Math.round(first.waitMs / 1000)} s and asked again, and it answered. It was the service throttling, not your key.`;
}

/** The error that ends a call; a rate limit without Retry-After gets an estimated end. */
function final(last: SkeinError, attempts: number, now: number, policy: RequestPolicy): SkeinError {
  // an ambiguous 403 that could not be asked again within the call's bounds
  if (last.details?.keySent === true && last.code === 'rate-limited')
    return withAttempts(keyRefusedTwice(last, null), attempts);
  if (last.code === 'rate-limited' && last.details?.retryAt === undefined) {
    const retryAt = now + backoffCeiling(attempts + 1, policy.backoff);
    return new SkeinError(last.code, rateLimitedMessage(retryAt, last.details?.serviceMessage), {
      ...last.details,
      retryAt,
      attempts,
    });
  }
  return withAttempts(last, attempts);
}

function withAttempts(error: SkeinError, attempts: number): SkeinError {
  return new SkeinError(error.code, error.message, { ...error.details, attempts });
}

function stopped(
  reason: unknown,
  last: SkeinError | undefined,
  attempts: number,
  policy: RequestPolicy,
  now: number,
): SkeinError {
  if (reason instanceof DeadlineExceeded) {
    if (last?.code === 'rate-limited') return final(last, attempts, now, policy);
    return makeError(
      'timeout',
      `No usable answer within ${Math.round(policy.deadlineMs / 1000)} s${last ? ` (last: ${last.message})` : ''}.`,
      { attempts },
    );
  }
  if (reason instanceof AttemptFailure) return withAttempts(reason.error, attempts);
  return makeError('cancelled', 'The call was cancelled.', { attempts });
}
