import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SkeinError } from '../../shared/errors';
import { FakeClock } from '../testing/fake-clock';
import type { Budget } from './caps';
import { Journal, type FailedFetch, type PageRecord } from './journal';
import type { PageRequest, SourcePage } from './page-source';
import { pageRecord, walkPages, type PageWalker, type WalkStep } from './walk';

const PAGE_CREDITS = 15;

function sourcePage(cursor: string | null, last: boolean, at: number): SourcePage {
  const n = Number(cursor ?? 0);
  return {
    rawItems: [{ id: `p${n}` }],
    dropped: [],
    duplicatesRemoved: 0,
    received: 1,
    notFound: [],
    paging: { hasNextPage: !last, nextCursor: last ? null : String(n + 1), stop: null },
    fetchedAt: at,
    httpStatus: 200,
    credits: PAGE_CREDITS,
    fromCache: false,
    attempts: 1,
  };
}

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'skein-walk-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** a walk of a 5-page listing; `answer` may throw instead of answering a fetch */
async function listing(
  o: {
    answer?: (cursor: string | null, call: number, now: number) => void;
    caps?: (pages: PageRecord[]) => Budget[];
    unreadable?: PageWalker<WalkStep>['unreadable'];
    signal?: AbortSignal;
  } = {},
) {
  const clock = new FakeClock(undefined, { autoAdvance: true });
  const path = join(dir, 'walk.log');
  const journal = await Journal.open(path);
  const pages: PageRecord[] = [];
  const failures: FailedFetch[] = [];
  const asked: Array<string | null> = [];
  const outcome = await walkPages<WalkStep>({
    journal,
    clock,
    signal: o.signal ?? new AbortController().signal,
    next: async () => {
      const last = pages.at(-1);
      if (!last) return { page: { request: 0, cursor: null } };
      return last.hasNextPage && last.nextCursor ? { page: { request: 0, cursor: last.nextCursor } } : { done: true };
    },
    caps: () => o.caps?.(pages) ?? [],
    fetch: async (step: WalkStep, _controls: Pick<PageRequest, 'signal'>) => {
      asked.push(step.cursor);
      o.answer?.(step.cursor, asked.length, clock.now());
      return sourcePage(step.cursor, step.cursor === '4', clock.now());
    },
    unreadable: o.unreadable,
    onFailure: (f) => {
      failures.push(f);
    },
    keep: async (page, step) => ({
      items: page.rawItems.map((raw) => ({
        id: (raw as { id: string }).id,
        position: 'null',
        raw: JSON.stringify(raw),
      })),
      record: pageRecord(page, step, { kept: page.rawItems.length, duplicates: 0 }),
    }),
    onCommitted: (record) => {
      pages.push(record);
    },
  });
  await journal.close();
  const replay = { pages: [] as PageRecord[], failures: [] as FailedFetch[] };
  const again = await Journal.open(path, {
    onPage: (p) => replay.pages.push(p),
    onFailure: (f) => replay.failures.push(f),
  });
  await again.close();
  return { outcome, pages, failures, asked, clock, replay };
}

/** a 5-page listing whose every page takes 600 ms: the journal is due a flush every second page */
async function slowPages() {
  const clock = new FakeClock();
  const journal = await Journal.open(join(dir, 'slow.log'));
  const asked: Array<string | null> = [];
  const pages: PageRecord[] = [];
  const walker: PageWalker<WalkStep> = {
    journal,
    clock,
    signal: new AbortController().signal,
    next: async () => {
      const last = pages.at(-1);
      if (!last) return { page: { request: 0, cursor: null } };
      return last.nextCursor ? { page: { request: 0, cursor: last.nextCursor } } : { done: true };
    },
    fetch: async (step) => {
      asked.push(step.cursor);
      await clock.advance(600);
      return sourcePage(step.cursor, step.cursor === '4', clock.now());
    },
    keep: async (page, step) => {
      const record = pageRecord(page, step, { kept: 0, duplicates: 0 });
      pages.push(record);
      return { items: [], record };
    },
  };
  return { walker, asked, journal };
}

