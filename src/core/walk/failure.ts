/**
 * A page fetch that failed, as the journal keeps it: what it cost (the client puts its requests and credits
 * on the error, so a failure that bought nothing costs nothing) and why, in the words the person sees.
 */
import { isSkeinError } from '../../shared/errors';
import type { FailedFetch } from './journal';

/** The record of a failed page fetch: which page, when, what the requests that left cost, and the reason. */
export function failureOf(error: unknown, request: number, cursor: string | null, at: number): FailedFetch {
  const skein = isSkeinError(error);
  const d = ((skein ? error.details : undefined) ?? {}) as { calls?: unknown; attempts?: unknown; credits?: unknown };
  const calls = typeof d.calls === 'number' ? d.calls : typeof d.attempts === 'number' ? d.attempts : 0;
  const credits = typeof d.credits === 'number' ? d.credits : 0;
  const message = error instanceof Error ? error.message : String(error);
  return { request, cursor, at, calls, credits, code: skein ? error.code : 'internal', message };
}

/** Requests left for it: the journal keeps it, so what they cost is counted after a resume too. */
export function costly(failure: FailedFetch): boolean {
  return failure.calls > 0 || failure.credits > 0;
}

/** The fetch ended because the walk was told to stop (a Cancel, a runner's stop), not because it failed. */
export function isCancel(error: unknown, signal: AbortSignal): boolean {
  return (
    signal.aborted ||
    (isSkeinError(error) && error.code === 'cancelled') ||
    (error as Error | null)?.name === 'AbortError'
  );
}
