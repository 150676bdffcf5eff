/**
 * A project's watch tables, on either store (a project file or a team's PostgreSQL schema), written once over
 * the data floor's executor: the watches, every run, gaps, what each watch saw and whether it is still there
 * (presence: the attrition history), counters over time, and the one runner allowed to run them. Every method
 * is the watch area's store port (store.ts); every call may cross a thread, so rows go in and out as plain data.
 *
 * What a run changes is written in one transaction when it ends (`finishRun`): the rows it touches read up front
 * in a few queries, settled by the pure rules (../rules), written back in batches, so a kill never leaves half a
 * run's effects and a run of thousands of items is a handful of statements, not a round trip per row.
 *
 * One runner across machines: the runner's row is taken by compare and set in a transaction (the row locked),
 * and a Skein that holds it also holds the runner's session lock (core/db), kept while its process lives. A
 * holder another Skein judges stale (no heartbeat for two minutes, by the taker's clock) is taken over only once
 * its lock is gone too: a live runner on another machine, in a long run, behind a clock that is off, or with the
 * same host name, is never displaced, and no watch runs twice. A project file has one writer at a time already.
 */
import type { OperationId } from '../../../shared/api/catalog';
import { parseApiDate } from '../../../shared/api/dates';
import { forUpdate, sql, type Db, type Row, type RowStream, type SessionLock, type Sql } from '../../db';
import { settleCounters } from '../rules/counters';
import { attritionLine, deltaPageBytes } from './csv';
import { HOLD_MS, readAhead } from './read-ahead';
import { settlePresence } from '../rules/presence';
import type {
  AccountFacts,
  AttritionKey,
  CounterRecord,
  CsvPage,
  DeltaFields,
  DeltaKey,
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
} from './records';
import {
  counterOf,
  gapOf,
  numOrNull,
  PRESENCE_COLUMNS,
  PRESENCE_FIELDS,
  presenceOf,
  runnerOf,
  runOf,
  watchOf,
} from './rows';

/**
 * The lock every Skein settling a run or taking the runner's row takes for the transaction, and the runner's
 * session lock: the classes Skein has always used, so Skeins of different versions on one team project still
 * exclude each other.
 */
const WATCH_LOCK = 0x736b77; // "skw"
const RUNNER_LOCK = 0x736b72; // "skr"

/** keys per `IN (…)`, and rows per multi-row insert (15 columns: well within both stores' limit on values) */
const CHUNK = 500;
const DAY_MS = 86_400_000;
const LAST_RUNNER = 'watch_runner_last';

/** which rows of the deltas table: a watch's (the items it saw), an item's, or all; a page after `after` */
interface DeltaQuery {
  watch?: number;
  item?: { kind: string; id: string };
  after: DeltaKey | null;
  limit: number;
}

/** a page of the attrition table as the export asks for it: a watch's or all, after `after` */
interface AttritionCsvQuery {
  watch?: number;
  after: AttritionKey | null;
  limit: number;
}

const WATCH_COLUMNS = {
  name: 'name',
  spec: 'spec',
  paused: 'paused',
  pausedAt: 'paused_at',
  removedAt: 'removed_at',
  nextDue: 'next_due',
  state: 'state',
} as const;

/** `items` in slices of CHUNK */
function* chunks<T>(items: readonly T[]): Generator<T[]> {
  for (let i = 0; i < items.length; i += CHUNK) yield items.slice(i, i + CHUNK);
}

/** `(a, b, …)` of bound values */
const tuple = (values: readonly unknown[]): Sql => sql`(${sql.join(values)})`;

/** `WHERE a AND b …`, or nothing */
const where = (conditions: readonly Sql[]): Sql =>
  conditions.length ? sql`WHERE ${sql.join(conditions, ' AND ')}` : sql``;

/** a text value read out of an item's raw JSON, or null where it does not read (SQLite's rows are checked first) */
const rawText = (path: readonly string[]): Sql =>
  sql.of({
    sqlite: `json_extract(raw, '$.${path.join('.')}')`,
    postgres: `skein_json_text(raw, '{${path.join(',')}}')`,
  });
/** the reads that hold every post of an account over their span */
const TIMELINES: readonly OperationId[] = ['userTimeline', 'listTimeline'];
/** the items whose raw JSON reads (PostgreSQL's functions answer null for the others) */
const rawReads = sql.of({ sqlite: ' AND json_valid(raw)', postgres: '' });
/** a number of posts at `path` in an item's raw JSON, where it holds one as a number */
const statusesCountAt = (path: readonly string[]): Sql => {
  const dotted = [...path, 'statusesCount'];
  return sql.of({
    sqlite: `CASE WHEN json_type(raw, '$.${dotted.join('.')}') IN ('integer', 'real') THEN json_extract(raw, '$.${dotted.join('.')}') END`,
    postgres: `CASE WHEN skein_json_type(raw, '{${dotted.join(',')}}') = 'number' THEN skein_json_text(raw, '{${dotted.join(',')}}')::double precision END`,
  });
};

