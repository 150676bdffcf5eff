/**
 * The usage panel's rows, from the meter's snapshot: totals by operation
 * (most expensive first) and recent calls with a plain status, where cached
 * answers and announced-not-available (501) calls read as free.
 */
import { OPERATIONS } from '../../../shared/api/catalog';
import type { UsageCall, UsageSnapshot } from '../../../shared/ipc/settings';

export interface OperationRow {
  operation: UsageCall['operation'];
  title: string;
  calls: number;
  credits: number;
}

export function operationRows(snapshot: UsageSnapshot): OperationRow[] {
  return snapshot.byOperation
    .map((r) => ({ operation: r.operation, title: OPERATIONS[r.operation].title, calls: r.calls, credits: r.credits }))
    .sort((a, b) => b.credits - a.credits || b.calls - a.calls || a.title.localeCompare(b.title));
}

export interface CallRow {
  key: string;
  operation: UsageCall['operation'];
  title: string;
  /** what it was about: "post 1850… · page 2" */
  subject: string;
  at: number;
  /** "200", "501", "cached", "no answer" */
  status: string;
  items: number;
  /** "charged", or why it was free */
  charge: string;
  charged: boolean;
  credits: number;
}

/** Why a call cost nothing, in a few words; null when it was charged. */
export function freeReason(call: UsageCall): string | null {
  if (call.charged) return null;
  if (call.fromCache) return 'free: served from cache';
  if (call.httpStatus === 501) return 'free: not available yet (501)';
  if (call.httpStatus === 0) return 'free: no answer';
  if (call.httpStatus === 401) return 'free: key refused';
  // the live service answers 403 "API key required" to a key it is throttling too (api-field-notes.md)
  if (call.httpStatus === 403) return 'free: refused (the key, or throttling)';
  if (call.httpStatus === 402) return 'free: no credits left';
  if (call.httpStatus === 429) return 'free: rate limited';
  return 'free';
}

/** Recent calls, newest first. */
export function callRows(snapshot: UsageSnapshot): CallRow[] {
  return [...snapshot.recent]
    .map((c, i) => ({ c, i }))
    .sort((a, b) => b.c.at - a.c.at || b.i - a.i)
    .map(({ c, i }) => ({
      key: `${c.at}-${i}`,
      operation: c.operation,
      title: OPERATIONS[c.operation].title,
      subject: c.subject ?? '',
      at: c.at,
      status: c.fromCache ? 'cached' : c.httpStatus === 0 ? 'no answer' : String(c.httpStatus),
      items: c.items,
      charge: freeReason(c) ?? 'charged',
      charged: c.charged,
      credits: c.charged ? c.credits : 0,
    }));
}
