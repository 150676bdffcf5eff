import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { creditsFor, DEFAULT_PRICES } from '../../shared/api/pricing';
import { SkeinError } from '../../shared/errors';
import { FakeClock } from '../testing/fake-clock';
import type { PageRequest, SourcePage } from '../walk';
import { walkOf, type Walk } from './plan';
import { openRunJournal, RunWalks } from './walk';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'skein-watch-walk-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const answer = (at: number, credits = 15, fromCache = false): SourcePage => ({
  rawItems: [{ id: '1' }],
  dropped: [],
  duplicatesRemoved: 0,
  received: 1,
  notFound: [],
  paging: null,
  fetchedAt: at,
  httpStatus: 200,
  credits,
  fromCache,
  attempts: fromCache ? 0 : 1,
});

/** a snapshot of one target: a walk of one page */
const snapshot = (target: string): Walk =>
  walkOf({
    key: `snap:${target}`,
    phase: 'fetch',
    operation: 'communityInfo',
    params: { communityId: target },
    target,
  });

async function runWalks(
  o: {
    fail?: (req: PageRequest, at: number) => Error | null;
    perRun?: number;
    pageCredits?: number;
    largest?: number;
    /** the page comes back held by the project (free), as it was received at this time */
    heldSince?: number;
  } = {},
) {
  const clock = new FakeClock(undefined, { autoAdvance: true });
  const path = join(dir, 'run-1.log');
  const asked: PageRequest[] = [];
  const progress: Array<{ calls?: number; credits?: number }> = [];
  const open = async () => {
    const { journal, replay } = await openRunJournal(path);
    const walks = new RunWalks(
      {
        journal,
        store: {
          known: async () => [],
          flush: async () => undefined,
          progressRun: async (_id, p) => {
            progress.push(p);
          },
          largestPage: async () => o.largest ?? 20,
        },
        source: {
          fetchPage: async (req) => {
            asked.push(req);
            const error = o.fail?.(req, clock.now());
            if (error) throw error;
            return o.heldSince !== undefined ? answer(o.heldSince, 0, true) : answer(clock.now(), o.pageCredits);
          },
        },
        clock,
        prices: DEFAULT_PRICES,
        stop: new AbortController().signal,
        runId: 1,
        watchId: 1,
        started: clock.now(),
        spec: {
          caps: { perRun: o.perRun ?? 10_000, perDay: 100_000, total: 1_000_000 },
          options: { overlap: 0 } as never,
        },
        spentBefore: { lastDay: 0, total: 0 },
      },
      replay,
    );
    return { walks, journal };
  };
  return { clock, asked, progress, open };
}