export class WatchTables {
  /** the runner's session lock (held while this Skein holds the project's runner row) */
  private readonly lock: SessionLock;
  /** the runner's token this Skein holds the row with (null: none) */
  private holding: string | null = null;

  constructor(private readonly db: Db) {
    this.lock = db.sessionLock(RUNNER_LOCK);
  }

  /* --------------------------------------------------------------- watches */

  async createWatch(w: {
    name: string;
    kind: string;
    spec: string;
    createdAt: number;
    nextDue: number | null;
  }): Promise<number> {
    const r = await this.db.get<{ rowid: number }>(
      sql`INSERT INTO watches (name, kind, spec, created_at, next_due)
          VALUES (${w.name}, ${w.kind}, ${w.spec}, ${w.createdAt}, ${w.nextDue}) RETURNING rowid`,
    );
    return Number(r?.rowid);
  }

  async updateWatch(
    id: number,
    patch: Partial<Pick<WatchRecord, 'name' | 'spec' | 'paused' | 'pausedAt' | 'removedAt' | 'nextDue' | 'state'>>,
  ): Promise<void> {
    const sets: Sql[] = [];
    for (const [key, value] of Object.entries(patch)) {
      const column = WATCH_COLUMNS[key as keyof typeof WATCH_COLUMNS] as string | undefined;
      if (!column || value === undefined) continue;
      sets.push(sql`${sql.raw(column)} = ${value}`);
    }
    if (sets.length === 0) return;
    await this.db.run(sql`UPDATE watches SET ${sql.join(sets)} WHERE rowid = ${id}`);
  }

  async watches(): Promise<WatchRecord[]> {
    return (await this.db.all(sql`SELECT * FROM watches WHERE removed_at IS NULL ORDER BY rowid`)).map(watchOf);
  }

  async watch(id: number): Promise<WatchRecord | null> {
    const r = await this.db.get(sql`SELECT * FROM watches WHERE rowid = ${id}`);
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
    const row = await this.db.get<{ rowid: number }>(
      sql`INSERT INTO watch_runs (watch, started_at, scheduled_for, status, runner, token, journal, asked)
          VALUES (${r.watch}, ${r.startedAt}, ${r.scheduledFor}, 'running', ${r.runner}, ${r.token}, ${r.journal},
            ${r.asked}) RETURNING rowid`,
    );
    return Number(row?.rowid);
  }

  /** A run's spend so far (kept as it goes: a run that is killed keeps its record), or its new owner. */
  async progressRun(
    id: number,
    p: { calls?: number; credits?: number; token?: string; resumed?: boolean; asked?: string },
  ): Promise<void> {
    await this.db.run(
      sql`UPDATE watch_runs SET calls = coalesce(${p.calls ?? null}, calls), credits = coalesce(${p.credits ?? null}, credits),
            token = coalesce(${p.token ?? null}, token), resumed = coalesce(${p.resumed ?? null}, resumed),
            asked = coalesce(${p.asked ?? null}, asked)
          WHERE rowid = ${id}`,
    );
  }

  /** Everything a run changes, in one transaction: the rows it touches read up front, settled, written back. */
  async finishRun(o: RunOutcome): Promise<void> {
    await this.db.transaction(async (tx) => {
      const r = o.run;
      await tx.run(
        sql`UPDATE watch_runs SET status = ${r.status}, ended_at = ${r.endedAt}, message = ${r.message},
              calls = ${r.calls}, credits = ${r.credits}, new_items = ${r.newItems}, seen_items = ${r.seenItems},
              rechecked = ${r.rechecked}, gone = ${r.gone}, returned = ${r.returned}, asked = ${r.asked}, journal = NULL
            WHERE rowid = ${r.id}`,
      );
      const watch = o.watch.id;
      await settleRunPresence(tx, watch, r.id, o);
      await settleRunCounters(tx, r.id, o.counters);
      for (const add of chunks(o.gaps.add))
        await tx.run(
          sql`INSERT INTO watch_gaps (watch, from_at, to_at, reason, detail, recorded_at, pending, filled_at, filled_by)
              VALUES ${sql.rows(
                add.map((g) => {
                  const filled = g.pending.length === 0;
                  return [
                    g.watch,
                    g.from,
                    g.to,
                    g.reason,
                    g.detail,
                    g.recordedAt,
                    JSON.stringify(g.pending),
                    filled ? r.endedAt : null,
                    filled ? r.id : null,
                  ];
                }),
              )}`,
        );
      for (const g of o.gaps.progress) {
        const filled = g.pending.length === 0;
        await tx.run(
          sql`UPDATE watch_gaps SET pending = ${JSON.stringify(g.pending)}, filled_at = ${filled ? r.endedAt : null},
                filled_by = ${filled ? r.id : null}
              WHERE rowid = ${g.id} AND filled_at IS NULL`,
        );
      }
      await tx.run(
        sql`UPDATE watches SET state = ${o.watch.state}, next_due = ${o.watch.nextDue} WHERE rowid = ${watch}`,
      );
    }, WATCH_LOCK);
  }

