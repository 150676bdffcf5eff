/**
 * Watches in a project a newer Skein wrote into (a team's shared project, a file passed along): a run status, a gap's
 * reason, an item's presence or a kind of watch this Skein has no word for is shown as written, never as a bug, and
 * the watches around it keep reading.
 */
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { beforeAll, describe, expect, it } from 'vitest';
import { call } from './testing/bridge-call';
import { startSandbox, type Sandbox } from '../sandbox';
import type { AttritionRow, WatchGap, WatchList, WatchRun, WatchSummary } from '../shared/ipc/watch';
import { demoCores } from './testing/demo-cores';

const cores = demoCores('skein-watch-newer');
let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, size: 'small' });
  cores.sandboxes.push(sandbox);
});

const core = (dir: string, progress?: (line: string) => void) =>
  cores.core(dir, {
    apiBaseUrl: sandbox.baseUrl,
    apiKey: 'k',
    requestsPerSecond: 1_000,
    workers: undefined,
    confirm: async () => true,
    watches: { start: false, tickMs: 60_000, ...(progress ? { progress } : {}) },
  }).core;

const CAPS = { perRun: 1_000, perDay: 5_000, total: 10_000 };

/** A project with a watch that has run once, then written into as a newer Skein would: its words and a watch of its own. */
async function projectANewerSkeinWroteInto(): Promise<{ dir: string; watch: number; newer: number; damaged: number }> {
  const dir = cores.folder();
  const c = core(dir);
  const created = await call<WatchSummary>(c, 'skein:watch.create', {
    name: 'Accounts',
    kind: 'accounts',
    targets: [sandbox.examples.profile.id],
    strategy: 'full',
    schedule: { everyMinutes: 60 },
    caps: CAPS,
  });
  await c.watches.scheduler.tick();
  await c.dispose();
  const db = new DatabaseSync(join(dir, 'projects', 'Default.skein'));
  try {
    const held = db.prepare('SELECT id FROM watch_presence ORDER BY id').all() as Array<{ id: string }>;
    expect(held.length).toBeGreaterThan(2);
    db.exec(`UPDATE watch_runs SET status = 'partial'`);
    db.prepare(`UPDATE watch_presence SET status = 'hidden' WHERE id = ?`).run(held[0]?.id ?? '');
    db.prepare(`UPDATE watch_presence SET kind = 'community' WHERE id = ?`).run(held[1]?.id ?? '');
    // a status named like an object's own key is a status like any other
    db.prepare(`UPDATE watch_presence SET status = '__proto__' WHERE id = ?`).run(held[2]?.id ?? '');
    db.exec(
      `INSERT INTO watch_gaps (watch, from_at, to_at, reason, detail, recorded_at, pending) VALUES (${created.id}, 1, 2, 'maintenance', 'the server was down', 3, '[]')`,
    );
    // a kind this Skein has no such operation for, due now: a newer Skein's to run
    const add = db.prepare(
      `INSERT INTO watches (name, kind, spec, created_at, paused, next_due, state) VALUES (?, ?, ?, 1, 0, 1, '{}')`,
    );
    const newer = Number(
      add.run('Bookmarks', 'bookmarks', JSON.stringify({ name: 'Bookmarks', kind: 'bookmarks', targets: ['1'] }))
        .lastInsertRowid,
    );
    const damaged = Number(add.run('Damaged', 'accounts', '{not json').lastInsertRowid);
    return { dir, watch: created.id, newer, damaged };
  } finally {
    db.close();
  }
}

