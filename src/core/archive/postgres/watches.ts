/**
 * A team project's watch tables (issue 35), the twin of the SQLite store's (../watches.ts, whose methods these
 * fit: project-tables.ts): watches, runs, gaps, presence, counters, and the one runner's row.
 *
 * What a run changes is written in one transaction when it ends (`finishRun`), worked out here exactly as the
 * SQLite store does it one item at a time, from the rows it touches read in one query: a run of thousands of
 * items is a handful of statements, not thousands of round trips.
 *
 * One runner across machines: the runner's row is taken by compare and set in a transaction (under the
 * project's watch lock, the row locked), and a Skein that holds it also holds a session-level advisory lock on
 * a connection of its own, kept alive while its process lives (a query every 30 s; the server drops it within a
 * minute or two of the process, its machine or its network going: TCP keepalives, and an idle session's
 * timeout where the server has one). So a holder the scheduler judges stale (no heartbeat for two minutes, by
 * the taker's clock) is taken over only when its lock is gone too: a live runner on another machine, in a long
 * run, behind a clock that is off, or with the same host name, is never displaced, and no watch runs twice.
 */
import type pg from 'pg';
import type {
  AccountFacts,
  CounterRecord,
  DeltaRecord,
  GapRecord,
  PostingHistory,
  PresenceKind,
  PresenceQuery,
  PresenceRecord,
  RunnerLast,
  RunnerRecord,
  RunOutcome,
  RunRecord,
  WatchRecord,
  WatchStats,
} from '../../watch/tables/records';
import type { ProjectWatches } from '../project-tables';
import { rowReaders } from '../rows';
import { type PgDb, checkout, createPool, Params, fromPg, toPg, toPgOrNull } from '../../db';

type Row = Record<string, unknown>;

const DAY_MS = 86_400_000;
const LAST_RUNNER = 'watch_runner_last';
/** the watch lock (runner row, a run's end) and the runner's session lock, each per project */
const WATCH_LOCK = 0x736b77; // "skw"
const RUNNER_LOCK = 0x736b72; // "skr"
const PING_MS = 30_000;

const str = (v: unknown): string =>
  typeof v === 'string' ? fromPg(v) : typeof v === 'number' || typeof v === 'bigint' ? String(v) : '';
const numOrNull = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));
const { watch: watchOf, run: runOf, gap: gapOf, presence: presenceOf, runner: runnerOf } = rowReaders(str);

/** A presence row as written back (every column, strings encoded). */
const presenceRow = (p: PresenceRecord) => ({
  watch: p.watch,
  kind: toPg(p.kind),
  id: toPg(p.id),
  target: toPgOrNull(p.target),
  created_at: p.createdAt,
  first_seen: p.firstSeen,
  last_seen: p.lastSeen,
  first_run: p.firstRun,
  baseline: p.baseline ? 1 : 0,
  first_missing_at: p.firstMissingAt,
  rechecks: p.rechecks,
  status: p.status,
  reason: toPgOrNull(p.reason),
  status_at: p.statusAt,
  next_check: p.nextCheck,
});

/** A counter's newest row: its time, value, when last seen, and the run that first saw it. */
interface Latest {
  at: number;
  value: number;
  lastAt: number;
  run: number | null;
}

const key2 = (kind: string, id: string) => JSON.stringify([kind, id]);
const key3 = (kind: string, id: string, metric: string) => JSON.stringify([kind, id, metric]);

export class PgWatches implements ProjectWatches {
  /** the runner's session lock, while this Skein holds the project's runner row */
  private lock: { pool: pg.Pool; client: pg.PoolClient; ping: ReturnType<typeof setInterval> } | null = null;
  /** the runner's token this Skein holds the row with (null: none) */
  private holding: string | null = null;

  constructor(private readonly db: PgDb) {}

  private get schema(): string {
    return this.db.connection.schema;
  }

  private watchLock(c: pg.PoolClient): Promise<unknown> {
    return c.query(`SELECT pg_advisory_xact_lock(${WATCH_LOCK}, hashtext('${this.schema}'))`);
  }

  /* --------------------------------------------------------------- watches */

  async createWatch(w: {
    name: string;
    kind: string;
    spec: string;
    createdAt: number;
    nextDue: number | null;
  }): Promise<number> {
    const r = await this.db.rows<{ rowid: number }>(
      'INSERT INTO watches (name, kind, spec, created_at, next_due) VALUES ($1, $2, $3, $4, $5) RETURNING rowid',
      [toPg(w.name), toPg(w.kind), toPg(w.spec), w.createdAt, w.nextDue],
    );
    return Number(r[0]?.rowid);
  }

