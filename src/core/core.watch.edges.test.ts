/**
 * Watches at the edges of their runner: a core that only makes watches never runs one, and a run stopped before
 * its first page leaves its watch due, so the next runner runs it at once rather than a whole period later.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '.';
import { call } from './testing/bridge-call';
import { startSandbox, type Sandbox } from '../sandbox';
import type { WatchSummary } from '../shared/ipc/watch';
import { FakeClock } from './testing/fake-clock';
import { testCoreDeps } from './testing/core-deps';
import { WatchScheduler } from './watch/scheduler';

const dirs: string[] = [];
const sandboxes: Sandbox[] = [];
let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, size: 'small' });
  sandboxes.push(sandbox);
});
afterAll(async () => {
  for (const s of sandboxes) await s.close();
  dirs.forEach((d) => rmSync(d, { recursive: true, force: true }));
});

const charged = async () =>
  ((await (await fetch(`${sandbox.baseUrl}/__sandbox/requests`)).json()) as { requests: unknown[] }).requests.length;

describe('a watch’s runner at its edges', () => {
  it('a scheduler never started is never kicked into a tick', () => {
    const clock = new FakeClock();
    const scheduler = new WatchScheduler({
      project: async () => null,
      source: { fetchPage: async () => Promise.reject(new Error('never asked')) },
      clock,
      prices: () => {
        throw new Error('never asked');
      },
      identity: { who: 'app', host: 'h', pid: 1 },
      tickMs: 60_000,
    });
    scheduler.kick();
    scheduler.runNow(1);
    expect(clock.pending).toBe(0);
    scheduler.start();
    expect(clock.pending).toBe(1);
  });

  it(
    'a run stopped before its first page leaves its watch due; the next runner runs it at once',
    {
      timeout: 120_000,
    },
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'skein-watch-edges-'));
      dirs.push(dir);
      let core: Core | null = null;
      // the app switches away the moment the run starts: before its first page
      core = createCore(
        testCoreDeps(dir, sandboxes, {
          apiBaseUrl: sandbox.baseUrl,
          apiKey: 'k',
          workers: undefined,
          confirm: async () => true,
          watches: { start: false },
          emit: (name, payload) => {
            if (name === 'watch' && (payload as { what?: string }).what === 'run-started')
              void core?.watches.scheduler.stop();
          },
        }),
      );
      const created = await call<WatchSummary>(core, 'skein:watch.create', {
        name: 'Stopped at once',
        kind: 'accounts',
        targets: [sandbox.examples.profile.id],
        strategy: 'full',
        schedule: { everyMinutes: 24 * 60 },
        caps: { perRun: 5_000, perDay: 10_000, total: 50_000 },
      });
      await fetch(`${sandbox.baseUrl}/__sandbox/requests`, { method: 'DELETE' });
      await core.watches.scheduler.tick();
      const after = (await call<{ watches: WatchSummary[] }>(core, 'skein:watch.list')).watches[0]!;
      expect(after.lastRun).toMatchObject({ status: 'stopped', calls: 0 });
      expect(after.nextRunAt).not.toBeNull();
      expect(after.nextRunAt!).toBeLessThanOrEqual(Date.now());
      expect(await charged()).toBe(0);
      await core.dispose();

      // the next runner (another Skein, the headless runner) finds it due and runs it on its first tick
      const next = createCore(
        testCoreDeps(dir, sandboxes, {
          apiBaseUrl: sandbox.baseUrl,
          apiKey: 'k',
          workers: undefined,
          watches: { start: false },
        }),
      );
      await next.watches.scheduler.tick();
      const ran = (await call<{ watches: WatchSummary[] }>(next, 'skein:watch.list')).watches.find(
        (w) => w.id === created.id,
      )!;
      expect(ran.lastRun).toMatchObject({ status: 'done' });
      expect(ran.lastRun!.calls).toBeGreaterThan(0);
      expect(ran.nextRunAt!).toBeGreaterThan(Date.now());
      await next.dispose();
    },
  );
});