  async runs(watch: number, limit: number): Promise<RunRecord[]> {
    return (
      await this.db.all(
        sql`SELECT * FROM watch_runs WHERE watch = ${watch} ORDER BY started_at DESC, rowid DESC LIMIT ${limit}`,
      )
    ).map(runOf);
  }

  /** runs left `running` (their runner quit or was killed): picked up again, or closed */
  async openRuns(): Promise<RunRecord[]> {
    return (await this.db.all(sql`SELECT * FROM watch_runs WHERE status = 'running' ORDER BY rowid`)).map(runOf);
  }

  /** credits spent by a watch's runs in the 24 hours before `now` (a run counts while any of it falls inside), and in all */
  async spent(watch: number, now: number, exceptRun: number | null): Promise<{ lastDay: number; total: number }> {
    const row = await this.db.get<{ day: unknown; total: unknown }>(
      sql`SELECT coalesce(sum(CASE WHEN coalesce(ended_at, ${now}) > ${now - DAY_MS} THEN credits ELSE 0 END), 0) AS day,
            coalesce(sum(credits), 0) AS total
          FROM watch_runs WHERE watch = ${watch} AND rowid IS DISTINCT FROM ${exceptRun}`,
    );
    return { lastDay: Number(row?.day ?? 0), total: Number(row?.total ?? 0) };
  }

  async stats(watch: number, now: number): Promise<WatchStats> {
    const [runs, spent, gaps, statuses, last, kept] = await Promise.all([
      this.db.get(
        sql`SELECT count(*) AS n, coalesce(sum(new_items), 0) AS fresh, min(started_at) AS first,
              count(*) FILTER (WHERE status = 'running') AS running
            FROM watch_runs WHERE watch = ${watch}`,
      ),
      this.spent(watch, now, null),
      this.db.get(
        sql`SELECT count(*) FILTER (WHERE filled_at IS NULL) AS open, count(*) FILTER (WHERE filled_at IS NOT NULL) AS filled
            FROM watch_gaps WHERE watch = ${watch}`,
      ),
      this.db.all<{ status: string; n: unknown }>(
        sql`SELECT status, count(*) AS n FROM watch_presence WHERE watch = ${watch} GROUP BY status`,
      ),
      this.runs(watch, 1),
      this.db.get(
        sql`SELECT count(*) AS posts, count(DISTINCT target) AS targets
            FROM watch_presence WHERE watch = ${watch} AND kind = 'post'`,
      ),
    ]);
    const attrition = { present: 0, missing: 0, gone: 0, returned: 0, other: 0 };
    for (const row of statuses) {
      // a status a newer Skein wrote (a shared project) is counted apart, never as a key of its own
      attrition[Object.hasOwn(attrition, row.status) ? (row.status as keyof typeof attrition) : 'other'] += Number(
        row.n,
      );
    }
    return {
      runs: Number(runs?.n ?? 0),
      newItems: Number(runs?.fresh ?? 0),
      spentLastDay: spent.lastDay,
      spentTotal: spent.total,
      firstRunAt: numOrNull(runs?.first),
      lastRun: last[0] ?? null,
      running: Number(runs?.running ?? 0) > 0,
      gaps: { open: Number(gaps?.open ?? 0), filled: Number(gaps?.filled ?? 0) },
      attrition,
      kept: { posts: Number(kept?.posts ?? 0), targets: Number(kept?.targets ?? 0) },
    };
  }

  /* ------------------------------------------------------------------ gaps */

  /** A gap recorded as it is found (a closed period, a skipped run), before the run that may fill it. */
  async addGap(g: Omit<GapRecord, 'id' | 'filledAt' | 'filledBy'>): Promise<number> {
    const r = await this.db.get<{ rowid: number }>(
      sql`INSERT INTO watch_gaps (watch, from_at, to_at, reason, detail, recorded_at, pending)
          VALUES (${g.watch}, ${g.from}, ${g.to}, ${g.reason}, ${g.detail}, ${g.recordedAt}, ${JSON.stringify(g.pending)})
          RETURNING rowid`,
    );
    return Number(r?.rowid);
  }