  async updateWatch(
    id: number,
    patch: Partial<Pick<WatchRecord, 'name' | 'spec' | 'paused' | 'pausedAt' | 'removedAt' | 'nextDue' | 'state'>>,
  ): Promise<void> {
    const columns: Record<string, string> = {
      name: 'name',
      spec: 'spec',
      paused: 'paused',
      pausedAt: 'paused_at',
      removedAt: 'removed_at',
      nextDue: 'next_due',
      state: 'state',
    };
    const p = new Params();
    const sets: string[] = [];
    for (const [key, value] of Object.entries(patch)) {
      const column = columns[key];
      if (!column || value === undefined) continue;
      const v = typeof value === 'boolean' ? (value ? 1 : 0) : typeof value === 'string' ? toPg(value) : value;
      sets.push(`${column} = ${p.add(v)}`);
    }
    if (sets.length === 0) return;
    await this.db.rows(`UPDATE watches SET ${sets.join(', ')} WHERE rowid = ${p.add(id)}`, p.values);
  }

  async watches(): Promise<WatchRecord[]> {
    return (await this.db.rows('SELECT * FROM watches WHERE removed_at IS NULL ORDER BY rowid')).map(watchOf);
  }

  async watch(id: number): Promise<WatchRecord | null> {
    const r = (await this.db.rows('SELECT * FROM watches WHERE rowid = $1', [id]))[0];
    return r ? watchOf(r) : null;
  }

  /* ------------------------------------------------------------------ runs */

  async startRun(r: {
    watch: number;
    startedAt: number;
    scheduledFor: number | null;
    runner: string;
    token: string;
    journal: string | null;
    asked: string;
  }): Promise<number> {
    const rows = await this.db.rows<{ rowid: number }>(
      `INSERT INTO watch_runs (watch, started_at, scheduled_for, status, runner, token, journal, asked)
       VALUES ($1, $2, $3, 'running', $4, $5, $6, $7) RETURNING rowid`,
      [r.watch, r.startedAt, r.scheduledFor, toPg(r.runner), toPg(r.token), toPgOrNull(r.journal), toPg(r.asked)],
    );
    return Number(rows[0]?.rowid);
  }

  async progressRun(
    id: number,
    p: { calls?: number; credits?: number; token?: string; resumed?: boolean; asked?: string },
  ): Promise<void> {
    await this.db.rows(
      `UPDATE watch_runs SET calls = coalesce($1, calls), credits = coalesce($2, credits), token = coalesce($3, token),
         resumed = coalesce($4, resumed), asked = coalesce($5, asked) WHERE rowid = $6`,
      [
        p.calls ?? null,
        p.credits ?? null,
        p.token === undefined ? null : toPg(p.token),
        p.resumed === undefined ? null : p.resumed ? 1 : 0,
        p.asked === undefined ? null : toPg(p.asked),
        id,
      ],
    );
  }

  /** Everything a run changes, in one transaction: the rows it touches read at once, settled here, written back. */
  async finishRun(o: RunOutcome): Promise<void> {
    await this.db.transaction(async (c) => {
      await this.watchLock(c);
      const r = o.run;
      await c.query(
        `UPDATE watch_runs SET status = $1, ended_at = $2, message = $3, calls = $4, credits = $5, new_items = $6,
           seen_items = $7, rechecked = $8, gone = $9, returned = $10, asked = $11, journal = NULL WHERE rowid = $12`,
        [
          r.status,
          r.endedAt,
          toPgOrNull(r.message),
          r.calls,
          r.credits,
          r.newItems,
          r.seenItems,
          r.rechecked,
          r.gone,
          r.returned,
          toPg(r.asked),
          r.id,
        ],
      );
      const watch = o.watch.id;
      await this.settlePresence(c, watch, r.id, o);
      await this.settleCounters(c, r.id, o.counters);
      if (o.gaps.add.length > 0)
        await c.query(
          `INSERT INTO watch_gaps (watch, from_at, to_at, reason, detail, recorded_at, pending, filled_at, filled_by)
           SELECT watch, from_at, to_at, reason, detail, recorded_at, pending, filled_at, filled_by
           FROM json_to_recordset($1::json) AS x(watch bigint, from_at bigint, to_at bigint, reason text, detail text,
             recorded_at bigint, pending text, filled_at bigint, filled_by bigint)`,
          [
            JSON.stringify(
              o.gaps.add.map((g) => ({
                watch: g.watch,
                from_at: g.from,
                to_at: g.to,
                reason: toPg(g.reason),
                detail: toPg(g.detail),
                recorded_at: g.recordedAt,
                pending: toPg(JSON.stringify(g.pending)),
                filled_at: g.pending.length === 0 ? r.endedAt : null,
                filled_by: g.pending.length === 0 ? r.id : null,
              })),
            ),
          ],
        );
      for (const g of o.gaps.progress)
        await c.query(
          `UPDATE watch_gaps SET pending = $1, filled_at = CASE WHEN $2::int = 0 THEN $3::bigint ELSE NULL END,
             filled_by = CASE WHEN $2::int = 0 THEN $4::bigint ELSE NULL END WHERE rowid = $5 AND filled_at IS NULL`,
          [toPg(JSON.stringify(g.pending)), g.pending.length, r.endedAt, r.id, g.id],
        );
      await c.query('UPDATE watches SET state = $1, next_due = $2 WHERE rowid = $3', [
        toPg(o.watch.state),
        o.watch.nextDue,
        watch,
      ]);
    });
  }

