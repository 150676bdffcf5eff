/**
 * Every kind of watch runs against the moving sandbox: mentions, a list's timeline, accounts read
 * through one list, a conversation's replies (probed, read whole within the cap), quotes, a community, trends,
 * a live space — each keeps its counters and counts what is new; and an account suspended, then reinstated,
 * goes missing, is called gone after a re-check, and is marked back when it returns, with its posts.
 */
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import type { Core } from '.';
import type { LedgerEntry } from '../sandbox';
import { WatchSpec, type WatchSpecInput, type WatchSummary } from '../shared/ipc/watch';
import { movingSandbox } from './testing/moving-sandbox';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const BASE = Date.UTC(2026, 10, 22, 6, 0, 0);
const world = movingSandbox({ base: BASE, seed: 11, prefix: 'skein-watch-kinds-' });
const { now, control } = world;
const core = () => world.core();

const ctx = { senderId: 0 };
const caps = { perRun: 3_000, perDay: 20_000, total: 100_000 };
/** a watch as the bridge hands it to the handler: parsed, defaults filled in */
const spec = (over: Partial<WatchSpecInput> & Pick<WatchSpecInput, 'kind' | 'targets'>): WatchSpec =>
  WatchSpec.parse({
    name: `a ${over.kind} watch`,
    strategy: 'full',
    schedule: { everyMinutes: 12 * 60 },
    caps,
    ...over,
  });

async function runFor(c: Core, steps: number, hours: number): Promise<void> {
  await c.watches.scheduler.tick();
  for (let i = 0; i < steps; i++) {
    world.advance(hours * HOUR);
    await c.watches.scheduler.tick();
  }
}

function read(project: string) {
  const db = new DatabaseSync(project, { readOnly: true });
  const q = <T>(sql: string, ...args: Array<string | number>) => db.prepare(sql).all(...args) as T[];
  return { q, close: () => db.close() };
}