  async gaps(watch: number, openOnly: boolean): Promise<GapRecord[]> {
    return (
      await this.db.all(
        sql`SELECT * FROM watch_gaps WHERE watch = ${watch} ${sql.raw(openOnly ? 'AND filled_at IS NULL' : '')}
            ORDER BY from_at DESC, rowid DESC`,
      )
    ).map(gapOf);
  }

  /* -------------------------------------------------------------- presence */

  /** Which of these ids the project held before `before` (any answer) or this watch has seen. */
  async known(watch: number, kind: PresenceKind, ids: readonly string[], before: number): Promise<string[]> {
    const out = new Set<string>();
    for (const chunk of chunks(ids))
      for (const r of await this.db.all<{ id: string }>(
        sql`SELECT id FROM items WHERE kind = ${kind} AND first_seen < ${before} AND id IN ${tuple(chunk)}
            UNION SELECT id FROM watch_presence WHERE watch = ${watch} AND kind = ${kind} AND id IN ${tuple(chunk)}`,
      ))
        out.add(r.id);
    return [...out];
  }

  async presenceOf(watch: number, q: PresenceQuery): Promise<PresenceRecord[]> {
    const conditions = [sql`watch = ${watch}`];
    if (q.kind) conditions.push(sql`kind = ${q.kind}`);
    if (q.targets) {
      if (q.targets.length === 0) return [];
      conditions.push(sql`target IN ${tuple(q.targets)}`);
    }
    if (q.statuses) conditions.push(sql`status IN ${tuple(q.statuses)}`);
    if (q.createdSince !== undefined) conditions.push(sql`created_at >= ${q.createdSince}`);
    if (q.dueBy !== undefined) conditions.push(sql`next_check IS NOT NULL AND next_check <= ${q.dueBy}`);
    return (
      await this.db.all(
        sql`SELECT * FROM watch_presence ${where(conditions)}
            ORDER BY created_at DESC NULLS LAST, id LIMIT ${q.limit ?? 100_000}`,
      )
    ).map(presenceOf);
  }

  /** The attrition table's rows: a watch's or all, by status (not present first), then by when. */
  async attrition(q: {
    watch?: number;
    status?: PresenceRecord['status'];
    offset: number;
    limit: number;
  }): Promise<PresenceRecord[]> {
    const conditions: Sql[] = [];
    if (q.watch !== undefined) conditions.push(sql`watch = ${q.watch}`);
    if (q.status) conditions.push(sql`status = ${q.status}`);
    return (
      await this.db.all(
        sql`SELECT * FROM watch_presence ${where(conditions)}
            ORDER BY CASE status WHEN 'gone' THEN 0 WHEN 'missing' THEN 1 WHEN 'returned' THEN 2 ELSE 3 END,
              status_at DESC, watch, kind, id
            LIMIT ${q.limit} OFFSET ${q.offset}`,
      )
    ).map(presenceOf);
  }

  /** The attrition table, a page at a time after `after` (by watch, kind and id): what the export writes. */
  async attritionPage(q: {
    watch?: number;
    after: { watch: number; kind: string; id: string } | null;
    limit: number;
  }): Promise<PresenceRecord[]> {
    const conditions: Sql[] = [];
    if (q.after) conditions.push(sql`(watch, kind, id) > (${q.after.watch}, ${q.after.kind}, ${q.after.id})`);
    if (q.watch !== undefined) conditions.push(sql`watch = ${q.watch}`);
    return (
      await this.db.all(
        sql`SELECT * FROM watch_presence ${where(conditions)} ORDER BY watch, kind, id LIMIT ${q.limit}`,
      )
    ).map(presenceOf);
  }

  /**
   * The attrition table as the export writes it: a page of `attritionPage` as CSV lines, one string; the page after
   * a full one is read at once, while this one crosses to main and is written (./read-ahead).
   */
  async attritionCsv(q: AttritionCsvQuery): Promise<CsvPage<AttritionKey>> {
    return this.attritionPages(q);
  }

  private readonly attritionPages = readAhead(async (q: AttritionCsvQuery): Promise<CsvPage<AttritionKey>> => {
    const records = await this.attritionPage(q);
    const last = records.at(-1);
    return {
      text: records.map(attritionLine).join(''),
      rows: records.length,
      last: last ? { watch: last.watch, kind: last.kind, id: last.id } : null,
    };
  });

  /* -------------------------------------------------------------- counters */

  async counters(kind: string, id: string): Promise<CounterRecord[]> {
    return (
      await this.db.all(sql`SELECT * FROM watch_counters WHERE kind = ${kind} AND id = ${id} ORDER BY metric, at`)
    ).map(counterOf);
  }