  /** What each item seen, missed or asked for again becomes: SQLite's markSeen and status rules, in order. */
  private async settlePresence(c: pg.PoolClient, watch: number, run: number, o: RunOutcome): Promise<void> {
    const keys = new Map<string, { kind: string; id: string }>();
    for (const x of [...o.seen, ...o.missing, ...o.rechecked]) keys.set(key2(x.kind, x.id), { kind: x.kind, id: x.id });
    if (keys.size === 0) return;
    const held = new Map<string, PresenceRecord>();
    const found = await c.query<Row>(
      `SELECT p.* FROM watch_presence p JOIN json_to_recordset($2::json) AS k(kind text, id text)
         ON p.kind = k.kind AND p.id = k.id WHERE p.watch = $1`,
      [watch, JSON.stringify([...keys.values()].map((k) => ({ kind: toPg(k.kind), id: toPg(k.id) })))],
    );
    for (const row of found.rows) {
      const p = presenceOf(row);
      held.set(key2(p.kind, p.id), p);
    }
    const touched = new Set<string>();
    const status = (
      p: PresenceRecord,
      s: PresenceRecord['status'],
      reason: string | null,
      at: number,
      firstMissingAt: number | null,
      rechecks: number,
      nextCheck: number | null,
    ) => {
      p.status = s;
      p.reason = reason;
      p.statusAt = at;
      p.firstMissingAt = firstMissingAt;
      p.rechecks = rechecks;
      p.nextCheck = nextCheck;
    };
    for (const seen of o.seen) {
      const k = key2(seen.kind, seen.id);
      touched.add(k);
      const p = held.get(k);
      if (!p) {
        held.set(k, {
          watch,
          kind: seen.kind,
          id: seen.id,
          target: seen.target,
          createdAt: seen.createdAt,
          firstSeen: seen.at,
          lastSeen: seen.at,
          firstRun: run,
          baseline: seen.baseline,
          firstMissingAt: null,
          rechecks: 0,
          status: 'present',
          reason: null,
          statusAt: seen.at,
          nextCheck: null,
        });
        continue;
      }
      const before = p.status;
      p.lastSeen = Math.max(p.lastSeen, seen.at);
      p.target ??= seen.target;
      p.createdAt ??= seen.createdAt;
      if (before === 'gone')
        status(p, 'returned', 'seen again in a listing', seen.at, p.firstMissingAt, p.rechecks, null);
      else if (before === 'missing')
        status(p, 'present', 'seen again in a listing', seen.at, p.firstMissingAt, p.rechecks, null);
    }
    for (const m of o.missing) {
      const k = key2(m.kind, m.id);
      const p = held.get(k);
      if (!p || p.status === 'missing' || p.status === 'gone') continue;
      touched.add(k);
      status(p, 'missing', m.reason, m.at, m.at, p.rechecks, m.at);
    }
    for (const x of o.rechecked) {
      const k = key2(x.kind, x.id);
      const p = held.get(k);
      if (!p) continue;
      touched.add(k);
      if (x.found) {
        // back: one that was called gone is marked so; one only missing from a listing is simply present
        const s = p.status === 'gone' ? 'returned' : p.status === 'missing' ? 'present' : p.status;
        status(p, s, x.reason, x.at, p.firstMissingAt, p.rechecks + 1, null);
      } else {
        const at = p.status === 'gone' ? p.statusAt : x.at;
        status(p, 'gone', x.reason, at, p.firstMissingAt ?? x.at, p.rechecks + 1, x.nextCheck);
      }
    }
    const rows = [...touched].map((k) => presenceRow(held.get(k) as PresenceRecord));
    await c.query(
      `INSERT INTO watch_presence (watch, kind, id, target, created_at, first_seen, last_seen, first_run, baseline,
         first_missing_at, rechecks, status, reason, status_at, next_check)
       SELECT watch, kind, id, target, created_at, first_seen, last_seen, first_run, baseline, first_missing_at,
         rechecks, status, reason, status_at, next_check
       FROM json_to_recordset($1::json) AS x(watch bigint, kind text, id text, target text, created_at bigint,
         first_seen bigint, last_seen bigint, first_run bigint, baseline integer, first_missing_at bigint,
         rechecks integer, status text, reason text, status_at bigint, next_check bigint)
       ON CONFLICT (watch, kind, id) DO UPDATE SET target = excluded.target, created_at = excluded.created_at,
         last_seen = excluded.last_seen, first_missing_at = excluded.first_missing_at, rechecks = excluded.rechecks,
         status = excluded.status, reason = excluded.reason, status_at = excluded.status_at,
         next_check = excluded.next_check`,
      [JSON.stringify(rows)],
    );
  }

