/**
 * A project's watches (issue 35), in its SQLite file (schema migration 4): the watches themselves, every run,
 * gaps, what each watch saw and whether it is still there (presence: the attrition history), counters over
 * time, and the one runner allowed to run them. Synchronous, in the archive's worker; what a run changes is
 * written in one transaction when it ends (`finishRun`), so a kill never leaves half a run's effects.
 * The rules (what is new, missing, gone) are the watch area's; this file keeps what it is told.
 */
import type { DatabaseSync, SQLInputValue, StatementSync } from 'node:sqlite';
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
} from '../watch/tables/records';
import { rowReaders, storedText } from './rows';

type Row = Record<string, string | number | null>;

const { watch: watchOf, run: runOf, gap: gapOf, presence: presenceOf, runner: runnerOf } = rowReaders(storedText);

/** ids per `IN (…)` */
const CHUNK = 500;
const DAY_MS = 86_400_000;
const LAST_RUNNER = 'watch_runner_last';

/** The SQLite store's watch tables; postgres/watches.ts is their twin (`WATCH_METHODS` in store.ts lists the calls). */
export class SqliteWatches {
  private readonly s: Record<string, StatementSync>;

  constructor(private readonly db: DatabaseSync) {
    this.s = {
      presenceGet: db.prepare('SELECT * FROM watch_presence WHERE watch = ? AND kind = ? AND id = ?'),
      presenceInsert: db.prepare(
        `INSERT INTO watch_presence (watch, kind, id, target, created_at, first_seen, last_seen, first_run, baseline, status, status_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'present', ?)`,
      ),
      presenceSeen: db.prepare(
        `UPDATE watch_presence SET last_seen = max(last_seen, ?), target = coalesce(target, ?), created_at = coalesce(created_at, ?)
         WHERE watch = ? AND kind = ? AND id = ?`,
      ),
      presenceStatus: db.prepare(
        `UPDATE watch_presence SET status = ?, reason = ?, status_at = ?, first_missing_at = ?, rechecks = ?, next_check = ?
         WHERE watch = ? AND kind = ? AND id = ?`,
      ),
      counterLast: db.prepare(
        'SELECT at, value, last_at FROM watch_counters WHERE kind = ? AND id = ? AND metric = ? ORDER BY at DESC LIMIT 1',
      ),
      counterInsert: db.prepare(
        'INSERT OR REPLACE INTO watch_counters (kind, id, metric, at, value, last_at, run) VALUES (?, ?, ?, ?, ?, ?, ?)',
      ),
      counterTouch: db.prepare(
        'UPDATE watch_counters SET last_at = max(last_at, ?) WHERE kind = ? AND id = ? AND metric = ? AND at = ?',
      ),
    };
  }

  /* --------------------------------------------------------------- watches */

  createWatch(w: { name: string; kind: string; spec: string; createdAt: number; nextDue: number | null }): number {
    const { lastInsertRowid } = this.db
      .prepare('INSERT INTO watches (name, kind, spec, created_at, next_due) VALUES (?, ?, ?, ?, ?)')
      .run(w.name, w.kind, w.spec, w.createdAt, w.nextDue);
    return Number(lastInsertRowid);
  }

  updateWatch(
    id: number,
    patch: Partial<Pick<WatchRecord, 'name' | 'spec' | 'paused' | 'pausedAt' | 'removedAt' | 'nextDue' | 'state'>>,
  ): void {
    const columns: Record<string, string> = {
      name: 'name',
      spec: 'spec',
      paused: 'paused',
      pausedAt: 'paused_at',
      removedAt: 'removed_at',
      nextDue: 'next_due',
      state: 'state',
    };
    const sets: string[] = [];
    const args: SQLInputValue[] = [];
    for (const [key, value] of Object.entries(patch)) {
      const column = columns[key];
      if (!column || value === undefined) continue;
      sets.push(`${column} = ?`);
      args.push(typeof value === 'boolean' ? (value ? 1 : 0) : value);
    }
    if (sets.length === 0) return;
    this.db.prepare(`UPDATE watches SET ${sets.join(', ')} WHERE rowid = ?`).run(...args, id);
  }

  watches(): WatchRecord[] {
    return (this.db.prepare('SELECT rowid, * FROM watches WHERE removed_at IS NULL ORDER BY rowid').all() as Row[]).map(
      watchOf,
    );
  }