  /**
   * The deltas table, a page at a time after `after` (a key, not an offset: a page costs the same at any depth):
   * every counter value as first seen, with the one before it and when that one was last seen; for a watch (the
   * items it saw), an item, or the whole project. Ordered by item, metric and time, so the value before each
   * one is the row before it (the page's first row: the `after` row, read once through the primary key).
   */
  async deltas(q: DeltaQuery): Promise<DeltaRecord[]> {
    const { rows, before } = await this.deltaRows(q);
    const records: DeltaRecord[] = [];
    eachDelta(rows, before, (kind, id, metric, at, value, previous, previousSeenAt) => {
      records.push({ kind, id, metric, at, value, previous, previousSeenAt });
    });
    return records;
  }

  /**
   * The deltas table as the export writes it, a page at a time after `after`: the page's CSV lines, made here
   * straight from its rows as their UTF-8 bytes (thousands of rows cross to main as one value, with no object or
   * string per row made on the way), how many, and the last one's key. The page after a full one is read at once, while this one
   * crosses to main and is written (./read-ahead).
   */
  async deltaPage(q: DeltaQuery): Promise<CsvPage<DeltaKey, Uint8Array>> {
    return this.deltaPages(q);
  }

  /**
   * On PostgreSQL an export's pages, which come one after another each after the last one's final row, are read
   * from one stream of the table's rows (one COPY: no driver parse per field, the server sending while this thread
   * makes lines), each page continuing it, its first row's value before it the last row read. Any other ask
   * (another filter, another key, none within HOLD_MS) lets the stream go, and begins one after its key. A project
   * file reads each page whole by its key instead: node:sqlite steps a statement a row at a time more slowly
   * (1.2M rows: 1.2–1.5 s stepped, 0.9–1.0 s in pages of 5,000).
   */
  private deltaReading: {
    filter: string;
    last: unknown[];
    stream: RowStream;
    timer: ReturnType<typeof setTimeout>;
  } | null = null;
  /** one page read at a time: a page read ahead and an ask must not share the stream */
  private deltaTurn: Promise<unknown> = Promise.resolve();

  private readonly deltaPages = readAhead(async (q: DeltaQuery): Promise<CsvPage<DeltaKey, Uint8Array>> => {
    if (this.db.dialect === 'sqlite') {
      const { rows, before } = await this.deltaRows(q);
      return deltaCsv(rows, before);
    }
    const page = this.deltaTurn.then(() => this.streamedDeltaPage(q));
    this.deltaTurn = page.catch(() => undefined);
    return page;
  });

  private async streamedDeltaPage(q: DeltaQuery): Promise<CsvPage<DeltaKey, Uint8Array>> {
    const filter = JSON.stringify([q.watch ?? null, q.item ?? null]);
    const held = this.deltaReading;
    this.deltaReading = null;
    if (held) clearTimeout(held.timer);
    const goesOn = held !== null && held.filter === filter && q.after !== null && isKeyOf(held.last, q.after);
    if (held && !goesOn) await held.stream.close();
    const before = goesOn ? held.last : q.after ? await this.deltaRow(q.after) : undefined;
    const stream = goesOn ? held.stream : this.db.stream(this.deltaQuery(q), DELTA_NUMBERS);
    // each row written as it is read: the page holds its lines' bytes, never its rows
    const page = deltaPageBytes(q.limit);
    const walk = deltaWalk(before, page.row);
    let rows: number;
    try {
      rows = await stream.visit(q.limit, walk.row);
    } catch (e) {
      await stream.close().catch(() => undefined);
      throw e;
    }
    const end = rows > 0 ? walk.last() : undefined;
    if (end && rows >= q.limit) {
      const timer = setTimeout(() => {
        if (this.deltaReading?.stream !== stream) return;
        this.deltaReading = null;
        stream.close().catch(() => undefined);
      }, HOLD_MS);
      timer.unref?.();
      this.deltaReading = { filter, last: end, stream, timer };
    } else await stream.close();
    return { text: page.take(), rows, last: end ? deltaKey(end) : null };
  }

  /** the deltas table's rows after `q.after` (all of them: a page takes what it needs), `[kind, id, metric, at, value, last_at]` */
  private deltaQuery(q: Omit<DeltaQuery, 'limit'>): Sql {
    const conditions: Sql[] = [];
    if (q.after)
      conditions.push(
        sql`(c.kind, c.id, c.metric, c.at) > (${q.after.kind}, ${q.after.id}, ${q.after.metric}, ${q.after.at})`,
      );
    if (q.item) conditions.push(sql`c.kind = ${q.item.kind} AND c.id = ${q.item.id}`);
    if (q.watch !== undefined)
      conditions.push(
        sql`EXISTS (SELECT 1 FROM watch_presence p WHERE p.watch = ${q.watch} AND p.kind = c.kind AND p.id = c.id)`,
      );
    return sql`SELECT c.kind, c.id, c.metric, c.at, c.value, c.last_at FROM watch_counters c ${where(conditions)}
          ORDER BY c.kind, c.id, c.metric, c.at`;
  }