  /**
   * Counters as SQLite's recordCounter keeps them: a value like the newest one (and not older) only stretches its
   * last sighting; a reading older than the newest one's last sighting is left out; anything else is a new row.
   */
  private async settleCounters(c: pg.PoolClient, run: number, counters: RunOutcome['counters']): Promise<void> {
    if (counters.length === 0) return;
    const keys = new Map<string, { kind: string; id: string; metric: string }>();
    for (const x of counters) keys.set(key3(x.kind, x.id, x.metric), { kind: x.kind, id: x.id, metric: x.metric });
    const latest = new Map<string, Latest>();
    const found = await c.query<Row>(
      `SELECT DISTINCT ON (w.kind, w.id, w.metric) w.kind, w.id, w.metric, w.at, w.value, w.last_at, w.run
       FROM watch_counters w JOIN json_to_recordset($1::json) AS k(kind text, id text, metric text)
         ON w.kind = k.kind AND w.id = k.id AND w.metric = k.metric
       ORDER BY w.kind, w.id, w.metric, w.at DESC`,
      [JSON.stringify([...keys.values()].map((k) => ({ kind: toPg(k.kind), id: toPg(k.id), metric: toPg(k.metric) })))],
    );
    for (const row of found.rows)
      latest.set(key3(str(row.kind), str(row.id), str(row.metric)), {
        at: Number(row.at),
        value: Number(row.value),
        lastAt: Number(row.last_at),
        run: numOrNull(row.run),
      });
    // every row written, by (kind, id, metric, at): its final value, last sighting and run
    const writes = new Map<string, { kind: string; id: string; metric: string } & Latest>();
    for (const x of counters) {
      const k = key3(x.kind, x.id, x.metric);
      const last = latest.get(k);
      if (last && last.value === x.value && x.at >= last.at) {
        last.lastAt = Math.max(last.lastAt, x.at);
      } else if (last && x.at < last.lastAt) {
        continue; // an older reading than what is held: kept out of the history
      } else {
        latest.set(k, { at: x.at, value: x.value, lastAt: x.at, run });
      }
      const now = latest.get(k) as Latest;
      writes.set(JSON.stringify([x.kind, x.id, x.metric, now.at]), {
        kind: x.kind,
        id: x.id,
        metric: x.metric,
        ...now,
      });
    }
    if (writes.size === 0) return;
    await c.query(
      `INSERT INTO watch_counters (kind, id, metric, at, value, last_at, run)
       SELECT kind, id, metric, at, value, last_at, run
       FROM json_to_recordset($1::json) AS x(kind text, id text, metric text, at bigint, value double precision,
         last_at bigint, run bigint)
       ON CONFLICT (kind, id, metric, at) DO UPDATE SET value = excluded.value, last_at = excluded.last_at,
         run = excluded.run`,
      [
        JSON.stringify(
          [...writes.values()].map((w) => ({
            kind: toPg(w.kind),
            id: toPg(w.id),
            metric: toPg(w.metric),
            at: w.at,
            value: w.value,
            last_at: w.lastAt,
            run: w.run,
          })),
        ),
      ],
    );
  }