describe('each kind of watch', () => {
  it(
    'mentions, a list, accounts through a list, replies, quotes, a community, trends and a space',
    { timeout: 240_000 },
    async () => {
      const ex = world.sandbox().examples;
      const list = await control<{ members: Array<{ id: string }> }>(`/__sandbox/lists/${ex.listId}`);
      await control('/__sandbox/usage/reset', { method: 'POST' });
      const { core: c, project } = core();
      const created: Record<string, { id: number }> = {};
      const specs: WatchSpec[] = [
        spec({ kind: 'mentions', targets: [`@${ex.profile.userName}`] }),
        spec({ kind: 'list', targets: [ex.listId] }),
        spec({
          kind: 'accounts',
          targets: list.members.map((m) => m.id),
          strategy: 'list',
          listId: ex.listId,
          name: 'through a list',
        }),
        spec({ kind: 'replies', targets: [ex.bigThreadPostId], strategy: 'probe' }),
        spec({ kind: 'quotes', targets: [ex.muchQuotedPostId], strategy: 'probe' }),
        spec({ kind: 'community', targets: [ex.communityId] }),
        spec({ kind: 'trends', targets: ['1', '44418'] }),
        spec({ kind: 'space', targets: [ex.runningSpaceId] }),
      ];
      for (const s of specs) created[s.name] = await c.handlers.watch.create(s, ctx);
      await runFor(c, 4, 12);
      const listed = await c.handlers.watch.list(undefined, ctx);
      const by = (name: string) => listed.watches.find((w) => w.spec.name === name) as WatchSummary;
      await c.dispose();

      // every watch ran each time, within its caps
      for (const w of listed.watches) {
        expect(w.runs, w.spec.name).toBe(5);
        expect(w.lastRun?.status, w.spec.name).toMatch(/^(done|capped)$/);
        expect(w.spent.total, w.spec.name).toBeLessThanOrEqual(caps.total);
      }
      const ledger = await control<{ calls: LedgerEntry[] }>('/__sandbox/usage');
      const ops = new Set(ledger.calls.map((x) => x.operation));
      expect([...ops].sort()).toEqual(
        [
          'communityInfo',
          'listTimeline',
          'postQuotes',
          'postRepliesV2',
          'postsByIds',
          'spaceDetail',
          'trends',
          'userMentions',
        ].sort(),
      );
      // through a list: one list timeline a run, never a member's own timeline
      expect(ledger.calls.some((x) => x.operation === 'userTimeline')).toBe(false);

      const db = read(project);
      const counters = (kind: string, metric: string) =>
        db.q<{ id: string; n: number }>(
          'SELECT id, count(*) AS n FROM watch_counters WHERE kind = ? AND metric = ? GROUP BY id',
          kind,
          metric,
        );
      // a community's members over time, a space's listeners, trends' ranks
      expect(counters('community', 'members')[0]?.n).toBeGreaterThanOrEqual(2);
      expect(counters('space', 'listeners').length).toBe(1);
      expect(counters('trend', 'rank').length).toBeGreaterThan(50);
      expect(by('a trends watch').newItems).toBeGreaterThan(0);
      // the listings found something new, once
      for (const name of ['a mentions watch', 'a list watch', 'through a list', 'a quotes watch'])
        expect(by(name).newItems, name).toBeGreaterThan(0);
      const dup = db.q<{ n: number }>(
        'SELECT count(*) AS n FROM (SELECT watch, id FROM watch_presence GROUP BY watch, kind, id HAVING count(*) > 1)',
      );
      expect(dup[0]?.n).toBe(0);
      // the conversation: probed each run; read whole when its count moved, and stopped at the run's cap
      const replies = db.q<{ status: string; credits: number; asked: string }>(
        'SELECT status, credits, asked FROM watch_runs WHERE watch = ? ORDER BY rowid',
        by('a replies watch').id,
      );
      expect(replies.every((r) => r.credits <= caps.perRun)).toBe(true);
      expect(replies.some((r) => r.status === 'capped')).toBe(true);
      expect(replies.slice(1).every((r) => r.asked.startsWith('probe of 1'))).toBe(true);
      db.close();
    },
  );

  it(
    'an account suspended, then reinstated: missing, gone after a re-check, then back with its posts',
    { timeout: 240_000 },
    async () => {
      // what the world will do: a suspension that is lifted (the sandbox's clock, moved ahead to look, then back)
      const start = now();
      await control('/__sandbox/clock', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ set: start + 30 * DAY }),
      });
      const changes = await control<{ suspensions: Array<{ userId: string; at: number; liftedAt: number | null }> }>(
        `/__sandbox/changes?from=${start + HOUR}`,
      );
      await control('/__sandbox/clock', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ reset: true }),
      });
      const s = changes.suspensions.find((x) => x.liftedAt !== null && x.liftedAt < start + 30 * DAY);
      expect(s).toBeDefined();
      const target = s?.userId as string;
      const { core: c, project } = core();
      const w = await c.handlers.watch.create(
        spec({
          kind: 'accounts',
          targets: [target],
          strategy: 'probe',
          schedule: { everyMinutes: 6 * 60 },
          options: { trackDays: 365, trackEvery: 1, fullEvery: 1_000 },
          caps: { perRun: 20_000, perDay: 100_000, total: 1_000_000 },
        }),
        ctx,
      );
      const statusAt = (kind: string) => {
        const db = read(project);
        const rows = db.q<{ status: string; rechecks: number; status_at: number; created_at: number | null }>(
          'SELECT status, rechecks, status_at, created_at FROM watch_presence WHERE watch = ? AND kind = ?',
          w.id,
          kind,
        );
        db.close();
        return rows;
      };
      await c.watches.scheduler.tick();
      expect(statusAt('user')).toEqual([expect.objectContaining({ status: 'present' })]);
      expect(statusAt('post').length).toBeGreaterThan(0);
      // suspended: the probe does not return it (missing); a later run asks again by id: gone
      world.setOffset((s?.at ?? 0) - BASE + HOUR);
      await c.watches.scheduler.tick();
      expect(statusAt('user')).toEqual([expect.objectContaining({ status: 'missing', rechecks: 0 })]);
      world.advance(6 * HOUR);
      await c.watches.scheduler.tick();
      const gone = statusAt('user')[0];
      expect(gone).toMatchObject({ status: 'gone', rechecks: 1 });
      // its posts the counters' re-read covers (younger than 365 days) went missing with it
      const tracked = (p: { created_at: number | null }) => (p.created_at ?? 0) > now() - 365 * DAY;
      expect(statusAt('post').filter(tracked).length).toBeGreaterThan(0);
      expect(
        statusAt('post')
          .filter(tracked)
          .every((p) => p.status === 'missing' || p.status === 'gone'),
      ).toBe(true);
      // reinstated: the next probe returns it, and it is marked back (its posts too, when their re-check is due)
      world.setOffset((s?.liftedAt ?? 0) - BASE + HOUR);
      await c.watches.scheduler.tick();
      world.advance(6 * HOUR);
      await c.watches.scheduler.tick();
      expect(statusAt('user')).toEqual([expect.objectContaining({ status: 'returned' })]);
      const posts = statusAt('post');
      expect(posts.some((p) => p.status === 'returned')).toBe(true);
      expect(posts.every((p) => p.status === 'returned' || p.status === 'present')).toBe(true);
      const rows = await c.handlers.watch.attrition({ id: w.id, limit: 1_000 }, ctx);
      expect(rows.find((r) => r.kind === 'user')).toMatchObject({
        status: 'returned',
        reason: expect.stringMatching(/seen again|back/),
      });
      await c.dispose();
    },
  );
});