  /** the deltas table's row at `key`, read through the primary key */
  private async deltaRow(key: DeltaKey): Promise<unknown[] | undefined> {
    return (
      await this.db.tuples(
        sql`SELECT kind, id, metric, at, value, last_at FROM watch_counters
            WHERE kind = ${key.kind} AND id = ${key.id} AND metric = ${key.metric} AND at = ${key.at}`,
      )
    )[0];
  }

  /**
   * the deltas table's rows of a page, and the row before its first (the `after` row, read by its key), each as
   * `[kind, id, metric, at, value, last_at]`
   */
  private async deltaRows(q: DeltaQuery): Promise<{ rows: unknown[][]; before: unknown[] | undefined }> {
    const rows = await this.db.tuples(sql`${this.deltaQuery(q)} LIMIT ${q.limit}`);
    return { rows, before: q.after ? await this.deltaRow(q.after) : undefined };
  }

  /* ----------------------------------------------------------- projections */

  /**
   * The targets' posts the project holds since `since` from a read of a timeline: how many, first and last (by the
   * author's id in the raw post). A timeline holds all of an account's posts over its span; posts that came from
   * a conversation, quotes or mentions are the ones where it was most active, and would read as a far higher rate.
   */
  async postingHistory(authors: readonly string[], since: number): Promise<PostingHistory[]> {
    const out: PostingHistory[] = [];
    for (const chunk of chunks(authors))
      for (const r of await this.db.all<{ author: string; posts: unknown; first: unknown; last: unknown }>(
        sql`SELECT a AS author, count(*) AS posts, min(created_at) AS first, max(created_at) AS last FROM (
              SELECT ${rawText(['author', 'id'])} AS a, created_at FROM items
              WHERE kind = 'post' AND created_at >= ${since}${rawReads}
                AND EXISTS (SELECT 1 FROM request_items ri JOIN requests q ON q.rowid = ri.request
                            WHERE ri.item = items.rowid AND q.operation IN ${tuple(TIMELINES)})) x
            WHERE a IN ${tuple(chunk)} GROUP BY a`,
      ))
        out.push({ author: r.author, posts: Number(r.posts), first: Number(r.first), last: Number(r.last) });
    return out;
  }

  /** the accounts the project holds: their post count and creation time (a lifetime rate when nothing recent is held) */
  async accountFacts(ids: readonly string[]): Promise<AccountFacts[]> {
    const out: AccountFacts[] = [];
    for (const chunk of chunks(ids))
      for (const r of await this.db.all<{ id: string; n: unknown; created_at: unknown }>(
        sql`SELECT id, ${statusesCountAt([])} AS n, created_at FROM items
            WHERE kind = 'user'${rawReads} AND id IN ${tuple(chunk)}`,
      ))
        out.push({ id: r.id, statusesCount: numOrNull(r.n), createdAt: numOrNull(r.created_at) });
    // an account seen only as the author of posts (a conversation read reply by reply): the newest post's copy
    const held = new Set(out.map((f) => f.id));
    const authorId = rawText(['author', 'id']);
    for (const chunk of chunks(ids.filter((id) => !held.has(id))))
      for (const r of await this.db.all<{ id: string; n: unknown; created: unknown }>(
        sql`SELECT a AS id, n, created FROM (
              SELECT ${authorId} AS a, ${statusesCountAt(['author'])} AS n, ${rawText(['author', 'createdAt'])} AS created,
                row_number() OVER (PARTITION BY ${authorId} ORDER BY last_seen DESC, rowid DESC) AS k
              FROM items WHERE kind = 'post'${rawReads} AND ${authorId} IN ${tuple(chunk)}) x
            WHERE k = 1`,
      ))
        out.push({
          id: r.id,
          statusesCount: numOrNull(r.n),
          createdAt: typeof r.created === 'string' ? parseApiDate(r.created) : null,
        });
    return out;
  }

  /** the most items one answer of this operation has held (the live service's pages vary: a cap's estimate) */
  async largestPage(operation: string): Promise<number> {
    const r = await this.db.get<{ n: unknown }>(
      sql`SELECT max(item_count) AS n FROM requests WHERE operation = ${operation}`,
    );
    return Number(r?.n ?? 0);
  }

  /* ---------------------------------------------------------------- runner */