  watch(id: number): WatchRecord | null {
    const row = this.db.prepare('SELECT rowid, * FROM watches WHERE rowid = ?').get(id) as Row | undefined;
    return row ? watchOf(row) : null;
  }

  /* ------------------------------------------------------------------ runs */

  startRun(r: {
    watch: number;
    startedAt: number;
    scheduledFor: number | null;
    runner: string;
    token: string;
    journal: string | null;
    asked: string;
  }): number {
    const { lastInsertRowid } = this.db
      .prepare(
        `INSERT INTO watch_runs (watch, started_at, scheduled_for, status, runner, token, journal, asked)
         VALUES (?, ?, ?, 'running', ?, ?, ?, ?)`,
      )
      .run(r.watch, r.startedAt, r.scheduledFor, r.runner, r.token, r.journal, r.asked);
    return Number(lastInsertRowid);
  }

  /** A run's spend so far (kept as it goes: a run that is killed keeps its record), or its new owner. */
  progressRun(
    id: number,
    p: { calls?: number; credits?: number; token?: string; resumed?: boolean; asked?: string },
  ): void {
    this.db
      .prepare(
        `UPDATE watch_runs SET calls = coalesce(?, calls), credits = coalesce(?, credits), token = coalesce(?, token),
           resumed = coalesce(?, resumed), asked = coalesce(?, asked) WHERE rowid = ?`,
      )
      .run(
        p.calls ?? null,
        p.credits ?? null,
        p.token ?? null,
        p.resumed === undefined ? null : p.resumed ? 1 : 0,
        p.asked ?? null,
        id,
      );
  }

