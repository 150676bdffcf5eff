/**
 * Watches in the core, against the moving sandbox on a clock the test moves: a watch of twenty
 * accounts over three simulated days finds each new post once, never spends past a cap (the sandbox's ledger
 * says so), calls a deleted post gone only after a re-check, records the gap of a closed period and fills it,
 * and keeps counters over time. The scheduler is driven tick by tick.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core, type CoreDeps } from '.';
import { call } from './testing/bridge-call';
import { startSandbox, type LedgerEntry, type Sandbox } from '../sandbox';
import type { WatchSummary } from '../shared/ipc/watch';
import { testCoreDeps } from './testing/core-deps';
import { accountsThatWillDelete } from '../sandbox/testing/ahead';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const BASE = Date.UTC(2026, 10, 22, 6, 0, 0);
const dirs: string[] = [];
const sandboxes: Sandbox[] = [];
let offset = 0;
const t0 = Date.now();
const now = () => BASE + offset + (Date.now() - t0);
let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, now, seed: 7, activity: 4 });
  sandboxes.push(sandbox);
});
afterAll(async () => {
  for (const s of sandboxes) await s.close();
  dirs.forEach((d) => rmSync(d, { recursive: true, force: true }));
});

const control = async <T>(path: string): Promise<T> => (await (await fetch(`${sandbox.baseUrl}${path}`)).json()) as T;

function liveCore(dir: string, over: Partial<CoreDeps> = {}): Core {
  return createCore(
    testCoreDeps(dir, sandboxes, {
      apiBaseUrl: sandbox.baseUrl,
      apiKey: 'test-key',
      requestsPerSecond: 1_000,
      now,
      workers: undefined,
      confirm: async () => true,
      watches: { start: false, tickMs: 60_000 },
      ...over,
    }),
  );
}

interface Changes {
  posts: Array<{ id: string; userId: string; createdAt: number; deletedAt: number | null }>;
  deletions: Array<{ id: string; userId: string; at: number }>;
  suspensions: Array<{ userId: string; at: number }>;
}

describe('a watch of twenty accounts over simulated days', () => {
  it(
    'finds every new post once, within its caps, and calls deleted posts gone after a re-check',
    { timeout: 240_000 },
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'skein-watch-'));
      dirs.push(dir);
      const { examples } = sandbox;
      const list = await control<{ members: Array<{ id: string }> }>(`/__sandbox/lists/${examples.listId}`);
      // a few accounts that will delete a post while watched (asked of the world ahead), then the list's members
      const deleting = await accountsThatWillDelete({ now, seed: 7, activity: 4 }, 40 * HOUR);
      const accounts = [...new Set([...deleting.slice(0, 6), ...list.members.map((m) => m.id)])].slice(0, 20);
      await fetch(`${sandbox.baseUrl}/__sandbox/usage/reset`, { method: 'POST' });

      let core = liveCore(dir);
      const proposal = await call<{
        recommended: string;
        options: Array<{ strategy: string; projection: { perDay: number } | null }>;
      }>(core, 'skein:watch.propose', {
        kind: 'accounts',
        targets: accounts,
        everyMinutes: 120,
        options: { trackDays: 3, trackEvery: 6 },
      });
      expect(proposal.recommended).toBe('probe');
      const caps = { perRun: 5_000, perDay: 16_000, total: 60_000 };
      const created = await call<WatchSummary>(core, 'skein:watch.create', {
        name: 'Twenty accounts',
        kind: 'accounts',
        targets: accounts,
        strategy: 'probe',
        schedule: { everyMinutes: 120 },
        caps,
        options: { trackDays: 3, trackEvery: 6 },
      });
      const firstAt = now();
      const runAt: number[] = [];
      const step = async () => {
        runAt.push(now());
        await core.watches.scheduler.tick();
      };
      await step();
      for (let i = 0; i < 17; i++) {
        offset += 2 * HOUR;
        await step();
      }
      // closed for 10 hours: a new core on the same folder finds the gap and fills it
      await core.dispose();
      offset += 10 * HOUR;
      core = liveCore(dir);
      await step();
      for (let i = 0; i < 12; i++) {
        offset += 2 * HOUR;
        await step();
      }
      const lastAt = now();
      const list1 = await call<{ watches: WatchSummary[] }>(core, 'skein:watch.list');
      const w = list1.watches.find((x) => x.id === created.id) as WatchSummary;
      const gaps = await call<Array<{ reason: string; filledAt: number | null; from: number; to: number }>>(
        core,
        'skein:watch.gaps',
        { id: created.id },
      );
      await core.dispose();

      // what the project says it found
      const db = new DatabaseSync(join(dir, 'projects', 'Default.skein'), { readOnly: true });
      const found = db
        .prepare(
          "SELECT id, target, first_seen, baseline, status, rechecks, first_missing_at, status_at FROM watch_presence WHERE watch = ? AND kind = 'post'",
        )
        .all(created.id) as Array<{
        id: string;
        target: string;
        first_seen: number;
        baseline: number;
        status: string;
        rechecks: number;
        first_missing_at: number | null;
        status_at: number;
      }>;
      const runs = db.prepare('SELECT * FROM watch_runs WHERE watch = ? ORDER BY rowid').all(created.id) as Array<{
        new_items: number;
        credits: number;
        status: string;
        started_at: number;
      }>;
      db.close();

      // 1. every post the accounts made (and kept until the next run could see it) was found, once
      const changes = await control<Changes>(`/__sandbox/changes?from=${firstAt}&to=${lastAt}`);
      const watched = new Set(accounts);
      const visibleAtSomeRun = (p: Changes['posts'][number]) =>
        runAt.some((t) => t >= p.createdAt && (p.deletedAt === null || p.deletedAt > t));
      const expected = changes.posts
        .filter((p) => watched.has(p.userId) && visibleAtSomeRun(p))
        .map((p) => p.id)
        .sort();
      const fresh = found
        .filter((f) => f.baseline === 0 && f.first_seen > firstAt + 60_000)
        .map((f) => f.id)
        .sort();
      expect(expected.length).toBeGreaterThan(10);
      expect(fresh).toEqual(expected);
      expect(runs.reduce((n, r) => n + r.new_items, 0)).toBe(expected.length);

      // 2. never past a cap: per run, in any 24 hours, in total (the sandbox's own ledger)
      const ledger = await control<{ calls: LedgerEntry[]; totals: { credits: number } }>('/__sandbox/usage');
      expect(ledger.totals.credits).toBeLessThanOrEqual(caps.total);
      expect(runs.reduce((n, r) => n + r.credits, 0)).toBe(ledger.totals.credits);
      for (const r of runs) expect(r.credits).toBeLessThanOrEqual(caps.perRun);
      for (const c of ledger.calls) {
        const day = ledger.calls.filter((d) => d.at >= c.at && d.at < c.at + DAY).reduce((n, d) => n + d.credits, 0);
        expect(day).toBeLessThanOrEqual(caps.perDay);
      }
      expect(runs.some((r) => r.status === 'capped')).toBe(true);

      // 3. the closed period is a gap, and a later run filled it
      const closed = gaps.find((g) => g.reason === 'closed');
      expect(closed).toBeDefined();
      expect(closed?.filledAt).not.toBeNull();
      expect(w.gaps.open).toBe(0);

      // 4. deleted posts it had seen are gone only after a re-check, with when
      const seenIds = new Set(found.map((f) => f.id));
      const deleted = changes.deletions.filter((d) => seenIds.has(d.id) && d.at < lastAt - 16 * HOUR);
      expect(deleted.length).toBeGreaterThan(0);
      for (const d of deleted) {
        const f = found.find((x) => x.id === d.id);
        expect(f?.status, `post ${d.id} deleted at ${new Date(d.at).toISOString()}`).toBe('gone');
        expect(f?.rechecks).toBeGreaterThanOrEqual(1);
        expect(f?.first_missing_at).toBeGreaterThanOrEqual(d.at);
        expect(f?.status_at).toBeGreaterThan(f?.first_missing_at ?? Infinity);
      }
      const deletedIds = new Set(changes.deletions.map((d) => d.id));
      for (const f of found.filter((x) => x.status === 'gone')) expect(deletedIds.has(f.id)).toBe(true);

      console.log(
        `watch of 20 accounts: ${runs.length} runs, ${expected.length} new posts, ${ledger.totals.credits} credits; projected ${w.comparison?.projected.toFixed(0)} (ratio ${w.comparison?.ratio?.toFixed(2)})`,
      );
    },
  );
});
