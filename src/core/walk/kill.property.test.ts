/**
 * A walk killed at every step of its write sequence, and at random steps over several lives, then run to its
 * end: the records (the journal a resumed run counts from) never say less than the service charged, and say
 * more only for an ask killed before its request left (spend is recorded before the request); every page is
 * kept exactly once. The service and the project are models here: the service charges each request it
 * serves; the project holds each answer that reached it, which the client then serves free.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Clock } from '../ports';
import { Journal, type FailedFetch, type PageRecord } from './journal';
import type { SourcePage } from './page-source';
import { pageRecord, walkPages, type WalkStep } from './walk';

/** the steps of one page, in order: where a kill may land */
const STEPS = ['asked', 'charged', 'held', 'kept', 'journaled', 'counted'] as const;
type Step = (typeof STEPS)[number];
interface Kill {
  page: number;
  step: Step;
}

const PAGES = 5;
const PER_ITEM = 15;
/** pages of unequal size, so a count at the wrong price shows */
const itemsOf = (page: number) => 3 + page * 2;

interface World {
  /** what the service charged: one line per request it served */
  ledger: Array<{ page: number; credits: number }>;
  /** answers that reached the project, by page */
  held: Map<number, { fetchedAt: number }>;
  /** requests that left (reached the service) */
  served: number;
  t: number;
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'skein-kill-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const never = () => new Promise<never>(() => {});

function answer(page: number, at: number, fromCache: boolean): SourcePage {
  const n = itemsOf(page);
  return {
    rawItems: Array.from({ length: n }, (_, i) => ({ id: `${page}-${i}` })),
    dropped: [],
    duplicatesRemoved: 0,
    received: n,
    notFound: [],
    paging: { hasNextPage: page < PAGES - 1, nextCursor: page < PAGES - 1 ? String(page + 1) : null, stop: null },
    fetchedAt: at,
    httpStatus: 200,
    credits: fromCache ? 0 : n * PER_ITEM,
    fromCache,
    attempts: fromCache ? 0 : 1,
  };
}

/**
 * One life of the walk. `kill`: the page and step where it stops dead (its promises never settle again, as
 * after SIGKILL: nothing more is written). Resolves when it ends or is killed.
 */
async function life(path: string, world: World, kill: Kill | null): Promise<'done' | 'killed'> {
  const clock: Clock = {
    // strictly increasing: an ask, a page's arrival and the next life's ask never share a moment
    now: () => ++world.t,
    setTimer: () => () => {},
    sleep: async () => {},
  };
  let killed!: () => void;
  const dead = new Promise<'killed'>((resolve) => {
    killed = () => resolve('killed');
  });
  const at = (page: number, step: Step): Promise<void> | null => {
    if (kill?.page !== page || kill.step !== step) return null;
    killed();
    return never();
  };
  // a resumed life picks up where the journal stands
  const committed: PageRecord[] = [];
  const journal = await Journal.open(path, { onPage: (p) => committed.push(p) });
  const done = walkPages<WalkStep>({
    journal,
    clock,
    signal: new AbortController().signal,
    next: async () => {
      const last = committed.at(-1);
      const page = last ? Number(last.nextCursor) : 0;
      if (last && !last.hasNextPage) return { done: true };
      // killed after the last page was counted, before the next is asked for
      if (last) await at(page - 1, 'counted');
      return { page: { request: 0, cursor: last ? last.nextCursor : null } };
    },
    fetch: async (step, controls) => {
      const page = Number(step.cursor ?? 0);
      // the client answers from what the project holds first; only a request about to leave is said
      const held = world.held.get(page);
      if (held) return answer(page, held.fetchedAt, true);
      await controls.beforeSend?.();
      await at(page, 'asked');
      world.served += 1;
      world.ledger.push({ page, credits: itemsOf(page) * PER_ITEM });
      await at(page, 'charged');
      const fetchedAt = clock.now();
      world.held.set(page, { fetchedAt });
      await at(page, 'held');
      return answer(page, fetchedAt, false);
    },
    priceOf: (page) => page.received * PER_ITEM,
    keep: async (page, step) => {
      await at(Number(step.cursor ?? 0), 'kept');
      return {
        items: page.rawItems.map((raw) => ({
          id: (raw as { id: string }).id,
          position: 'null',
          raw: JSON.stringify(raw),
        })),
        record: pageRecord(page, step, { kept: page.rawItems.length, duplicates: 0 }),
      };
    },
    onCommitted: async (record, step) => {
      committed.push(record);
      await at(Number(step.cursor ?? 0), 'journaled');
    },
  });
  const outcome = await Promise.race([done.then(() => 'done' as const), dead]);
  // a killed process's files are closed by the system; its walk writes nothing more (it waits forever)
  await journal.close();
  return outcome;
}

/** the walk's journal, replayed: what a resumed run counts */
async function records(path: string) {
  const pages: PageRecord[] = [];
  const failures: FailedFetch[] = [];
  const ids: string[] = [];
  const j = await Journal.open(path, {
    onPage: (p) => pages.push(p),
    onFailure: (f) => failures.push(f),
    onItem: (id) => ids.push(id ?? ''),
  });
  await j.close();
  const credits = pages.reduce((n, p) => n + p.credits, 0) + failures.reduce((n, f) => n + f.credits, 0);
  const calls = pages.reduce((n, p) => n + p.attempts, 0) + failures.reduce((n, f) => n + f.calls, 0);
  return { pages, ids, credits, calls };
}

let walks = 0;
async function run(kills: readonly Kill[]) {
  const path = join(dir, `walk-${walks++}.log`);
  const world: World = { ledger: [], held: new Map(), served: 0, t: 1_000 };
  let lives = 0;
  for (const kill of kills) {
    lives += 1;
    await life(path, world, kill);
  }
  // the last life runs to the end
  expect(await life(path, world, null)).toBe('done');
  const r = await records(path);
  const charged = world.ledger.reduce((n, x) => n + x.credits, 0);
  // an ask killed before its request left is counted and was not charged: at most one such page a kill
  const unsent = kills.filter((k) => k.step === 'asked');
  const mostUnsent = unsent.reduce((n, k) => n + itemsOf(k.page) * PER_ITEM, 0);
  return { r, charged, calls: world.ledger.length, unsent, mostUnsent, lives };
}

describe('a walk killed at any step', () => {
  for (const step of STEPS)
    for (let page = 0; page < PAGES; page++)
      it(`killed at “${step}” of page ${page + 1}, then resumed: records agree with the service`, async () => {
        const { r, charged, calls, mostUnsent } = await run([{ page, step }]);
        expect(r.pages.map((p) => p.cursor)).toEqual([null, '1', '2', '3', '4']);
        expect(new Set(r.ids).size).toBe(r.ids.length);
        expect(r.ids).toHaveLength(Array.from({ length: PAGES }, (_, p) => itemsOf(p)).reduce((a, b) => a + b));
        if (step === 'asked') {
          // never charged, counted all the same: the records say more, never less
          expect(r.credits).toBe(charged + mostUnsent);
          expect(r.calls).toBe(calls + 1);
        } else {
          expect(r.credits).toBe(charged);
          expect(r.calls).toBe(calls);
        }
      });

  it('killed again and again at random steps: never less than charged, more only by asks that never left', async () => {
    const kill = fc.record({ page: fc.integer({ min: 0, max: PAGES - 1 }), step: fc.constantFrom(...STEPS) });
    await fc.assert(
      fc.asyncProperty(fc.array(kill, { minLength: 1, maxLength: 4 }), async (kills) => {
        const { r, charged, calls, mostUnsent, unsent } = await run(kills);
        expect(r.pages.map((p) => p.cursor)).toEqual([null, '1', '2', '3', '4']);
        expect(new Set(r.ids).size).toBe(r.ids.length);
        expect(r.credits).toBeGreaterThanOrEqual(charged);
        expect(r.credits).toBeLessThanOrEqual(charged + mostUnsent);
        expect(r.calls).toBeGreaterThanOrEqual(calls);
        expect(r.calls).toBeLessThanOrEqual(calls + unsent.length);
      }),
      { numRuns: 300 },
    );
  });
});