  async runs(watch: number, limit: number): Promise<RunRecord[]> {
    return (
      await this.db.rows('SELECT * FROM watch_runs WHERE watch = $1 ORDER BY started_at DESC, rowid DESC LIMIT $2', [
        watch,
        limit,
      ])
    ).map(runOf);
  }

  async openRuns(): Promise<RunRecord[]> {
    return (await this.db.rows("SELECT * FROM watch_runs WHERE status = 'running' ORDER BY rowid")).map(runOf);
  }

  async spent(watch: number, now: number, exceptRun: number | null): Promise<{ lastDay: number; total: number }> {
    const row = (
      await this.db.rows<{ day: number; total: number }>(
        `SELECT coalesce(sum(CASE WHEN coalesce(ended_at, $1) > $2 THEN credits ELSE 0 END), 0) AS day,
           coalesce(sum(credits), 0) AS total
         FROM watch_runs WHERE watch = $3 AND rowid IS DISTINCT FROM $4::bigint`,
        [now, now - DAY_MS, watch, exceptRun],
      )
    )[0];
    return { lastDay: Number(row?.day ?? 0), total: Number(row?.total ?? 0) };
  }

  async stats(watch: number, now: number): Promise<WatchStats> {
    const [runs, spent, gaps, statuses, last] = await Promise.all([
      this.db.rows(
        `SELECT count(*) AS n, coalesce(sum(new_items), 0) AS fresh, min(started_at) AS first,
           count(*) FILTER (WHERE status = 'running') AS running FROM watch_runs WHERE watch = $1`,
        [watch],
      ),
      this.spent(watch, now, null),
      this.db.rows(
        `SELECT count(*) FILTER (WHERE filled_at IS NULL) AS open, count(*) FILTER (WHERE filled_at IS NOT NULL) AS filled
         FROM watch_gaps WHERE watch = $1`,
        [watch],
      ),
      this.db.rows<{ status: string; n: number }>(
        'SELECT status, count(*) AS n FROM watch_presence WHERE watch = $1 GROUP BY status',
        [watch],
      ),
      this.runs(watch, 1),
    ]);
    const attrition = { present: 0, missing: 0, gone: 0, returned: 0 };
    for (const row of statuses) attrition[row.status as keyof typeof attrition] = Number(row.n);
    const r = runs[0] ?? {};
    return {
      runs: Number(r.n ?? 0),
      newItems: Number(r.fresh ?? 0),
      spentLastDay: spent.lastDay,
      spentTotal: spent.total,
      firstRunAt: numOrNull(r.first),
      lastRun: last[0] ?? null,
      running: Number(r.running ?? 0) > 0,
      gaps: { open: Number(gaps[0]?.open ?? 0), filled: Number(gaps[0]?.filled ?? 0) },
      attrition,
    };
  }

  /* ------------------------------------------------------------------ gaps */

  async addGap(g: Omit<GapRecord, 'id' | 'filledAt' | 'filledBy'>): Promise<number> {
    const r = await this.db.rows<{ rowid: number }>(
      `INSERT INTO watch_gaps (watch, from_at, to_at, reason, detail, recorded_at, pending)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING rowid`,
      [g.watch, g.from, g.to, toPg(g.reason), toPg(g.detail), g.recordedAt, toPg(JSON.stringify(g.pending))],
    );
    return Number(r[0]?.rowid);
  }

  async gaps(watch: number, openOnly: boolean): Promise<GapRecord[]> {
    return (
      await this.db.rows(
        `SELECT * FROM watch_gaps WHERE watch = $1 ${openOnly ? 'AND filled_at IS NULL' : ''} ORDER BY from_at DESC, rowid DESC`,
        [watch],
      )
    ).map(gapOf);
  }

  /* -------------------------------------------------------------- presence */

  async known(watch: number, kind: PresenceKind, ids: readonly string[], before: number): Promise<string[]> {
    if (ids.length === 0) return [];
    const rows = await this.db.rows<{ id: string }>(
      `SELECT id FROM items WHERE kind = $1 AND first_seen < $2 AND id = ANY($3::text[])
       UNION SELECT id FROM watch_presence WHERE watch = $4 AND kind = $1 AND id = ANY($3::text[])`,
      [toPg(kind), before, ids.map(toPg), watch],
    );
    return rows.map((r) => fromPg(r.id));
  }

