import { describe, expect, it } from 'vitest';
import type { PresenceRecord } from '../tables/records';
import { firstSighting, missed, nextRecheck, rechecked, RECHECK_AFTER_MS, seenAgain, settlePresence } from './presence';

const T = Date.UTC(2026, 10, 22, 6);
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const held = (over: Partial<PresenceRecord> = {}): PresenceRecord => ({
  ...firstSighting(1, 7, { kind: 'post', id: 'A', target: 'u', createdAt: T - HOUR, at: T, baseline: true }),
  ...over,
});
const seen = (at: number, over = {}) => ({
  kind: 'post' as const,
  id: 'A',
  target: null,
  createdAt: null,
  at,
  baseline: false,
  ...over,
});
const check = (at: number, found: boolean, nextCheck: number | null = null) => ({
  kind: 'post' as const,
  id: 'A',
  at,
  found,
  reason: found ? 'found by id' : 'not found by id',
  nextCheck,
});

describe('presence: what becomes of an item a watch follows', () => {
  it('starts present, first and last seen when first read, in the run that read it', () => {
    expect(held()).toEqual({
      watch: 1,
      kind: 'post',
      id: 'A',
      target: 'u',
      createdAt: T - HOUR,
      firstSeen: T,
      lastSeen: T,
      firstRun: 7,
      baseline: true,
      firstMissingAt: null,
      rechecks: 0,
      status: 'present',
      reason: null,
      statusAt: T,
      nextCheck: null,
    });
  });

  it('seen again: its last sighting only grows, what it lacked is filled, what it had is kept', () => {
    const p = seenAgain(
      held({ target: null, createdAt: null, lastSeen: T + 10 }),
      seen(T + 5, { target: 'v', createdAt: 3 }),
    );
    expect(p).toMatchObject({ lastSeen: T + 10, target: 'v', createdAt: 3, status: 'present', statusAt: T });
    expect(seenAgain(held(), seen(T + 5, { target: 'v' }))).toMatchObject({ target: 'u', lastSeen: T + 5 });
  });

  it('missing → present and gone → returned when seen again in a listing, the re-checks kept', () => {
    const away = { firstMissingAt: T + HOUR, rechecks: 2, nextCheck: T + DAY };
    expect(seenAgain(held({ status: 'missing', ...away }), seen(T + 2 * HOUR))).toMatchObject({
      status: 'present',
      reason: 'seen again in a listing',
      statusAt: T + 2 * HOUR,
      firstMissingAt: T + HOUR,
      rechecks: 2,
      nextCheck: null,
    });
    expect(seenAgain(held({ status: 'gone', ...away }), seen(T + 2 * HOUR))).toMatchObject({
      status: 'returned',
      nextCheck: null,
    });
  });

  it('left out of a listing: present or returned becomes missing, due at once; missing or gone stays', () => {
    const m = { kind: 'post' as const, id: 'A', at: T + HOUR, reason: 'not in the listing' };
    for (const status of ['present', 'returned'] as const)
      expect(missed(held({ status }), m)).toMatchObject({
        status: 'missing',
        reason: 'not in the listing',
        statusAt: T + HOUR,
        firstMissingAt: T + HOUR,
        nextCheck: T + HOUR,
      });
    expect(missed(held({ status: 'missing' }), m)).toBeNull();
    expect(missed(held({ status: 'gone' }), m)).toBeNull();
  });

  it('asked for by id: rechecks + 1 either way; found comes back, not found is gone since it first was', () => {
    const missing = held({ status: 'missing', firstMissingAt: T + HOUR, statusAt: T + HOUR, rechecks: 0 });
    const gone = rechecked(missing, check(T + 2 * HOUR, false, T + DAY));
    expect(gone).toMatchObject({
      status: 'gone',
      statusAt: T + 2 * HOUR,
      firstMissingAt: T + HOUR,
      rechecks: 1,
      nextCheck: T + DAY,
    });
    // still gone: when it went stays
    expect(rechecked(gone, check(T + DAY, false, T + 7 * DAY))).toMatchObject({
      statusAt: T + 2 * HOUR,
      rechecks: 2,
      nextCheck: T + 7 * DAY,
    });
    expect(rechecked(gone, check(T + DAY, true))).toMatchObject({ status: 'returned', rechecks: 2, nextCheck: null });
    expect(rechecked(missing, check(T + DAY, true))).toMatchObject({ status: 'present', rechecks: 1 });
    expect(rechecked(held(), check(T + DAY, true))).toMatchObject({ status: 'present', statusAt: T + DAY });
    // never missed before: gone from the re-check on
    expect(rechecked(held(), check(T + DAY, false))).toMatchObject({ status: 'gone', firstMissingAt: T + DAY });
  });

  it('asks again after a day, a week and a month, then never', () => {
    expect(RECHECK_AFTER_MS).toEqual([DAY, 7 * DAY, 30 * DAY]);
    expect([1, 2, 3, 4].map((n) => nextRecheck(n, T))).toEqual([T + DAY, T + 7 * DAY, T + 30 * DAY, null]);
  });

  it('settles a run in order: seen, then missed, then asked again; each row written once', () => {
    const rows = [held()];
    const out = settlePresence(rows, 1, 8, {
      seen: [seen(T + 5), seen(T + 6, { id: 'B' }), seen(T + 7, { id: 'B', target: 'u' })],
      missing: [
        { kind: 'post', id: 'A', at: T + 10, reason: 'not in the listing' },
        { kind: 'post', id: 'Z', at: T + 10, reason: 'never held' },
      ],
      rechecked: [check(T + 20, false, T + DAY), { ...check(T + 20, false), id: 'nope' }],
    });
    expect(out.map((p) => [p.id, p.status, p.rechecks, p.lastSeen, p.firstRun])).toEqual([
      ['A', 'gone', 1, T + 5, 7],
      ['B', 'present', 0, T + 7, 8],
    ]);
    expect(out[1]?.target).toBe('u');
    // what it was given is left as it was
    expect(rows).toEqual([held()]);
  });
});
