/**
 * A watch as a new person makes it, against the sandbox: ten accounts, the caps the estimate proposes (a run's
 * cap covering the first read), switched on for seven days. Its first run reads every account's starting point
 * within the proposed cap (the sandbox's ledger is the witness), and what it kept opens as a collection.
 */
import { describe, expect, it } from 'vitest';
import type { LedgerEntry } from '../sandbox';
import { WatchDraft, WatchSpec } from '../shared/ipc/watch';
import { movingSandbox } from './testing/moving-sandbox';

const DAY = 86_400_000;
const world = movingSandbox({ base: Date.UTC(2026, 10, 22, 6, 0, 0), seed: 5, prefix: 'skein-watch-journey-' });
const { now, control } = world;

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
      } finally {
        await c.dispose();
      }
    },
  );
});