  /** Everything a run changes, in one transaction. */
  finishRun(o: RunOutcome): void {
    this.db.exec('BEGIN IMMEDIATE');
    try {
      const r = o.run;
      this.db
        .prepare(
          `UPDATE watch_runs SET status = ?, ended_at = ?, message = ?, calls = ?, credits = ?, new_items = ?, seen_items = ?,
             rechecked = ?, gone = ?, returned = ?, asked = ?, journal = NULL WHERE rowid = ?`,
        )
        .run(
          r.status,
          r.endedAt,
          r.message,
          r.calls,
          r.credits,
          r.newItems,
          r.seenItems,
          r.rechecked,
          r.gone,
          r.returned,
          r.asked,
          r.id,
        );
      const watch = o.watch.id;
      for (const seen of o.seen) this.markSeen(watch, r.id, seen);
      for (const m of o.missing) {
        const p = this.presence(watch, m.kind, m.id);
        if (!p || p.status === 'missing' || p.status === 'gone') continue;
        this.s.presenceStatus!.run('missing', m.reason, m.at, m.at, p.rechecks, m.at, watch, m.kind, m.id);
      }
      for (const c of o.rechecked) {
        const p = this.presence(watch, c.kind, c.id);
        if (!p) continue;
        if (c.found) {
          // back: one that was called gone is marked so; one only missing from a listing is simply present
          const status = p.status === 'gone' ? 'returned' : p.status === 'missing' ? 'present' : p.status;
          this.s.presenceStatus!.run(
            status,
            c.reason,
            c.at,
            p.firstMissingAt,
            p.rechecks + 1,
            null,
            watch,
            c.kind,
            c.id,
          );
        } else {
          const at = p.status === 'gone' ? p.statusAt : c.at;
          this.s.presenceStatus!.run(
            'gone',
            c.reason,
            at,
            p.firstMissingAt ?? c.at,
            p.rechecks + 1,
            c.nextCheck,
            watch,
            c.kind,
            c.id,
          );
        }
      }
      for (const c of o.counters) this.recordCounter(c, r.id);
      for (const g of o.gaps.add)
        this.db
          .prepare(
            `INSERT INTO watch_gaps (watch, from_at, to_at, reason, detail, recorded_at, pending, filled_at, filled_by)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          )
          .run(
            g.watch,
            g.from,
            g.to,
            g.reason,
            g.detail,
            g.recordedAt,
            JSON.stringify(g.pending),
            g.pending.length === 0 ? r.endedAt : null,
            g.pending.length === 0 ? r.id : null,
          );
      for (const g of o.gaps.progress)
        this.db
          .prepare(
            `UPDATE watch_gaps SET pending = ?, filled_at = CASE WHEN ? = 0 THEN ? ELSE NULL END,
               filled_by = CASE WHEN ? = 0 THEN ? ELSE NULL END WHERE rowid = ? AND filled_at IS NULL`,
          )
          .run(JSON.stringify(g.pending), g.pending.length, r.endedAt, g.pending.length, r.id, g.id);
      this.db
        .prepare('UPDATE watches SET state = ?, next_due = ? WHERE rowid = ?')
        .run(o.watch.state, o.watch.nextDue, watch);
      this.db.exec('COMMIT');
    } catch (e) {
      this.db.exec('ROLLBACK');
      throw e;
    }
  }

  private markSeen(watch: number, run: number, seen: RunOutcome['seen'][number]): void {
    const p = this.presence(watch, seen.kind, seen.id);
    if (!p) {
      this.s.presenceInsert!.run(
        watch,
        seen.kind,
        seen.id,
        seen.target,
        seen.createdAt,
        seen.at,
        seen.at,
        run,
        seen.baseline ? 1 : 0,
        seen.at,
      );
      return;
    }
    this.s.presenceSeen!.run(seen.at, seen.target, seen.createdAt, watch, seen.kind, seen.id);
    if (p.status === 'gone')
      this.s.presenceStatus!.run(
        'returned',
        'seen again in a listing',
        seen.at,
        p.firstMissingAt,
        p.rechecks,
        null,
        watch,
        seen.kind,
        seen.id,
      );
    else if (p.status === 'missing')
      this.s.presenceStatus!.run(
        'present',
        'seen again in a listing',
        seen.at,
        p.firstMissingAt,
        p.rechecks,
        null,
        watch,
        seen.kind,
        seen.id,
      );
  }

  private recordCounter(c: RunOutcome['counters'][number], run: number): void {
    const last = this.s.counterLast!.get(c.kind, c.id, c.metric) as
      { at: number; value: number; last_at: number } | undefined;
    if (last && last.value === c.value && c.at >= last.at) {
      this.s.counterTouch!.run(c.at, c.kind, c.id, c.metric, last.at);
      return;
    }
    if (last && c.at < last.last_at) return; // an older reading than what is held: kept out of the history
    this.s.counterInsert!.run(c.kind, c.id, c.metric, c.at, c.value, c.at, run);
  }

  private presence(watch: number, kind: string, id: string): PresenceRecord | null {
    const row = this.s.presenceGet!.get(watch, kind, id) as Row | undefined;
    return row ? presenceOf(row) : null;
  }

  runs(watch: number, limit: number): RunRecord[] {
    return (
      this.db
        .prepare('SELECT rowid, * FROM watch_runs WHERE watch = ? ORDER BY started_at DESC, rowid DESC LIMIT ?')
        .all(watch, limit) as Row[]
    ).map(runOf);
  }

  /** runs left `running` (their runner quit or was killed): picked up again, or closed */
  openRuns(): RunRecord[] {
    return (
      this.db.prepare("SELECT rowid, * FROM watch_runs WHERE status = 'running' ORDER BY rowid").all() as Row[]
    ).map(runOf);
  }

  /** credits spent by a watch's runs in the 24 hours before `now` (a run counts while any of it falls inside), and in all */
  spent(watch: number, now: number, exceptRun: number | null): { lastDay: number; total: number } {
    const row = this.db
      .prepare(
        `SELECT coalesce(sum(CASE WHEN coalesce(ended_at, ?) > ? THEN credits ELSE 0 END), 0) AS day, coalesce(sum(credits), 0) AS total
         FROM watch_runs WHERE watch = ? AND rowid IS NOT ?`,
      )
      .get(now, now - DAY_MS, watch, exceptRun) as { day: number; total: number };
    return { lastDay: row.day, total: row.total };
  }

  stats(watch: number, now: number): WatchStats {
    const runs = this.db
      .prepare(
        `SELECT count(*) AS n, coalesce(sum(new_items), 0) AS fresh, min(started_at) AS first,
           sum(status = 'running') AS running FROM watch_runs WHERE watch = ?`,
      )
      .get(watch) as { n: number; fresh: number; first: number | null; running: number | null };
    const spent = this.spent(watch, now, null);
    const gaps = this.db
      .prepare(
        'SELECT sum(filled_at IS NULL) AS open, sum(filled_at IS NOT NULL) AS filled FROM watch_gaps WHERE watch = ?',
      )
      .get(watch) as { open: number | null; filled: number | null };
    const attrition = { present: 0, missing: 0, gone: 0, returned: 0 };
    for (const row of this.db
      .prepare('SELECT status, count(*) AS n FROM watch_presence WHERE watch = ? GROUP BY status')
      .all(watch) as Array<{ status: keyof typeof attrition; n: number }>)
      attrition[row.status] = row.n;
    return {
      runs: runs.n,
      newItems: runs.fresh,
      spentLastDay: spent.lastDay,
      spentTotal: spent.total,
      firstRunAt: runs.first,
      lastRun: this.runs(watch, 1)[0] ?? null,
      running: (runs.running ?? 0) > 0,
      gaps: { open: gaps.open ?? 0, filled: gaps.filled ?? 0 },
      attrition,
    };
  }

  /* ------------------------------------------------------------------ gaps */

  /** A gap recorded as it is found (a closed period, a skipped run), before the run that may fill it. */
  addGap(g: Omit<GapRecord, 'id' | 'filledAt' | 'filledBy'>): number {
    const { lastInsertRowid } = this.db
      .prepare(
        'INSERT INTO watch_gaps (watch, from_at, to_at, reason, detail, recorded_at, pending) VALUES (?, ?, ?, ?, ?, ?, ?)',
      )
      .run(g.watch, g.from, g.to, g.reason, g.detail, g.recordedAt, JSON.stringify(g.pending));
    return Number(lastInsertRowid);
  }

  gaps(watch: number, openOnly: boolean): GapRecord[] {
    return (
      this.db
        .prepare(
          `SELECT rowid, * FROM watch_gaps WHERE watch = ? ${openOnly ? 'AND filled_at IS NULL' : ''} ORDER BY from_at DESC, rowid DESC`,
        )
        .all(watch) as Row[]
    ).map(gapOf);
  }

  /* -------------------------------------------------------------- presence */

  /** Which of these ids the project held before `before` (any answer) or this watch has seen. */
  known(watch: number, kind: PresenceKind, ids: readonly string[], before: number): string[] {
    const out = new Set<string>();
    for (let i = 0; i < ids.length; i += CHUNK) {
      const chunk = ids.slice(i, i + CHUNK);
      const marks = chunk.map(() => '?').join(',');
      for (const r of this.db
        .prepare(`SELECT id FROM items WHERE kind = ? AND first_seen < ? AND id IN (${marks})`)
        .all(kind, before, ...chunk) as Array<{ id: string }>)
        out.add(r.id);
      for (const r of this.db
        .prepare(`SELECT id FROM watch_presence WHERE watch = ? AND kind = ? AND id IN (${marks})`)
        .all(watch, kind, ...chunk) as Array<{ id: string }>)
        out.add(r.id);
    }
    return [...out];
  }

  presenceOf(watch: number, q: PresenceQuery): PresenceRecord[] {
    const where = ['watch = ?'];
    const args: SQLInputValue[] = [watch];
    if (q.kind) {
      where.push('kind = ?');
      args.push(q.kind);
    }
    if (q.targets) {
      if (q.targets.length === 0) return [];
      where.push(`target IN (${q.targets.map(() => '?').join(',')})`);
      args.push(...q.targets);
    }
    if (q.statuses) {
      where.push(`status IN (${q.statuses.map(() => '?').join(',')})`);
      args.push(...q.statuses);
    }
    if (q.createdSince !== undefined) {
      where.push('created_at >= ?');
      args.push(q.createdSince);
    }
    if (q.dueBy !== undefined) {
      where.push('next_check IS NOT NULL AND next_check <= ?');
      args.push(q.dueBy);
    }
    return (
      this.db
        .prepare(`SELECT * FROM watch_presence WHERE ${where.join(' AND ')} ORDER BY created_at DESC, id LIMIT ?`)
        .all(...args, q.limit ?? 100_000) as Row[]
    ).map(presenceOf);
  }

  /** The attrition table's rows: a watch's or all, by status (not present first), then by when. */
  attrition(q: { watch?: number; status?: PresenceRecord['status']; offset: number; limit: number }): PresenceRecord[] {
    const where: string[] = [];
    const args: SQLInputValue[] = [];
    if (q.watch !== undefined) {
      where.push('watch = ?');
      args.push(q.watch);
    }
    if (q.status) {
      where.push('status = ?');
      args.push(q.status);
    }
    return (
      this.db
        .prepare(
          `SELECT * FROM watch_presence ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
           ORDER BY CASE status WHEN 'gone' THEN 0 WHEN 'missing' THEN 1 WHEN 'returned' THEN 2 ELSE 3 END, status_at DESC, watch, kind, id
           LIMIT ? OFFSET ?`,
        )
        .all(...args, q.limit, q.offset) as Row[]
    ).map(presenceOf);
  }

  /* -------------------------------------------------------------- counters */

  counters(kind: string, id: string): CounterRecord[] {
    return (
      this.db
        .prepare('SELECT * FROM watch_counters WHERE kind = ? AND id = ? ORDER BY metric, at')
        .all(kind, id) as Row[]
    ).map((r) => ({
      kind: String(r.kind),
      id: String(r.id),
      metric: String(r.metric),
      at: Number(r.at),
      value: Number(r.value),
      lastAt: Number(r.last_at),
    }));
  }

  /**
   * The deltas table, a page at a time after `after` (a key, not an offset: a page costs the same at any depth):
   * every counter value as first seen, with the one before it and when that one was last seen; for a watch (the
   * items it saw), an item, or the whole project. Ordered by item, metric and time, so the value before each
   * one is the row before it (the page's first row: the `after` row, read once through the primary key).
   */
  deltas(q: {
    watch?: number;
    item?: { kind: string; id: string };
    after: { kind: string; id: string; metric: string; at: number } | null;
    limit: number;
  }): DeltaRecord[] {
    const where: string[] = [];
    const args: SQLInputValue[] = [];
    if (q.after) {
      where.push('(c.kind, c.id, c.metric, c.at) > (?, ?, ?, ?)');
      args.push(q.after.kind, q.after.id, q.after.metric, q.after.at);
    }
    if (q.item) {
      where.push('c.kind = ? AND c.id = ?');
      args.push(q.item.kind, q.item.id);
    }
    if (q.watch !== undefined) {
      where.push('EXISTS (SELECT 1 FROM watch_presence p WHERE p.watch = ? AND p.kind = c.kind AND p.id = c.id)');
      args.push(q.watch);
    }
    const rows = this.db
      .prepare(
        `SELECT c.kind AS kind, c.id AS id, c.metric AS metric, c.at AS at, c.value AS value, c.last_at AS last_at
         FROM watch_counters c ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
         ORDER BY c.kind, c.id, c.metric, c.at LIMIT ?`,
      )
      .all(...args, q.limit) as Row[];
    let before = q.after
      ? ((this.db
          .prepare(
            'SELECT kind, id, metric, value, last_at FROM watch_counters WHERE kind = ? AND id = ? AND metric = ? AND at = ?',
          )
          .get(q.after.kind, q.after.id, q.after.metric, q.after.at) as Row | undefined) ?? null)
      : null;
    return rows.map((r) => {
      const same = before !== null && before.kind === r.kind && before.id === r.id && before.metric === r.metric;
      const d: DeltaRecord = {
        kind: String(r.kind),
        id: String(r.id),
        metric: String(r.metric),
        at: Number(r.at),
        value: Number(r.value),
        previous: same && before ? Number(before.value) : null,
        previousSeenAt: same && before ? Number(before.last_at) : null,
      };
      before = r;
      return d;
    });
  }

  /** The attrition table, a page at a time after `after` (by watch, kind and id): what the export writes. */
  attritionPage(q: {
    watch?: number;
    after: { watch: number; kind: string; id: string } | null;
    limit: number;
  }): PresenceRecord[] {
    const where: string[] = [];
    const args: SQLInputValue[] = [];
    if (q.after) {
      where.push('(watch, kind, id) > (?, ?, ?)');
      args.push(q.after.watch, q.after.kind, q.after.id);
    }
    if (q.watch !== undefined) {
      where.push('watch = ?');
      args.push(q.watch);
    }
    return (
      this.db
        .prepare(
          `SELECT * FROM watch_presence ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY watch, kind, id LIMIT ?`,
        )
        .all(...args, q.limit) as Row[]
    ).map(presenceOf);
  }

  /* ----------------------------------------------------------- projections */

  /** the targets' posts the project holds since `since`: how many, first and last (by the author's id in the raw post) */
  postingHistory(authors: readonly string[], since: number): PostingHistory[] {
    const out: PostingHistory[] = [];
    for (let i = 0; i < authors.length; i += CHUNK) {
      const chunk = authors.slice(i, i + CHUNK);
      out.push(
        ...(this.db
          .prepare(
            `SELECT a AS author, count(*) AS posts, min(created_at) AS first, max(created_at) AS last FROM (
               SELECT json_extract(raw, '$.author.id') AS a, created_at FROM items
               WHERE kind = 'post' AND created_at >= ? AND json_valid(raw)) WHERE a IN (${chunk.map(() => '?').join(',')})
             GROUP BY a`,
          )
          .all(since, ...chunk) as unknown as PostingHistory[]),
      );
    }
    return out;
  }

  /** the accounts the project holds: their post count and creation time (a lifetime rate when nothing recent is held) */
  accountFacts(ids: readonly string[]): AccountFacts[] {
    const out: AccountFacts[] = [];
    for (let i = 0; i < ids.length; i += CHUNK) {
      const chunk = ids.slice(i, i + CHUNK);
      out.push(
        ...(
          this.db
            .prepare(
              `SELECT id, json_extract(raw, '$.statusesCount') AS n, created_at FROM items
               WHERE kind = 'user' AND json_valid(raw) AND id IN (${chunk.map(() => '?').join(',')})`,
            )
            .all(...chunk) as Array<{ id: string; n: unknown; created_at: number | null }>
        ).map((r) => ({ id: r.id, statusesCount: typeof r.n === 'number' ? r.n : null, createdAt: r.created_at })),
      );
    }
    return out;
  }

  /** the most items one answer of this operation has held (the live service's pages vary: a cap's estimate) */
  largestPage(operation: string): number {
    const row = this.db.prepare('SELECT max(item_count) AS n FROM requests WHERE operation = ?').get(operation) as {
      n: number | null;
    };
    return row.n ?? 0;
  }

  /* ---------------------------------------------------------------- runner */

  runner(): RunnerRecord | null {
    const row = this.db.prepare('SELECT * FROM watch_runner WHERE one = 1').get() as Row | undefined;
    return row ? runnerOf(row) : null;
  }

  /**
   * Takes the project for a runner, if it is still held by `expected` (null: by nobody): compare and set, in
   * one transaction, so two runners deciding at once cannot both win. The runner it replaces (stale) is kept
   * as the last one, for the gap it left.
   */
  takeRunner(next: RunnerRecord, expected: string | null): boolean {
    this.db.exec('BEGIN IMMEDIATE');
    try {
      const current = this.runner();
      if ((current?.token ?? null) !== expected) {
        this.db.exec('ROLLBACK');
        return false;
      }
      if (current)
        this.setLast({ who: current.who, host: current.host, pid: current.pid, at: current.heartbeat, clean: false });
      this.db
        .prepare(
          'INSERT OR REPLACE INTO watch_runner (one, token, who, host, pid, since, heartbeat) VALUES (1, ?, ?, ?, ?, ?, ?)',
        )
        .run(next.token, next.who, next.host, next.pid, next.since, next.heartbeat);
      this.db.exec('COMMIT');
      return true;
    } catch (e) {
      this.db.exec('ROLLBACK');
      throw e;
    }
  }

  /** the holder's sign of life; false when it is not the holder any more */
  heartbeat(token: string, now: number): boolean {
    return (
      Number(
        this.db.prepare('UPDATE watch_runner SET heartbeat = ? WHERE one = 1 AND token = ?').run(now, token).changes,
      ) === 1
    );
  }

  releaseRunner(token: string, now: number): void {
    const current = this.runner();
    if (!current || current.token !== token) return;
    this.db.exec('BEGIN IMMEDIATE');
    try {
      this.setLast({ who: current.who, host: current.host, pid: current.pid, at: now, clean: true });
      this.db.prepare('DELETE FROM watch_runner WHERE one = 1 AND token = ?').run(token);
      this.db.exec('COMMIT');
    } catch (e) {
      this.db.exec('ROLLBACK');
      throw e;
    }
  }

  lastRunner(): RunnerLast | null {
    const row = this.db.prepare('SELECT value FROM meta WHERE key = ?').get(LAST_RUNNER) as
      { value: string } | undefined;
    if (!row) return null;
    try {
      return JSON.parse(row.value) as RunnerLast;
    } catch {
      return null;
    }
  }

  private setLast(last: RunnerLast): void {
    this.db.prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)').run(LAST_RUNNER, JSON.stringify(last));
  }
}