describe('watches a newer Skein wrote into', () => {
  it(
    'shows its run statuses, gaps’ reasons and items’ presence as written, and names the watches it cannot read',
    {
      timeout: 120_000,
    },
    async () => {
      const { dir, watch, newer, damaged } = await projectANewerSkeinWroteInto();
      const c = core(dir);
      try {
        // every reply passes the bridge's output check (a misfit would reach the page as "a bug")
        const list = await call<WatchList>(c, 'skein:watch.list');
        expect(list.watches.map((w) => w.id)).toEqual([watch]);
        expect(list.watches[0]?.lastRun?.status).toBe('partial');
        // counted apart from this Skein's statuses, none lost
        const attrition = list.watches[0]?.attrition;
        expect(attrition).toMatchObject({ missing: 0, gone: 0, returned: 0, other: 2 });
        expect(attrition?.present).toBeGreaterThan(0);
        expect(list.unreadable).toEqual([
          { id: newer, name: 'Bookmarks', kind: 'bookmarks' },
          { id: damaged, name: 'Damaged', kind: 'accounts' },
        ]);
        const runs = await call<WatchRun[]>(c, 'skein:watch.runs', { id: watch });
        expect(runs.map((r) => r.status)).toEqual(['partial']);
        const gaps = await call<WatchGap[]>(c, 'skein:watch.gaps', { id: watch });
        expect(gaps.map((g) => g.reason)).toContain('maintenance');
        const rows = await call<AttritionRow[]>(c, 'skein:watch.attrition', {});
        expect(rows.map((r) => r.status)).toEqual(expect.arrayContaining(['hidden', '__proto__']));
        expect(rows.map((r) => r.kind)).toContain('community');
        // the known filters still work beside them
        const present = await call<AttritionRow[]>(c, 'skein:watch.attrition', { status: 'present' });
        expect(present.every((r) => r.status === 'present')).toBe(true);
      } finally {
        await c.dispose();
      }
    },
  );

  it(
    'leaves a watch it cannot read as it is: never run, paused or a reason to hold the project’s runner',
    {
      timeout: 120_000,
    },
    async () => {
      const { dir, watch, newer, damaged } = await projectANewerSkeinWroteInto();
      // the readable watch paused: only the two unreadable ones are switched on, and due
      const edit = new DatabaseSync(join(dir, 'projects', 'Default.skein'));
      edit.prepare('UPDATE watches SET paused = 1, paused_at = 1 WHERE rowid = ?').run(watch);
      edit.close();
      const before = await fetch(`${sandbox.baseUrl}/__sandbox/requests`).then(
        (r) => r.json() as Promise<{ requests: unknown[] }>,
      );
      const said: string[] = [];
      const c = core(dir, (line) => said.push(line));
      try {
        await c.watches.scheduler.tick();
        await c.watches.scheduler.tick();
        // the headless runner's output says, once each, which watches it leaves alone
        expect(said).toEqual([
          expect.stringMatching(
            new RegExp(`watch ${newer} “Bookmarks” \\(bookmarks\\): this Skein cannot read it .* left as it is`),
          ),
          expect.stringMatching(
            new RegExp(`watch ${damaged} “Damaged” \\(accounts\\): its record is damaged; it is left as it is`),
          ),
        ]);
        expect((await call<WatchList>(c, 'skein:watch.list')).runner.holder).toBe('none');
      } finally {
        await c.dispose();
      }
      const after = await fetch(`${sandbox.baseUrl}/__sandbox/requests`).then(
        (r) => r.json() as Promise<{ requests: unknown[] }>,
      );
      expect(after.requests.length).toBe(before.requests.length);
      const db = new DatabaseSync(join(dir, 'projects', 'Default.skein'), { readOnly: true });
      try {
        const rows = db
          .prepare(
            `SELECT rowid AS id, paused, paused_at, next_due, state FROM watches WHERE rowid IN (?, ?) ORDER BY rowid`,
          )
          .all(newer, damaged);
        expect(rows.map((r) => ({ ...r }))).toEqual([
          { id: newer, paused: 0, paused_at: null, next_due: 1, state: '{}' },
          { id: damaged, paused: 0, paused_at: null, next_due: 1, state: '{}' },
        ]);
        const runs = db.prepare(`SELECT count(*) AS n FROM watch_runs WHERE watch IN (?, ?)`).get(newer, damaged) as {
          n: number;
        };
        expect(runs.n).toBe(0);
      } finally {
        db.close();
      }
    },
  );

  it(
    'lets the project’s runner go between its own runs while a watch only another Skein reads is due',
    {
      timeout: 120_000,
    },
    async () => {
      // the readable watch ran and is due again in an hour; the two this Skein cannot read are due now
      const { dir, watch } = await projectANewerSkeinWroteInto();
      const c = core(dir);
      const other = core(dir);
      try {
        await c.watches.scheduler.tick();
        expect((await call<WatchList>(c, 'skein:watch.list')).runner.holder).toBe('none');
        // a runner that reads them (here: another of the same) can take the project meanwhile, and let it go
        await other.watches.scheduler.claimProject();
        await other.watches.scheduler.stop();
        // its own watch due: it takes the project, runs it, and lets the project go again
        const edit = new DatabaseSync(join(dir, 'projects', 'Default.skein'));
        edit.prepare('UPDATE watches SET next_due = 1 WHERE rowid = ?').run(watch);
        edit.close();
        await c.watches.scheduler.tick();
        const list = await call<WatchList>(c, 'skein:watch.list');
        expect(list.runner.holder).toBe('none');
        const runs = await call<Array<{ status: string }>>(c, 'skein:watch.runs', { id: watch });
        expect(runs).toHaveLength(2);
      } finally {
        await other.dispose();
        await c.dispose();
      }
    },
  );

  it('holds the project’s runner as usual when the only watch it cannot read is damaged: no Skein runs that one', async () => {
    const { dir, newer } = await projectANewerSkeinWroteInto();
    const edit = new DatabaseSync(join(dir, 'projects', 'Default.skein'));
    edit.prepare('UPDATE watches SET paused = 1 WHERE rowid = ?').run(newer);
    edit.close();
    const c = core(dir);
    try {
      await c.watches.scheduler.tick();
      expect((await call<WatchList>(c, 'skein:watch.list')).runner.holder).toBe('self');
    } finally {
      await c.dispose();
    }
  });
});
