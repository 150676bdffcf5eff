import { describe, expect, it } from 'vitest';
import type { UsageCall, UsageSnapshot } from '../../../shared/ipc/settings';
import { callRows, freeReason, operationRows } from './usage-rows';

const call = (extra: Partial<UsageCall>): UsageCall => ({
  operation: 'trends',
  paramsDigest: 'x',
  at: 1000,
  httpStatus: 200,
  items: 30,
  charged: true,
  credits: 15,
  fromCache: false,
  ...extra,
});

const snapshot = (recent: UsageCall[], byOperation: UsageSnapshot['byOperation'] = []): UsageSnapshot => ({
  session: { calls: 0, credits: 0, usd: 0 },
  lifetime: { calls: 0, credits: 0, usd: 0 },
  byOperation,
  recent,
});

describe('operationRows', () => {
  it('names operations and puts the most expensive first', () => {
    const rows = operationRows(
      snapshot(
        [],
        [
          { operation: 'trends', calls: 3, credits: 45 },
          { operation: 'listTimeline', calls: 1, credits: 150 },
          { operation: 'communityMembers', calls: 1, credits: 0 },
        ],
      ),
    );
    expect(rows.map((r) => [r.title, r.calls, r.credits])).toEqual([
      ['List posts', 1, 150],
      ['Trends', 3, 45],
      ['Community members', 1, 0],
    ]);
  });
});

describe('callRows', () => {
  it('lists recent calls newest first with status, items and charge', () => {
    const rows = callRows(
      snapshot([
        call({ at: 1 }),
        call({ at: 3, operation: 'communityMembers', httpStatus: 501, charged: false, credits: 0, items: 0 }),
        call({ at: 2, fromCache: true, charged: false, credits: 15 }),
      ]),
    );
    expect(rows.map((r) => [r.title, r.status, r.items, r.charge, r.credits])).toEqual([
      ['Community members', '501', 0, 'free: not available yet (501)', 0],
      ['Trends', 'cached', 30, 'free: served from cache', 0],
      ['Trends', '200', 30, 'charged', 15],
    ]);
  });
  it('explains every kind of free call', () => {
    expect(freeReason(call({}))).toBeNull();
    expect(freeReason(call({ charged: false, httpStatus: 0 }))).toBe('free: no answer');
    expect(freeReason(call({ charged: false, httpStatus: 401 }))).toBe('free: key refused');
    expect(freeReason(call({ charged: false, httpStatus: 403 }))).toBe('free: refused (the key, or throttling)');
    expect(freeReason(call({ charged: false, httpStatus: 402 }))).toBe('free: no credits left');
    expect(freeReason(call({ charged: false, httpStatus: 429 }))).toBe('free: rate limited');
  });
});