  async runner(): Promise<RunnerRecord | null> {
    const r = await this.db.get(sql`SELECT * FROM watch_runner WHERE one = 1`);
    return r ? runnerOf(r) : null;
  }

  /**
   * Takes the project for a runner, if it is still held by `expected` (null: by nobody) and no live Skein holds
   * the runner's session lock: compare and set in one transaction, the row locked, so two runners deciding at
   * once cannot both win. The runner it replaces (stale) is kept as the last one, for the gap it left.
   */
  async takeRunner(next: RunnerRecord, expected: string | null): Promise<boolean> {
    if (!(await this.holdLock())) return false;
    const taken = await this.db.transaction(async (tx) => {
      const row = await tx.get(sql`SELECT * FROM watch_runner WHERE one = 1${forUpdate}`);
      const current = row ? runnerOf(row) : null;
      if ((current?.token ?? null) !== expected) return false;
      if (current)
        await setLast(tx, {
          who: current.who,
          host: current.host,
          pid: current.pid,
          at: current.heartbeat,
          clean: false,
        });
      await tx.run(
        sql`INSERT INTO watch_runner (one, token, who, host, pid, since, heartbeat)
            VALUES (1, ${next.token}, ${next.who}, ${next.host}, ${next.pid}, ${next.since}, ${next.heartbeat})
            ON CONFLICT (one) DO UPDATE SET token = excluded.token, who = excluded.who, host = excluded.host,
              pid = excluded.pid, since = excluded.since, heartbeat = excluded.heartbeat`,
      );
      return true;
    }, WATCH_LOCK);
    if (taken) this.holding = next.token;
    else await this.letGoUnlessHolding();
    return taken;
  }

  /** the holder's sign of life; false when it is not the holder any more (or another Skein holds the lock) */
  async heartbeat(token: string, now: number): Promise<boolean> {
    if (!(await this.holdLock())) return false;
    const changed = await this.db.run(
      sql`UPDATE watch_runner SET heartbeat = ${now} WHERE one = 1 AND token = ${token}`,
    );
    if (changed === 1) return true;
    if (token === this.holding) this.holding = null;
    await this.letGoUnlessHolding();
    return false;
  }

  async releaseRunner(token: string, now: number): Promise<void> {
    await this.db.transaction(async (tx) => {
      const row = await tx.get(sql`SELECT * FROM watch_runner WHERE one = 1${forUpdate}`);
      const current = row ? runnerOf(row) : null;
      if (!current || current.token !== token) return;
      await setLast(tx, { who: current.who, host: current.host, pid: current.pid, at: now, clean: true });
      await tx.run(sql`DELETE FROM watch_runner WHERE one = 1 AND token = ${token}`);
    }, WATCH_LOCK);
    if (token === this.holding) this.holding = null;
    await this.letGoUnlessHolding();
  }

  async lastRunner(): Promise<RunnerLast | null> {
    const r = await this.db.get<{ value: string }>(sql`SELECT value FROM meta WHERE key = ${LAST_RUNNER}`);
    if (!r) return null;
    try {
      return JSON.parse(r.value) as RunnerLast;
    } catch {
      return null;
    }
  }

  /** the runner's session lock, taken now if need be: false while another live Skein holds it */
  private async holdLock(): Promise<boolean> {
    const held = await this.lock.hold();
    if (!held) this.holding = null; // another Skein holds it: whatever this one held, it holds no more
    return held;
  }

  private async letGoUnlessHolding(): Promise<void> {
    if (this.holding === null) await this.lock.release();
  }
}

