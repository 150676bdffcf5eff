/**
 * Runners started, stopped and handed over in any order: whatever sequence of new watches, ticks, runs stopped
 * as they start (the app switching away, quitting) and handovers to another runner came before, a free runner's
 * next tick runs every watch that is due, and a watch that has never run is due. Generated sequences against the
 * sandbox, on a clock the test moves.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Core } from '.';
import { WatchSpec } from '../shared/ipc/watch';
import { movingSandbox } from './testing/moving-sandbox';

const HOUR = 3_600_000;
const world = movingSandbox({ base: Date.UTC(2026, 10, 22, 6, 0, 0), seed: 13, prefix: 'skein-watch-sequences-' });
const ctx = { senderId: 0 };

type Step =
  | { kind: 'create'; every: number }
  | { kind: 'tick' }
  | { kind: 'stop-as-run-starts' }
  | { kind: 'handover' }
  | { kind: 'advance'; hours: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('create' as const), every: fc.constantFrom(2, 6, 24) }),
  fc.constant({ kind: 'tick' as const }),
  fc.constant({ kind: 'stop-as-run-starts' as const }),
  fc.constant({ kind: 'handover' as const }),
  fc.record({ kind: fc.constant('advance' as const), hours: fc.integer({ min: 1, max: 30 }) }),
);

/** one machine's Skeins over one project folder: each new one is the next runner */
function machine() {
  const first = world.core();
  let stopOnStart = false;
  let current: Core;
  const open = (): Core => {
    current = world.core({
      projectPath: first.project,
      userDataDir: first.dir,
      emit: (name, payload) => {
        if (stopOnStart && name === 'watch' && (payload as { what?: string }).what === 'run-started') {
          stopOnStart = false;
          void current.watches.scheduler.stop();
        }
      },
    }).core;
    return current;
  };
  void first.core.dispose();
  open();
  return {
    core: () => current,
    armStop: () => {
      stopOnStart = true;
    },
    handover: async () => {
      stopOnStart = false;
      await current.dispose();
      return open();
    },
  };
}

const list = async (c: Core) => (await c.handlers.watch.list(undefined, ctx)).watches;

describe('watches under any sequence of runners', () => {
  it('a free runner’s next tick runs every due watch, whatever came before', { timeout: 300_000 }, async () => {
    const accounts = (
      await world.control<{ members: Array<{ id: string }> }>(`/__sandbox/lists/${world.sandbox().examples.listId}`)
    ).members.map((m) => m.id);
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom(2, 6, 24), { minLength: 1, maxLength: 3 }),
        fc.array(step, { minLength: 1, maxLength: 7 }),
        async (first, then) => {
          const m = machine();
          let made = 0;
          const steps: Step[] = [...first.map((every) => ({ kind: 'create' as const, every })), ...then];
          try {
            for (const s of steps) {
              switch (s.kind) {
                case 'create':
                  if (made >= 3) break;
                  await m.core().handlers.watch.create(
                    WatchSpec.parse({
                      name: `Watch ${++made}`,
                      kind: 'accounts',
                      targets: accounts.slice(made * 2, made * 2 + 2),
                      strategy: 'full',
                      schedule: { everyMinutes: s.every * 60 },
                      caps: { perRun: 5_000, perDay: 20_000, total: 100_000 },
                    }),
                    ctx,
                  );
                  break;
                case 'tick':
                  await m.core().watches.scheduler.tick();
                  break;
                case 'stop-as-run-starts':
                  m.armStop();
                  await m.core().watches.scheduler.tick();
                  // the app quit or switched away: the next runner is another Skein
                  await m.handover();
                  break;
                case 'handover':
                  await m.handover();
                  break;
                case 'advance':
                  world.advance(s.hours * HOUR);
                  break;
              }
            }
            // a free runner
            const runner = await m.handover();
            const before = await list(runner);
            // a watch that never ran is due now
            for (const w of before)
              if (w.lastRun === null || w.lastRun.status === 'stopped') expect(w.nextRunAt).not.toBeNull();
            const due = before.filter((w) => w.nextRunAt !== null && w.nextRunAt <= world.now());
            const tickAt = world.now();
            await runner.watches.scheduler.tick();
            const after = await list(runner);
            for (const w of due) {
              const ran = after.find((x) => x.id === w.id);
              expect(
                ran?.lastRun?.startedAt ?? 0,
                `${w.spec.name} ran in the free runner's tick`,
              ).toBeGreaterThanOrEqual(tickAt);
              expect(ran?.lastRun?.status).toBe('done');
              expect(ran?.nextRunAt ?? 0).toBeGreaterThan(world.now());
            }
            for (const w of before.filter((x) => x.lastRun === null || x.lastRun.status === 'stopped'))
              expect(due.map((x) => x.id)).toContain(w.id);
          } finally {
            await m.core().dispose();
          }
        },
      ),
      { numRuns: 20 },
    );
  });
});