describe('walkPages', () => {
  it('walks every page to the end, each journaled once', async () => {
    const w = await listing();
    expect(w.outcome).toEqual({ done: true });
    expect(w.asked).toEqual([null, '1', '2', '3', '4']);
    expect(w.replay.pages.map((p) => p.cursor)).toEqual([null, '1', '2', '3', '4']);
  });

  it('a credit cap stops before the page that would pass it, and that page is never bought', async () => {
    const w = await listing({
      caps: (pages) => [{ name: 'credits', left: 40 - pages.reduce((n, p) => n + p.credits, 0), cost: PAGE_CREDITS }],
    });
    expect(w.outcome).toMatchObject({ done: false, reason: 'cap', cap: { name: 'credits', left: 10, cost: 15 } });
    expect(w.asked).toEqual([null, '1']);
    expect(w.replay.pages).toHaveLength(2);
  });

  it('a 429 with Retry-After is waited out, then the page is fetched once and the walk goes on', async () => {
    const w = await listing({
      answer: (cursor, call, now) => {
        if (cursor === '2' && call === 3) {
          throw new SkeinError('rate-limited', 'Rate limited.', { retryAt: now + 5_000, calls: 1, credits: 0 });
        }
      },
    });
    expect(w.outcome).toEqual({ done: true });
    expect(w.asked).toEqual([null, '1', '2', '2', '3', '4']);
    expect(w.replay.pages.filter((p) => p.cursor === '2')).toHaveLength(1);
    // the request that left is counted, with its reason
    expect(w.replay.failures).toMatchObject([{ cursor: '2', calls: 1, code: 'rate-limited' }]);
  });

  it('waits as long as Retry-After says', async () => {
    const w = await listing({
      answer: (cursor, call, now) => {
        if (cursor === null && call === 1) {
          throw new SkeinError('rate-limited', 'Rate limited.', { retryAt: now + 30_000, calls: 1 });
        }
      },
    });
    expect(w.outcome).toEqual({ done: true });
    expect(w.clock.sleeps).toEqual([30_000]);
    expect(w.asked.filter((c) => c === null)).toHaveLength(2);
  });

  it('a failed fetch becomes a journaled record with its reason, and the walk stops with it', async () => {
    const w = await listing({
      answer: (cursor) => {
        if (cursor === '3')
          throw new SkeinError('upstream', 'The service answered 503 four times.', { calls: 4, credits: 4 });
      },
    });
    expect(w.outcome).toMatchObject({ done: false, reason: 'error', message: 'The service answered 503 four times.' });
    expect(w.replay.failures).toEqual([
      expect.objectContaining({ cursor: '3', calls: 4, credits: 4, code: 'upstream' }),
    ]);
    expect(w.failures).toEqual(w.replay.failures);
    expect(w.replay.pages).toHaveLength(3);
  });

  it('a failure the walker cannot read past ends the walk, journaled even when it cost nothing', async () => {
    const w = await listing({
      answer: () => {
        throw new SkeinError('not-found', 'No such user.');
      },
      unreadable: (f) => f.code === 'not-found',
    });
    expect(w.outcome).toMatchObject({ done: false, reason: 'unreadable', failure: { code: 'not-found' } });
    expect(w.replay.failures).toMatchObject([{ code: 'not-found', calls: 0 }]);
  });

  it('goes on fetching while the journal is flushed to disk, and ends only once the flush has', async () => {
    const { walker, asked, journal } = await slowPages();
    let flushed = false;
    let startedAfter = -1;
    let release = () => undefined as void;
    journal.sync = () => {
      if (startedAfter >= 0) return Promise.resolve();
      startedAfter = asked.length;
      return new Promise<void>((resolve) => (release = () => ((flushed = true), resolve())));
    };
    walker.onCommitted = () => {
      // the flush finishes only once two more pages have come in behind it
      if (startedAfter >= 0 && asked.length === startedAfter + 2) release();
    };
    await expect(walkPages(walker)).resolves.toEqual({ done: true });
    expect(asked.length).toBeGreaterThanOrEqual(startedAfter + 2);
    expect(flushed).toBe(true);
    await journal.close();
  });

  it('a flush to disk that failed stops the walk at the next page, with its error', async () => {
    const { walker, asked, journal } = await slowPages();
    journal.sync = () => Promise.reject(new Error('The disk went away.'));
    await expect(walkPages(walker)).rejects.toThrow('The disk went away.');
    expect(asked.length).toBeLessThan(5);
    await journal.close();
  });

  it('a flush to disk that fails behind the last page fails the walk in plain words, not silently', async () => {
    const { walker, journal } = await slowPages();
    let pages = 0;
    let fail = () => undefined as void;
    walker.onCommitted = () => void pages++;
    journal.sync = () =>
      new Promise<void>((_, reject) => (fail = () => reject(Object.assign(new Error('EIO'), { code: 'EIO' }))));
    const walking = walkPages(walker);
    // the flush started behind a page fails only once the walk has had its last page
    const outcome = walking.then(
      (o) => o,
      (e: unknown) => e,
    );
    await vi.waitFor(() => expect(pages).toBe(5));
    fail();
    expect(await outcome).toMatchObject({
      code: 'write-failed',
      message: expect.stringContaining('could not be written'),
    });
    await journal.close();
  });

  it('a stop asked for before a page ends the walk without asking for it', async () => {
    const w = await listing({ signal: AbortSignal.abort() });
    expect(w.outcome).toEqual({ done: false, reason: 'cancelled' });
    expect(w.asked).toEqual([]);
  });
});