async function setLast(tx: Db, last: RunnerLast): Promise<void> {
  await tx.run(
    sql`INSERT INTO meta (key, value) VALUES (${LAST_RUNNER}, ${JSON.stringify(last)})
        ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
  );
}

/** What a run saw, missed and asked for again: the rows of the items it touched read, settled, written back. */
async function settleRunPresence(tx: Db, watch: number, run: number, o: RunOutcome): Promise<void> {
  const items = [...o.seen, ...o.missing, ...o.rechecked];
  if (items.length === 0) return;
  const held: PresenceRecord[] = [];
  for (const chunk of chunks(items))
    for (const row of await tx.all(
      sql`SELECT * FROM watch_presence
          WHERE watch = ${watch} AND (kind, id) IN (VALUES ${sql.rows(chunk, ['kind', 'id'])})`,
    ))
      held.push(presenceOf(row));
  const columns = sql.raw(PRESENCE_COLUMNS.join(', '));
  for (const rows of chunks(settlePresence(held, watch, run, o)))
    await tx.run(
      sql`INSERT INTO watch_presence (${columns})
          VALUES ${sql.rows(rows, PRESENCE_FIELDS)}
          ON CONFLICT (watch, kind, id) DO UPDATE SET target = excluded.target, created_at = excluded.created_at,
            last_seen = excluded.last_seen, first_missing_at = excluded.first_missing_at, rechecks = excluded.rechecks,
            status = excluded.status, reason = excluded.reason, status_at = excluded.status_at,
            next_check = excluded.next_check`,
    );
}

/**
 * A run's counter readings, a chunk at a time: the newest row of each counter it reads, the readings settled,
 * the rows written back before the next chunk's newest rows are read (so a counter read again later in the run
 * finds the row its earlier reading left). Nothing of one chunk outlives it.
 */
async function settleRunCounters(tx: Db, run: number, readings: RunOutcome['counters']): Promise<void> {
  for (const chunk of chunks(readings)) {
    const newest = (
      await tx.all<Row>(
        sql`SELECT w.kind, w.id, w.metric, w.at, w.value, w.last_at, w.run
            FROM (VALUES ${sql.rows(chunk, ['kind', 'id', 'metric'])}) k
            JOIN watch_counters w ON w.kind = k.column1 AND w.id = k.column2 AND w.metric = k.column3
              AND w.at = (SELECT max(at) FROM watch_counters x
                          WHERE x.kind = k.column1 AND x.id = k.column2 AND x.metric = k.column3)`,
      )
    ).map((row) => ({ ...counterOf(row), run: numOrNull(row.run) }));
    const rows = settleCounters(newest, chunk, run);
    if (rows.length > 0)
      await tx.run(
        sql`INSERT INTO watch_counters (kind, id, metric, at, value, last_at, run)
            VALUES ${sql.rows(rows, ['kind', 'id', 'metric', 'at', 'value', 'lastAt', 'run'])}
            ON CONFLICT (kind, id, metric, at) DO UPDATE SET value = excluded.value, last_at = excluded.last_at,
              run = excluded.run`,
      );
  }
}

/** which of the deltas table's columns are numbers: at, value, last_at */
const DELTA_NUMBERS = [false, false, false, true, true, true];

/** a page of the deltas table's rows as CSV lines, `before` the row before its first (absent: none) */
function deltaCsv(rows: unknown[][], before: unknown[] | undefined): CsvPage<DeltaKey, Uint8Array> {
  const page = deltaPageBytes(rows.length);
  eachDelta(rows, before, page.row);
  const end = rows.at(-1);
  return { text: page.take(), rows: rows.length, last: end ? deltaKey(end) : null };
}

/** the key of a deltas table's row (`[kind, id, metric, at, …]`) */
const deltaKey = (row: readonly unknown[]): DeltaKey => ({
  kind: String(row[0]),
  id: String(row[1]),
  metric: String(row[2]),
  at: Number(row[3]),
});

/** whether `row` (`[kind, id, metric, at, …]`) is the row of `key` */
function isKeyOf(row: unknown[], key: DeltaKey): boolean {
  return (
    String(row[0]) === key.kind &&
    String(row[1]) === key.id &&
    String(row[2]) === key.metric &&
    Number(row[3]) === key.at
  );
}

/**
 * The deltas rule, once for the records and the CSV lines: rows come ordered by item, metric and time, so the value
 * before each one is the row before it when that row is the same item's same metric (for a page's first row, the
 * `after` row). Fields go to `visit` one by one, and nothing of a row is kept but its fields, so a page of thousands
 * makes no object per row on the way; `last` is the last row's `[kind, id, metric, at, value, last_at]`.
 */
function deltaWalk(
  before: readonly unknown[] | undefined,
  visit: DeltaFields<void>,
): { row: (r: readonly unknown[]) => void; last: () => unknown[] } {
  let kind = before ? String(before[0]) : '';
  let id = before ? String(before[1]) : '';
  let metric = before ? String(before[2]) : '';
  let at = before ? Number(before[3]) : 0;
  let value = before ? Number(before[4]) : 0;
  let lastAt = before ? Number(before[5]) : 0;
  let held = before !== undefined;
  return {
    row: (r) => {
      const k = String(r[0]);
      const i = String(r[1]);
      const m = String(r[2]);
      const same = held && k === kind && i === id && m === metric;
      const v = Number(r[4]);
      at = Number(r[3]);
      visit(k, i, m, at, v, same ? value : null, same ? lastAt : null);
      held = true;
      kind = k;
      id = i;
      metric = m;
      value = v;
      lastAt = Number(r[5]);
    },
    last: () => [kind, id, metric, at, value, lastAt],
  };
}

function eachDelta(rows: unknown[][], before: unknown[] | undefined, visit: DeltaFields<void>): void {
  const walk = deltaWalk(before, visit);
  for (const r of rows) walk.row(r);
}
