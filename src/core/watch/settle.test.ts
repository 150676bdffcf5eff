import { describe, expect, it } from 'vitest';
import { WatchSpec } from '../../shared/ipc/watch';
import type { GapRecord, PresenceRecord, RunRecord, WatchRecord } from './tables/records';
import type { PageRecord } from '../walk';
import type { Observed } from './observe';
import { walkOf } from './plan';
import { readForSettle, settle, type Settlement } from './settle';
import type { WatchStore } from './store';
import type { WalkState } from './walk';

const STARTED = 10_000;
const post = (id: string, createdAt: number): Observed => ({
  kind: 'post',
  id,
  createdAt,
  author: '11',
  handles: [],
  counters: { likes: 3 },
  counts: {},
});
const page = (fetchedAt: number): PageRecord => ({
  request: 0,
  cursor: null,
  nextCursor: null,
  hasNextPage: false,
  fetchedAt,
  fromCache: false,
  httpStatus: 200,
  credits: 15,
  attempts: 1,
  received: 2,
  kept: 2,
  duplicates: 0,
  dropped: [],
  notFound: [],
  stop: null,
});
const presence = (id: string, status: PresenceRecord['status'], rechecks = 0): PresenceRecord => ({
  watch: 1,
  kind: 'post',
  id,
  target: '11',
  createdAt: 600,
  firstSeen: 700,
  lastSeen: 700,
  firstRun: 1,
  baseline: false,
  firstMissingAt: null,
  rechecks,
  status,
  reason: null,
  statusAt: 700,
  nextCheck: status === 'present' ? null : 9_000,
});

/** a run of an accounts watch that read one timeline to what it held, and re-checked a post called gone */
function ended(): Settlement {
  const listing: WalkState = {
    walk: walkOf({
      key: 'tl:11',
      phase: 'fetch',
      operation: 'userTimeline',
      params: { userId: '11' },
      target: '11',
      rule: 'until-known',
    }),
    pages: [page(STARTED + 1)],
    items: [
      { observed: post('p-new', 2_000), at: STARTED + 1 },
      { observed: post('p-old', 500), at: STARTED + 1 },
    ],
    ended: true,
    unavailable: false,
    firstKnown: 1,
  };
  const recheck: WalkState = {
    walk: walkOf({
      key: 'rc:post:0',
      phase: 'recheck',
      operation: 'postsByIds',
      params: { tweet_ids: 'g1' },
      asked: { kind: 'post', ids: ['g1'] },
    }),
    pages: [page(STARTED + 2)],
    items: [{ observed: post('g1', 100), at: STARTED + 2 }],
    ended: true,
    unavailable: false,
    firstKnown: null,
  };
  return {
    watch: { id: 1, createdAt: 1_000 } as WatchRecord,
    spec: WatchSpec.parse({
      name: 'Accounts',
      kind: 'accounts',
      targets: ['11'],
      strategy: 'full',
      schedule: { everyMinutes: 60 },
      caps: { perRun: 1_000, perDay: 10_000, total: 100_000 },
    }),
    state: { runs: 3, lastRunAt: 5_000, targets: { '11': { baselineAt: 1, floor: 100 } }, names: {} },
    run: { id: 4, startedAt: STARTED } as RunRecord,
    nextDue: 20_000,
    order: [listing, recheck],
    planned: new Set(['11']),
    status: 'done',
    message: null,
    calls: 2,
    credits: 30,
    endedAt: STARTED + 5,
  };
}

/** the project as the run found it, and every call settlement made to it */
function project() {
  const calls: string[] = [];
  const gap: GapRecord = {
    id: 7,
    watch: 1,
    from: 0,
    to: 5_000,
    reason: 'closed',
    detail: '',
    recordedAt: 5_000,
    filledAt: null,
    filledBy: null,
    pending: ['11'],
  };
  const store = {
    presenceOf: async (_w: number, q: { dueBy?: number; targets?: string[] }) => {
      calls.push('presenceOf');
      if (q.dueBy !== undefined) return [presence('g1', 'gone', 1)];
      return [presence('p-old', 'present'), presence('p-deleted', 'present')];
    },
    known: async (_w: number, _k: string, ids: readonly string[]) => {
      calls.push('known');
      return ids.filter((id) => id === 'p-old');
    },
    gaps: async () => {
      calls.push('gaps');
      return [gap];
    },
  } as unknown as WatchStore;
  return { store, calls };
}

describe('settling a run', () => {
  it('reads the project once, up front, then works out what the run changed', async () => {
    const s = ended();
    const { store, calls } = project();
    const reads = await readForSettle(store, s);
    expect(calls.sort()).toEqual(['gaps', 'known', 'presenceOf', 'presenceOf']);
    const outcome = settle(s, reads);
    expect(calls).toHaveLength(4);

    // a post made after the watch began, never held before, is new; an older one is seen, not new
    expect(outcome.run).toMatchObject({ newItems: 1, seenItems: 2, rechecked: 1, returned: 1, gone: 0 });
    expect(outcome.seen.map((x) => [x.id, x.baseline])).toEqual([
      ['p-new', false],
      ['p-old', true],
    ]);
    // what the project held across the span the timeline covered, and it did not return, is missing
    expect(outcome.missing).toEqual([
      expect.objectContaining({ id: 'p-deleted', reason: expect.stringContaining('left out of the listing of 11') }),
    ]);
    // a post called gone and found again by id is back
    expect(outcome.rechecked).toEqual([
      expect.objectContaining({
        id: 'g1',
        found: true,
        reason: expect.stringMatching(/^back: found when asked by id/),
      }),
    ]);
    // the open gap loses the target read in full
    expect(outcome.gaps).toEqual({ add: [], progress: [{ id: 7, pending: [] }] });
    expect(JSON.parse(outcome.watch.state)).toMatchObject({ runs: 4, lastRunAt: STARTED });
  });

  it('a run stopped short leaves a gap for the targets it did not finish, with its reason', async () => {
    const s = ended();
    s.order[0]!.ended = false;
    s.status = 'capped';
    s.message = 'Stopped at the run’s cap.';
    const { store } = project();
    const outcome = settle(s, await readForSettle(store, s));
    expect(outcome.gaps.add).toEqual([
      expect.objectContaining({ reason: 'cap', from: 5_000, to: STARTED, pending: ['11'] }),
    ]);
  });
});