  async presenceOf(watch: number, q: PresenceQuery): Promise<PresenceRecord[]> {
    const p = new Params();
    const where = [`watch = ${p.add(watch, '::bigint')}`];
    if (q.kind) where.push(`kind = ${p.add(toPg(q.kind))}`);
    if (q.targets) {
      if (q.targets.length === 0) return [];
      where.push(`target = ANY(${p.add(q.targets.map(toPg), '::text[]')})`);
    }
    if (q.statuses) where.push(`status = ANY(${p.add([...q.statuses], '::text[]')})`);
    if (q.createdSince !== undefined) where.push(`created_at >= ${p.add(q.createdSince, '::bigint')}`);
    if (q.dueBy !== undefined) where.push(`next_check IS NOT NULL AND next_check <= ${p.add(q.dueBy, '::bigint')}`);
    return (
      await this.db.rows(
        `SELECT * FROM watch_presence WHERE ${where.join(' AND ')} ORDER BY created_at DESC NULLS LAST, id LIMIT ${p.add(q.limit ?? 100_000)}`,
        p.values,
      )
    ).map(presenceOf);
  }

  async attrition(q: {
    watch?: number;
    status?: PresenceRecord['status'];
    offset: number;
    limit: number;
  }): Promise<PresenceRecord[]> {
    const p = new Params();
    const where: string[] = [];
    if (q.watch !== undefined) where.push(`watch = ${p.add(q.watch, '::bigint')}`);
    if (q.status) where.push(`status = ${p.add(q.status)}`);
    return (
      await this.db.rows(
        `SELECT * FROM watch_presence ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
         ORDER BY CASE status WHEN 'gone' THEN 0 WHEN 'missing' THEN 1 WHEN 'returned' THEN 2 ELSE 3 END,
           status_at DESC, watch, kind, id
         LIMIT ${p.add(q.limit)} OFFSET ${p.add(q.offset)}`,
        p.values,
      )
    ).map(presenceOf);
  }

  /* -------------------------------------------------------------- counters */

  async counters(kind: string, id: string): Promise<CounterRecord[]> {
    return (
      await this.db.rows('SELECT * FROM watch_counters WHERE kind = $1 AND id = $2 ORDER BY metric, at', [
        toPg(kind),
        toPg(id),
      ])
    ).map((r) => ({
      kind: str(r.kind),
      id: str(r.id),
      metric: str(r.metric),
      at: Number(r.at),
      value: Number(r.value),
      lastAt: Number(r.last_at),
    }));
  }

  /** The deltas table, a page at a time after `after` (a key): SQLite's, the value before each read the same way. */
  async deltas(q: {
    watch?: number;
    item?: { kind: string; id: string };
    after: { kind: string; id: string; metric: string; at: number } | null;
    limit: number;
  }): Promise<DeltaRecord[]> {
    const p = new Params();
    const where: string[] = [];
    if (q.after)
      where.push(
        `(c.kind, c.id, c.metric, c.at) > (${p.add(toPg(q.after.kind))}, ${p.add(toPg(q.after.id))}, ${p.add(toPg(q.after.metric))}, ${p.add(q.after.at, '::bigint')})`,
      );
    if (q.item) where.push(`c.kind = ${p.add(toPg(q.item.kind))} AND c.id = ${p.add(toPg(q.item.id))}`);
    if (q.watch !== undefined)
      where.push(
        `EXISTS (SELECT 1 FROM watch_presence w WHERE w.watch = ${p.add(q.watch, '::bigint')} AND w.kind = c.kind AND w.id = c.id)`,
      );
    const rows = await this.db.rows(
      `SELECT c.kind, c.id, c.metric, c.at, c.value, c.last_at FROM watch_counters c
       ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY c.kind, c.id, c.metric, c.at LIMIT ${p.add(q.limit)}`,
      p.values,
    );
    let before: { kind: string; id: string; metric: string; value: number; lastAt: number } | null = null;
    if (q.after) {
      const b = (
        await this.db.rows(
          'SELECT value, last_at FROM watch_counters WHERE kind = $1 AND id = $2 AND metric = $3 AND at = $4',
          [toPg(q.after.kind), toPg(q.after.id), toPg(q.after.metric), q.after.at],
        )
      )[0];
      if (b)
        before = {
          kind: q.after.kind,
          id: q.after.id,
          metric: q.after.metric,
          value: Number(b.value),
          lastAt: Number(b.last_at),
        };
    }
    return rows.map((r) => {
      const row = {
        kind: str(r.kind),
        id: str(r.id),
        metric: str(r.metric),
        at: Number(r.at),
        value: Number(r.value),
        lastAt: Number(r.last_at),
      };
      const same = before !== null && before.kind === row.kind && before.id === row.id && before.metric === row.metric;
      const d: DeltaRecord = {
        kind: row.kind,
        id: row.id,
        metric: row.metric,
        at: row.at,
        value: row.value,
        previous: same && before ? before.value : null,
        previousSeenAt: same && before ? before.lastAt : null,
      };
      before = row;
      return d;
    });
  }