describe('a watch run’s walks', () => {
  it('a rate limit is waited out as Retry-After says, then the page is read once and the run goes on', async () => {
    let limited = false;
    const r = await runWalks({
      fail: (_req, at) => {
        if (limited) return null;
        limited = true;
        return new SkeinError('rate-limited', 'Rate limited.', { retryAt: at + 20_000, calls: 1, credits: 0 });
      },
    });
    const { walks, journal } = await r.open();
    expect(await walks.walk(snapshot('alice'))).toBe(true);
    expect(await walks.walk(snapshot('bob'))).toBe(true);
    await journal.close();
    expect(walks.status).toBe('done');
    expect(r.clock.sleeps).toEqual([20_000]);
    expect(r.asked.map((q) => q.params.communityId)).toEqual(['alice', 'alice', 'bob']);
    // the 429's request counts with the pages
    expect(walks.calls).toBe(3);
  });

  it('stops before the page whose largest possible cost would pass a cap, naming the cap', async () => {
    // a page of this walk may cost up to 60 credits (the retries of an error): after one of 50, 50 are left
    const r = await runWalks({ perRun: 100, pageCredits: 50 });
    const { walks, journal } = await r.open();
    expect(await walks.walk(snapshot('alice'))).toBe(true);
    expect(await walks.walk(snapshot('bob'))).toBe(false);
    await journal.close();
    expect(r.asked).toHaveLength(1);
    expect(walks.status).toBe('capped');
    expect(walks.message).toMatch(
      /^Stopped at the run’s cap: the next page could cost up to 60 credits and 50 are left\.$/,
    );
  });

  it('bounds a page by the largest seen of its operation, not a typical 20: replies pages hold up to 38', async () => {
    // nothing recorded in the project yet: a replies page may still hold 38 posts, 570 credits
    const r = await runWalks({ perRun: 500, largest: 0 });
    const { walks, journal } = await r.open();
    const replies = walkOf({
      key: 'replies:1',
      phase: 'fetch',
      operation: 'postRepliesV2',
      params: { tweetId: '1', queryType: 'Latest' },
      target: '1',
      rule: 'all',
    });
    expect(await walks.walk(replies)).toBe(false);
    await journal.close();
    expect(r.asked).toHaveLength(0);
    expect(walks.message).toMatch(/the next page could cost up to 570 credits and 500 are left/);
  });

  it('a page bought by a run killed before keeping it counts once, when the run picks it up held', async () => {
    const t = Date.UTC(2026, 0, 15, 12, 0, 0);
    // the killed run's journal: the page was about to be asked for; its answer then reached the project
    await writeFile(join(dir, 'run-1.log'), `a\t${JSON.stringify({ request: 0, cursor: null, at: t - 5_000 })}\n`);
    const bought = await runWalks({ heldSince: t - 4_000 });
    const { walks, journal } = await bought.open();
    expect(await walks.walk(snapshot('alice'))).toBe(true);
    await journal.close();
    // what that answer cost when it was bought
    expect(walks.credits).toBe(creditsFor({ operation: 'communityInfo', httpStatus: 200, items: 1 }, DEFAULT_PRICES));
    expect(walks.credits).toBeGreaterThan(0);
    expect(walks.calls).toBe(1);
    await rm(join(dir, 'run-1.log'));

    // held from before the killed run asked for it: another's purchase, free here
    await writeFile(join(dir, 'run-1.log'), `a\t${JSON.stringify({ request: 0, cursor: null, at: t - 5_000 })}\n`);
    const earlier = await runWalks({ heldSince: t - 60_000 });
    const again = await earlier.open();
    expect(await again.walks.walk(snapshot('alice'))).toBe(true);
    await again.journal.close();
    expect(again.walks.credits).toBe(0);
  });

  it('a target not found ends its walk, the run goes on, and a run picked up again does not ask for it again', async () => {
    const r = await runWalks({
      fail: (req) =>
        req.params.communityId === 'gone'
          ? new SkeinError('not-found', 'No such account.', { calls: 1, credits: 15 })
          : null,
    });
    const first = await r.open();
    expect(await first.walks.walk(snapshot('gone'))).toBe(true);
    await first.journal.close();
    expect(first.walks.order[0]).toMatchObject({ ended: true, unavailable: true });
    expect(first.walks.status).toBe('done');

    const again = await r.open();
    expect(await again.walks.walk(snapshot('gone'))).toBe(true);
    expect(await again.walks.walk(snapshot('bob'))).toBe(true);
    await again.journal.close();
    expect(again.walks.order[0]).toMatchObject({ unavailable: true });
    expect(r.asked.map((q) => q.params.communityId)).toEqual(['gone', 'bob']);
    // what the failed request cost is counted after the pick-up too
    expect(again.walks.credits).toBe(30);
  });

  it('a failure that is not a rate limit ends the run as failed, with the service’s reason', async () => {
    const r = await runWalks({ fail: () => new SkeinError('upstream', 'The service answered 503.', { calls: 4 }) });
    const { walks, journal } = await r.open();
    expect(await walks.walk(snapshot('alice'))).toBe(false);
    await journal.close();
    expect(walks).toMatchObject({ status: 'failed', message: 'The service answered 503.', calls: 4 });
  });

  it('picks up a run from a journal as the code before the shared walk wrote it', async () => {
    // a run killed after its first snapshot: the page line carries the walk's note, as runs have always written it
    const page = {
      request: 0,
      cursor: null,
      nextCursor: null,
      hasNextPage: null,
      fetchedAt: 5,
      fromCache: false,
      httpStatus: 200,
      credits: 15,
      attempts: 1,
      received: 1,
      kept: 1,
      duplicates: 0,
      dropped: [],
      notFound: [],
      stop: null,
      note: { walk: 'snap:alice', ended: true, firstKnown: null },
    };
    await writeFile(join(dir, 'run-1.log'), `i\tnull\tnull\t{"id":"1"}\np\t${JSON.stringify(page)}\n`);
    const r = await runWalks();
    const { walks, journal } = await r.open();
    expect(walks.credits).toBe(15);
    expect(await walks.walk(snapshot('alice'))).toBe(true);
    expect(await walks.walk(snapshot('bob'))).toBe(true);
    await journal.close();
    expect(r.asked.map((q) => q.params.communityId)).toEqual(['bob']);
    expect(walks.order[0]).toMatchObject({ ended: true, pages: [page] });
  });
});
