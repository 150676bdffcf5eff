/**
 * A watch as a new person makes it, against the sandbox: ten accounts, the caps the estimate proposes (a run's
 * cap covering the first read), switched on for seven days. Its first run reads every account's starting point
 * within the proposed cap (the sandbox's ledger is the witness), and what it kept opens as a collection. Run
 * for its seven days on a clock moved run by run, at the demo's own pace, its whole spend is within a quarter of
 * the whole-watch projection (first read included) and equal to its runs' records.
 */
import { describe, expect, it } from 'vitest';
import type { LedgerEntry } from '../sandbox';
import { WatchDraft, WatchSpec } from '../shared/ipc/watch';
import { movingSandbox } from './testing/moving-sandbox';
import type { Core } from './index';

const DAY = 86_400_000;
const world = movingSandbox({ base: Date.UTC(2026, 10, 22, 6, 0, 0), seed: 5, prefix: 'skein-watch-journey-' });
const { now, control } = world;
/** the demo's own pace: the app's sandbox moves at the speed of its generated past */
const demo = movingSandbox({
  base: Date.UTC(2026, 10, 22, 6, 0, 0),
  seed: 5,
  activity: 1,
  prefix: 'skein-watch-journey-demo-',
});

describe('a watch made from the estimate’s proposal', () => {
  it(
    'reads its ten accounts’ starting points in its first run without meeting the proposed cap',
    { timeout: 120_000 },
    async () => {
      const { core: c } = world.core();
      const ctx = { senderId: 0 };
      try {
        const list = await control<{ members: Array<{ id: string }> }>(
          `/__sandbox/lists/${world.sandbox().examples.listId}`,
        );
        const accounts = list.members.slice(0, 10).map((m) => m.id);
        expect(accounts).toHaveLength(10);
        const proposal = await c.handlers.watch.propose(
          WatchDraft.parse({ kind: 'accounts', targets: accounts, everyMinutes: 120, days: 7 }),
          ctx,
        );
        const chosen = proposal.options.find((o) => o.strategy === proposal.recommended);
        const projection = chosen?.projection;
        if (!projection?.caps || projection.firstRun === undefined) throw new Error('no proposal');
        // the first read costs more than a run after it: the cap is the first read's, not the average run's
        expect(projection.firstRun).toBeGreaterThan(projection.perRun);
        expect(projection.whole?.credits).toBeGreaterThan(projection.firstRun);
        await control('/__sandbox/usage/reset', { method: 'POST' });

        const w = await c.handlers.watch.create(
          WatchSpec.parse({
            name: 'Ten accounts',
            kind: 'accounts',
            targets: accounts,
            handles: { [accounts[0] as string]: 'first_one' },
            strategy: proposal.recommended,
            schedule: { everyMinutes: 120, until: now() + 7 * DAY },
            caps: projection.caps,
          }),
          ctx,
        );
        expect(w.spec.handles).toEqual({ [accounts[0] as string]: 'first_one' });
        expect(w.projectedAtStart?.whole?.days).toBeCloseTo(7, 3);
        await c.watches.scheduler.tick();
        const [run] = await c.handlers.watch.runs({ id: w.id, limit: 1 }, ctx);
        expect(run?.status).toBe('done');
        const ledger = await control<{ calls: LedgerEntry[] }>('/__sandbox/usage');
        const spent = ledger.calls.reduce((sum, x) => sum + x.credits, 0);
        expect(ledger.calls.filter((x) => x.operation === 'userTimeline')).toHaveLength(10);
        expect(spent).toBeLessThanOrEqual(projection.caps.perRun);
        expect(spent).toBeLessThanOrEqual(projection.firstRun);
        // a cap drawn from an average run would have stopped it (the gap a new person met)
        expect(spent).toBeGreaterThan(projection.perRun * 1.5);

        // what it holds, counted from the project's rows for the watch, and opened as a collection
        const [summary] = (await c.handlers.watch.list(undefined, ctx)).watches;
        expect(summary?.kept.targets).toBe(10);
        expect(summary?.kept.posts).toBeGreaterThan(10);
        const kept = await c.handlers.watch.collect({ id: w.id }, ctx);
        expect(kept.items).toBe(summary?.kept.posts);
        const collections = await c.handlers.archive.collections({ project: 'current' }, ctx);
        expect(collections.find((x) => x.id === kept.collection)?.items).toBe(summary?.kept.posts);
        // asked again with no run since: the same collection opens, and no second one is made
        expect((await c.handlers.watch.collect({ id: w.id }, ctx)).collection).toBe(kept.collection);
        expect(await c.handlers.archive.collections({ project: 'current' }, ctx)).toHaveLength(collections.length);
      } finally {
        await c.dispose();
      }
    },
  );

  /** a proposal for `accounts` over seven days at two runs a day, then the watch made from it and run to its end */
  async function sevenDays(c: Core, accounts: string[]) {
    const ctx = { senderId: 0 };
    const everyMinutes = 12 * 60;
    const proposal = await c.handlers.watch.propose(
      WatchDraft.parse({ kind: 'accounts', targets: accounts, everyMinutes, days: 7 }),
      ctx,
    );
    const projection = proposal.options.find((o) => o.strategy === proposal.recommended)?.projection;
    if (!projection?.caps || !projection.whole) throw new Error('no proposal');
    await demo.control('/__sandbox/usage/reset', { method: 'POST' });
    const w = await c.handlers.watch.create(
      WatchSpec.parse({
        name: 'Seven days',
        kind: 'accounts',
        targets: accounts,
        strategy: proposal.recommended,
        schedule: { everyMinutes, until: demo.now() + 7 * DAY },
        caps: projection.caps,
      }),
      ctx,
    );
    await c.watches.scheduler.tick();
    for (let i = 1; i < projection.whole.runs + 2; i++) {
      demo.advance(everyMinutes * 60_000);
      await c.watches.scheduler.tick();
    }
    const runs = await c.handlers.watch.runs({ id: w.id, limit: 100 }, ctx);
    expect(runs.filter((r) => r.status === 'done')).toHaveLength(projection.whole.runs);
    const ledger = await demo.control<{ calls: LedgerEntry[] }>('/__sandbox/usage');
    const spent = ledger.calls.reduce((sum, x) => sum + x.credits, 0);
    // the records agree with the ledger run by run
    expect(runs.reduce((n, r) => n + r.credits, 0)).toBe(spent);
    return { spent, projected: projection.whole.credits, basis: projection.basis };
  }

  it(
    'run for its seven days on the moved clock, it spends within a quarter of the whole-watch projection',
    { timeout: 300_000 },
    async () => {
      const { core: c } = demo.core();
      try {
        const list = await demo.control<{ members: Array<{ id: string }> }>(
          `/__sandbox/lists/${demo.sandbox().examples.listId}`,
        );
        const accounts = list.members.slice(10, 20).map((m) => m.id);
        // as a newcomer's handles are resolved: the project holds the accounts' profiles (counters, age)
        await c.handlers.api.call(
          { operation: 'usersByIds', params: { userIds: accounts.join(',') } },
          { senderId: 0 },
        );
        const { spent, projected } = await sevenDays(c, accounts);
        console.log(
          `ten members of a list: spent ${spent}, projected ${projected.toFixed(0)} (ratio ${(spent / projected).toFixed(2)})`,
        );
        expect(spent).toBeGreaterThanOrEqual(projected * 0.75);
        expect(spent).toBeLessThanOrEqual(projected * 1.25);
      } finally {
        await c.dispose();
      }
    },
  );

  it(
    'made from a conversation the project holds, its bursts of replies do not inflate the projection',
    { timeout: 300_000 },
    async () => {
      const { core: c } = demo.core();
      const ctx = { senderId: 0 };
      try {
        // the bursty set: the demo's big conversation, read reply by reply as the thread view does, where a few
        // people answer many times within hours
        const times = new Map<string, number[]>();
        const queue = [demo.sandbox().examples.bigThreadPostId];
        let read = 0;
        while (queue.length > 0 && read < 400) {
          const id = queue.shift() as string;
          let cursor: string | undefined;
          do {
            const page = await c.handlers.api.call(
              { operation: 'postReplies', params: { tweetId: id, ...(cursor ? { cursor } : {}) } },
              ctx,
            );
            for (const post of page.items as Array<{
              id: string;
              replyCount: number;
              createdAt: string;
              author: { id: string };
            }>) {
              read++;
              if (post.replyCount > 0) queue.push(post.id);
              times.set(post.author.id, [...(times.get(post.author.id) ?? []), Date.parse(post.createdAt)]);
            }
            cursor = page.paging?.nextCursor ?? undefined;
          } while (cursor);
        }
        // the ten who answered most: one answered dozens of times over a few days, far above their own pace
        const ranked = [...times].sort((a, b) => b[1].length - a[1].length);
        const accounts = ranked.slice(0, 10).map(([id]) => id);
        expect(ranked[0]?.[1].length).toBeGreaterThanOrEqual(20);
        // opened as the person opens them before watching: their profiles, with their own counters
        await c.handlers.api.call({ operation: 'usersByIds', params: { userIds: accounts.join(',') } }, ctx);
        const { spent, projected, basis } = await sevenDays(c, accounts);
        console.log(
          `bursty set: spent ${spent}, projected ${projected.toFixed(0)} (ratio ${(spent / projected).toFixed(2)})`,
        );
        // their rates come from their own counters, not from how often they answered in the conversation
        expect(basis).toContain('10 from their lifetime averages');
        expect(spent).toBeGreaterThanOrEqual(projected * 0.75);
        expect(spent).toBeLessThanOrEqual(projected * 1.25);
      } finally {
        await c.dispose();
      }
    },
  );
});