  async attritionPage(q: {
    watch?: number;
    after: { watch: number; kind: string; id: string } | null;
    limit: number;
  }): Promise<PresenceRecord[]> {
    const p = new Params();
    const where: string[] = [];
    if (q.after)
      where.push(
        `(watch, kind, id) > (${p.add(q.after.watch, '::bigint')}, ${p.add(toPg(q.after.kind))}, ${p.add(toPg(q.after.id))})`,
      );
    if (q.watch !== undefined) where.push(`watch = ${p.add(q.watch, '::bigint')}`);
    return (
      await this.db.rows(
        `SELECT * FROM watch_presence ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY watch, kind, id
         LIMIT ${p.add(q.limit)}`,
        p.values,
      )
    ).map(presenceOf);
  }

  /* ----------------------------------------------------------- projections */

  async postingHistory(authors: readonly string[], since: number): Promise<PostingHistory[]> {
    if (authors.length === 0) return [];
    const rows = await this.db.rows<{ author: string; posts: number; first: number; last: number }>(
      `SELECT a AS author, count(*) AS posts, min(created_at) AS first, max(created_at) AS last FROM (
         SELECT skein_json_text(raw, '{author,id}') AS a, created_at FROM items WHERE kind = 'post' AND created_at >= $1
       ) x WHERE a = ANY($2::text[]) GROUP BY a`,
      // an id PostgreSQL cannot be sent (U+0000) is no author's
      [since, authors.filter((a) => !a.includes('\0'))],
    );
    return rows.map((r) => ({
      author: r.author,
      posts: Number(r.posts),
      first: Number(r.first),
      last: Number(r.last),
    }));
  }

  async accountFacts(ids: readonly string[]): Promise<AccountFacts[]> {
    if (ids.length === 0) return [];
    const rows = await this.db.rows<{ id: string; n: string | null; created_at: number | null }>(
      `SELECT id, CASE WHEN skein_json_type(raw, '{statusesCount}') = 'number'
           THEN skein_json_text(raw, '{statusesCount}') END AS n, created_at
       FROM items WHERE kind = 'user' AND id = ANY($1::text[])`,
      [ids.map(toPg)],
    );
    return rows.map((r) => ({
      id: fromPg(r.id),
      statusesCount: r.n === null ? null : Number(r.n),
      createdAt: numOrNull(r.created_at),
    }));
  }

  async largestPage(operation: string): Promise<number> {
    const r = await this.db.rows<{ n: number | null }>(
      'SELECT max(item_count) AS n FROM requests WHERE operation = $1',
      [toPg(operation)],
    );
    return Number(r[0]?.n ?? 0);
  }

  /* ---------------------------------------------------------------- runner */

  async runner(): Promise<RunnerRecord | null> {
    const r = (await this.db.rows('SELECT * FROM watch_runner WHERE one = 1'))[0];
    return r ? runnerOf(r) : null;
  }

  /**
   * Takes the project for a runner, if it is still held by `expected` (null: by nobody) and no live Skein holds
   * its runner's session lock: compare and set in one transaction, the row locked, so two runners deciding at
   * once cannot both win. The runner it replaces (stale) is kept as the last one, for the gap it left.
   */
  async takeRunner(next: RunnerRecord, expected: string | null): Promise<boolean> {
    if (!(await this.holdLock())) return false;
    const taken = await this.db.transaction(async (c) => {
      await this.watchLock(c);
      const row = (await c.query<Row>('SELECT * FROM watch_runner WHERE one = 1 FOR UPDATE')).rows[0];
      const current = row ? runnerOf(row) : null;
      if ((current?.token ?? null) !== expected) return false;
      if (current)
        await this.setLast(c, {
          who: current.who,
          host: current.host,
          pid: current.pid,
          at: current.heartbeat,
          clean: false,
        });
      await c.query(
        `INSERT INTO watch_runner (one, token, who, host, pid, since, heartbeat) VALUES (1, $1, $2, $3, $4, $5, $6)
         ON CONFLICT (one) DO UPDATE SET token = excluded.token, who = excluded.who, host = excluded.host,
           pid = excluded.pid, since = excluded.since, heartbeat = excluded.heartbeat`,
        [toPg(next.token), toPg(next.who), toPg(next.host), next.pid, next.since, next.heartbeat],
      );
      return true;
    });
    if (taken) this.holding = next.token;
    else await this.letGoUnlessHolding();
    return taken;
  }

  /** the holder's sign of life; false when it is not the holder any more (or another Skein holds the lock) */
  async heartbeat(token: string, now: number): Promise<boolean> {
    if (!(await this.holdLock())) return false;
    const r = await this.db.rows('UPDATE watch_runner SET heartbeat = $1 WHERE one = 1 AND token = $2 RETURNING one', [
      now,
      toPg(token),
    ]);
    if (r.length === 1) return true;
    if (token === this.holding) this.holding = null;
    await this.letGoUnlessHolding();
    return false;
  }

  async releaseRunner(token: string, now: number): Promise<void> {
    await this.db.transaction(async (c) => {
      await this.watchLock(c);
      const row = (await c.query<Row>('SELECT * FROM watch_runner WHERE one = 1 FOR UPDATE')).rows[0];
      const current = row ? runnerOf(row) : null;
      if (!current || current.token !== token) return;
      await this.setLast(c, { who: current.who, host: current.host, pid: current.pid, at: now, clean: true });
      await c.query('DELETE FROM watch_runner WHERE one = 1 AND token = $1', [toPg(token)]);
    });
    if (token === this.holding) this.holding = null;
    await this.letGoUnlessHolding();
  }

  async lastRunner(): Promise<RunnerLast | null> {
    const r = (await this.db.rows<{ value: string }>('SELECT value FROM meta WHERE key = $1', [LAST_RUNNER]))[0];
    if (!r) return null;
    try {
      return JSON.parse(fromPg(r.value)) as RunnerLast;
    } catch {
      return null;
    }
  }

  private async setLast(c: pg.PoolClient, last: RunnerLast): Promise<void> {
    await c.query(
      'INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
      [LAST_RUNNER, toPg(JSON.stringify(last))],
    );
  }

  /**
   * The runner's session lock, held on a connection of its own (taken now if not held): true while this Skein
   * holds it, false when another live Skein does. A connection that was lost is replaced, and the lock taken
   * again if nobody took it meanwhile.
   */
  private async holdLock(): Promise<boolean> {
    if (this.lock) {
      try {
        await this.lock.client.query('SELECT 1');
        return true;
      } catch {
        await this.dropLock();
      }
    }
    const got = await this.takeLock();
    if (!got) this.holding = null; // another Skein holds it: whatever this one held, it holds no more
    return got;
  }

  private async takeLock(): Promise<boolean> {
    const pool = createPool(this.db.connection, 1);
    let client: pg.PoolClient | null = null;
    try {
      client = await this.db.run(() => checkout(pool));
      const c = client;
      const ok = await this.db.run(async () => {
        // the server notices a vanished Skein within about a minute, and lets go of its lock
        await c.query('SET tcp_keepalives_idle = 30; SET tcp_keepalives_interval = 10; SET tcp_keepalives_count = 3');
        await c.query("SET idle_session_timeout = '2min'").catch(() => undefined); // PostgreSQL 14 and later
        const r = await c.query<{ ok: boolean }>(`SELECT pg_try_advisory_lock(${RUNNER_LOCK}, hashtext($1)) AS ok`, [
          this.schema,
        ]);
        return r.rows[0]?.ok === true;
      });
      if (!ok) {
        client.release();
        await pool.end().catch(() => undefined);
        return false;
      }
    } catch (e) {
      client?.release(true);
      await pool.end().catch(() => undefined);
      throw e;
    }
    const held = client;
    const ping = setInterval(() => {
      held.query('SELECT 1').catch(() => undefined);
    }, PING_MS);
    ping.unref?.();
    this.lock = { pool, client: held, ping };
    return true;
  }

  private async letGoUnlessHolding(): Promise<void> {
    if (this.holding === null) await this.dropLock();
  }

  /** Lets go of the runner's session lock (closing its connection releases it on the server). */
  private async dropLock(): Promise<void> {
    const lock = this.lock;
    this.lock = null;
    if (!lock) return;
    clearInterval(lock.ping);
    lock.client.release(true);
    await lock.pool.end().catch(() => undefined);
  }

  /** Closes the runner's connection, if any (the project is closing). */
  close(): Promise<void> {
    this.holding = null;
    return this.dropLock();
  }
}
