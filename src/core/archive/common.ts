/**
 * The archive's own tables as both stores read and write them, written once over the project's executor: the
 * project's fields and summary, collections, an item's provenance, held answers, items held, an account as the
 * project knows it, a query's groups (and a sample drawn from them), its activity and its sources, and a copy's count and pages of a table.
 * What each store keeps for itself: its full-text index (the one condition it hands in, `TextMatch`), search's
 * ranking, readers that stream, ingest, migrations and a copy's loading.
 */
import type {
  ActivityBucket,
  ArchiveActivity,
  ArchiveCollection,
  ArchiveProvenance,
  ArchiveQueryParsed,
  ResearcherActivity,
} from '../../shared/ipc/archive';
import { ArchiveQuery } from '../../shared/ipc/archive';
import { isObject } from '../../shared/api/normalize/values';
import { SkeinError } from '../../shared/errors';
import { codePoint, heldTransaction, sampleRankSql, sql, type AnyPart, type Db, type SideQuery, type Sql } from '../db';
import { openParts, tablesOf, type OpenParts } from './parts';
import { rebuildBody } from './answer';
import { heldConversation, type HeldListing } from './conversation';
import { FLAG } from './derive';
import { activityFromCounts, countsServe, dayCounts, wholeKind } from './counts';
import { activityOf, activityWindow } from './results';
import {
  type Awaitable,
  type CollectionInput,
  type DamagedItems,
  type GroupCounts,
  type GroupedReader,
  type Quota,
  type RankedRow,
  type Grouping,
  type HeldAnswer,
  type HeldItem,
  type KeptItems,
  type HeldKey,
  type Loader,
  type ProjectSummary,
  type RawRow,
  type Reader,
  type RowReader,
  type Snapshot,
  type SourceRequest,
  type TableName,
  type TableRow,
  type TableSpec,
} from './store';

/** A store's condition over `items i` for a query's text in the search language (null: nothing to match). */
export type TextMatch = (text: string) => Sql | null;

/** ids per statement where SQLite binds each one (PostgreSQL binds the list as one array) */
const HELD_CHUNK = 500;

/** collection items per statement (a chunk an export hands over is one): five bound values each, within limits */
const APPEND_CHUNK = 1_000;

const FLAGS = [
  ['media', FLAG.media],
  ['reply', FLAG.reply],
  ['quote', FLAG.quote],
  ['retweet', FLAG.retweet],
] as const;

/** `s` in lower case on PostgreSQL, which indexes `lower(author_handle)`; as it is on SQLite, whose column is NOCASE */
const caseless = (s: Sql): Sql =>
  sql`${sql.of({ sqlite: '', postgres: 'lower(' })}${s}${sql.of({ sqlite: '', postgres: ')' })}`;

/** A handle compared without case, each store by its own index. */
const sameHandle = (column: string, handle: string): Sql =>
  sql`${caseless(sql.raw(column))} = ${caseless(sql`${handle}`)}`;

/** The WHERE clause of a query over `items i`, its words matched by `match` (null: words left out). */
export function whereOf(q: ArchiveQueryParsed, match: Sql | null): Sql {
  const parts = [sql`i.kind = ${q.kind}`];
  if (match !== null) parts.push(match);
  if (q.from !== undefined) parts.push(sql`i.created_at >= ${q.from}`);
  if (q.to !== undefined) parts.push(sql`i.created_at < ${q.to}`);
  if (q.author) parts.push(sameHandle('i.author_handle', q.author.replace(/^@/, '')));
  if (q.lang) parts.push(sql`i.lang = ${q.lang}`);
  if (q.collection !== undefined)
    parts.push(sql`i.rowid IN (SELECT item FROM collection_items WHERE collection = ${q.collection})`);
  for (const [name, bit] of FLAGS) {
    const want = q[name];
    if (want === undefined) continue;
    parts.push(sql.raw(want ? `(i.flags & ${bit}) <> 0` : `(i.flags & ${bit}) = 0`));
  }
  return sql.join(parts, ' AND ');
}

/** A date of an item's creation in UTC, as text of this form (strftime's and to_char's). */
const utc = (sqlite: string, postgres: string): Sql =>
  sql.of({
    sqlite: `strftime('${sqlite}', i.created_at / 1000, 'unixepoch')`,
    postgres: `to_char(to_timestamp(i.created_at / 1000) AT TIME ZONE 'UTC', '${postgres}')`,
  });

/**
 * A grouping's value as SQL over `items i` (null when the item has none): days, weeks and months in UTC. An
 * author's handle gets its `@` once read (`groupOf`), so a handle kept escaped on PostgreSQL reads back whole.
 */
const GROUP_SQL: Record<Grouping, Sql> = {
  day: utc('%Y-%m-%d', 'YYYY-MM-DD'),
  // the Monday on or before the day
  week: sql.of({
    sqlite: "'week of ' || date(i.created_at / 1000, 'unixepoch', '-6 days', 'weekday 1')",
    postgres:
      "'week of ' || to_char(date_trunc('week', to_timestamp(i.created_at / 1000) AT TIME ZONE 'UTC'), 'YYYY-MM-DD')",
  }),
  month: utc('%Y-%m', 'YYYY-MM'),
  author: sql`i.author_handle`,
  lang: sql`i.lang`,
  type: sql.raw(`CASE WHEN (i.flags & ${FLAG.retweet}) <> 0 THEN 'repost' WHEN (i.flags & ${FLAG.quote}) <> 0 THEN 'quote'
    WHEN (i.flags & ${FLAG.reply}) <> 0 THEN 'reply' ELSE 'original' END`),
};

const NONE = '(none)';

/** A group's value as SQL: the grouping's, '(none)' where the item has none (null: not grouped). */
const groupSql = (by: Grouping | null): Sql =>
  by === null
    ? sql.of({ sqlite: 'NULL', postgres: 'NULL::text' })
    : sql`coalesce(${GROUP_SQL[by]}, ${sql.raw(`'${NONE}'`)})`;

/**
 * Days counted by a whole number instead of their formatted date (which cost counting half its time), named once
 * per day: `key` is the day since 1970 wherever that and the date are the same day (an integer time after
 * -1000 ms: the date truncates the time to seconds), else null, and the item is counted by its date as before.
 */
const DAY_KEY = {
  key: sql.of({
    sqlite: "CASE WHEN typeof(i.created_at) = 'integer' AND i.created_at > -1000 THEN i.created_at / 86400000 END",
    postgres: 'CASE WHEN i.created_at > -1000 THEN i.created_at / 86400000 END',
  }),
  date: sql.of({
    sqlite: "strftime('%Y-%m-%d', g.k * 86400, 'unixepoch')",
    postgres: "to_char(to_timestamp(g.k * 86400) AT TIME ZONE 'UTC', 'YYYY-MM-DD')",
  }),
};

/** A group's value as read back: an author's handle with its `@`. */
const groupOf = (by: Grouping | null, v: string | null): string | null =>
  by === 'author' && v !== null && v !== NONE ? `@${v}` : v;

/** A group's value as `groupSql` gives it: what `groupOf` read back, its `@` taken off again. */
const groupAsSql = (by: Grouping, v: string): string => (by === 'author' && v !== NONE ? v.slice(1) : v);

/** groups' quotas per statement of a draw: two bound values each, within both stores' limits */
const QUOTA_CHUNK = 5_000;

/** A drawn item as a draw's statement reads it: its group's value as stored, its rank (null: not ranked). */
type RankedSqlRow = { id: string; grp: string | null; rk: string | null };

/**
 * Each group's quota of the lowest-ranked among `rows` (the lowest of each half of the items), ties broken by id
 * in code point order (UTF-8's byte order) as the draw's SQL breaks them; an item without a rank is kept.
 */
function lowestOfEach(rows: readonly RankedRow[], by: Grouping | null, quotas: ReadonlyArray<Quota>): RankedRow[] {
  const left = new Map(quotas.map(([value, quota]) => [value, quota]));
  const order = (a: RankedRow, b: RankedRow) =>
    a.rank! < b.rank! ? -1 : a.rank! > b.rank! ? 1 : Buffer.compare(Buffer.from(a.id), Buffer.from(b.id));
  return [
    ...rows.filter((r) => r.rank === null),
    ...rows
      .filter((r) => r.rank !== null)
      .sort(order)
      .filter((r) => {
        const key = by === null ? '' : (r.group ?? '');
        const n = left.get(key) ?? 0;
        left.set(key, n - 1);
        return n > 0;
      }),
  ];
}

/** The request that last returned item `i` (the newest answer holding it: its raw JSON is that answer's). */
const LATEST_REQUEST = sql`(SELECT r.request FROM request_items r JOIN requests rq ON rq.rowid = r.request
  WHERE r.item = i.rowid ORDER BY rq.at DESC, r.request DESC LIMIT 1)`;

/**
 * Item `i`'s kept JSON reads as an object: every item Skein keeps does, one damaged in the project (or written by
 * hand) may not. SQLite checks in C (json_type would fail on malformed text, so it is asked only of valid text).
 * PostgreSQL's own JSON parser refuses what JavaScript reads (half a surrogate pair, escaped), and its version 15
 * has no test that does not throw, so there the text is only checked to be braced as an object is: cut text and
 * JSON of another kind are told apart, damage inside the braces is not (where an item is taken as held, `keptItems`
 * parses its text too; a view lists such an item where it falls, as one that does not read).
 */
const READABLE = sql.of({
  sqlite: "(CASE WHEN json_valid(i.raw) THEN json_type(i.raw) = 'object' ELSE 0 END)",
  postgres: "(left(i.raw, 1) = '{' AND right(i.raw, 1) = '}')",
});

/** whether a kept JSON text reads as an object (what READABLE tests on SQLite) */
function readsAsObject(raw: string): boolean {
  try {
    return isObject(JSON.parse(raw));
  } catch {
    return false;
  }
}

/** The requests `rowid` of the request that last returned each of a query's items. */
function latestRequests(q: ArchiveQueryParsed, where: Sql): Sql {
  return q.collection !== undefined
    ? sql`SELECT ${LATEST_REQUEST} AS request FROM collection_items x JOIN items i ON i.rowid = x.item
          WHERE x.collection = ${q.collection} AND ${where}`
    : sql`SELECT ${LATEST_REQUEST} AS request FROM items i WHERE ${where}`;
}

/** The request a held answer was written for (PostgreSQL finds its long params and cursors by their md5). */
function requestIs(db: Db, k: { operation: string; params: string; cursor: string | null }): Sql {
  if (db.dialect === 'sqlite')
    return sql`operation = ${k.operation} AND params = ${k.params} AND cursor IS ${k.cursor}`;
  return sql`operation = ${k.operation} AND md5(params) = md5(${k.params}) AND params = ${k.params}
    AND md5(coalesce(cursor, '')) = md5(coalesce(CAST(${k.cursor} AS text), ''))
    AND cursor IS NOT DISTINCT FROM CAST(${k.cursor} AS text)`;
}

/** How many rows a table holds (a copy's check that it carried them all). */
async function tableCount(db: Db, table: TableName): Promise<number> {
  return Number((await db.get<{ n: number }>(sql`SELECT count(*) AS n FROM ${sql.raw(table)}`))?.n ?? 0);
}

/** A table's rows after `after` (the previous page's last key; null: from the start), in key order. */
function tableRows(db: Db, table: TableSpec, after: TableRow | null, limit: number): Promise<TableRow[]> {
  const key = sql.raw(table.key.join(', '));
  const from = after === null ? sql`1 = 1` : sql`(${key}) > (${sql.join(table.key.map((k) => after[k] ?? null))})`;
  return db.all<TableRow>(
    sql`SELECT ${sql.raw(table.columns.join(', '))} FROM ${sql.raw(table.name)} WHERE ${from} ORDER BY ${key} LIMIT ${limit}`,
  );
}

/** A copy's rows of `table` (a project's fields replace those a new project was made with). */
export async function insertRows(db: Db, table: TableSpec, rows: readonly TableRow[]): Promise<void> {
  await db.run(
    sql`INSERT INTO ${sql.raw(table.name)} (${sql.raw(table.columns.join(', '))})
        VALUES ${sql.rows(rows.map((row) => table.columns.map((c) => row[c] ?? null)))}${sql.raw(
          table.name === 'meta' ? ' ON CONFLICT (key) DO UPDATE SET value = excluded.value' : '',
        )}`,
  );
}

/**
 * Refuses a copy into a project that holds anything in a table a copy carries but its own fields (`where`: the
 * project, for the message; `action`: where to copy instead).
 */
async function refuseUnlessEmpty(db: Db, tables: readonly TableSpec[], where: string, action: string): Promise<void> {
  const counts = tables.filter((t) => t.name !== 'meta').map((t) => sql`(SELECT count(*) FROM ${sql.raw(t.name)})`);
  const held = await db.get<{ n: number }>(sql`SELECT ${sql.join(counts, ' + ')} AS n`);
  if (Number(held?.n ?? 0) > 0)
    throw new SkeinError(
      'write-failed',
      `${where} already holds items, codes or watches: a project is copied only into an empty one.`,
      { action },
    );
}

/** The lock class of a project's writers: a batch of answers, a copy into it (one PostgreSQL advisory lock). */
export const PROJECT_LOCK = 0x736b6e; // "skn"

/** A snapshot read on `on`, a connection of its own in one read transaction that `end` ends (once). */
export function snapshotOn(on: Db, end: () => Awaitable<void>): Snapshot {
  let open = true;
  return {
    count: (table) => tableCount(on, table),
    rows: (table, after, limit) => tableRows(on, table, after, limit),
    close: async () => {
      if (!open) return;
      open = false;
      await end();
    },
  };
}

interface SearchManifest {
  search?: unknown;
  refreshed?: Array<{ at: number; added: number }>;
}

/** a collection's manifest as kept (null: none, or text that is not an object) */
function manifestOf(text: string | null): SearchManifest | null {
  try {
    const v: unknown = JSON.parse(text ?? 'null');
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? v : null;
  } catch {
    return null;
  }
}

/** The archive's tables on one project's executor: the `ProjectStore` methods both stores share, each store's base. */
export abstract class ArchiveTables {
  /** where the project is, for messages */
  abstract readonly location: string;
  /** the tables a copy carries, the parts' among them */
  readonly tables: readonly TableSpec[];
  /** the parts it hosts, opened (`openParts`): their methods by part name */
  parts: OpenParts = new Map();
  /** answers that could not be kept (rolled back alone) */
  skipped = 0;
  /** why the project may not be written to (a role with read rights only); null while it may */
  readOnly: string | null = null;
  /** where to copy instead of into a project that holds something already */
  protected abstract readonly copyElsewhere: string;
  /** a reader of the same project on another thread, which a draw gives half its items to (a project file's) */
  protected side: SideQuery | null = null;

  /**
   * A query's rows a chunk at a time. `apart`: in a snapshot of their own while answers go on being written (a
   * re-export's long read); else on the store's own connection, its page cache warm (a sample's quick draw).
   */
  protected abstract cursor<R>(q: Sql, apart?: boolean): Awaitable<Reader<R>>;

  /** A copy's rows of `table` written in the copy's transaction `tx` (each store indexes items' text its own way). */
  protected abstract load(tx: Db, table: TableSpec, rows: readonly TableRow[]): Promise<void>;

  constructor(
    protected readonly executor: Db,
    /** the store's full-text condition */
    private readonly textMatch: TextMatch,
    private readonly clock: () => number,
    /** the name recorded with what this Skein writes */
    private readonly writer: string | null,
    private readonly hosted: readonly AnyPart[],
  ) {
    this.tables = tablesOf(hosted);
  }

  abstract close(): Awaitable<void>;

  /**
   * Migrates and opens the parts it hosts (`from`: the project's schema version before it was migrated); the
   * project is closed when one is refused.
   */
  protected async openParts(from: number): Promise<void> {
    try {
      this.parts = await openParts(this.executor, this.hosted, from, this.location, this.clock);
    } catch (e) {
      await this.close();
      throw e;
    }
  }

  /** a query's WHERE clause over `items i` */
  private where(q: ArchiveQueryParsed): Sql {
    return whereOf(q, this.textMatch(q.text));
  }

  /**
   * A query's raw items as a re-export reads them, a chunk at a time from a snapshot of its own: a collection in
   * its order, with each item's thread position; else by time, items without one first.
   */
  reader(q: ArchiveQueryParsed): Awaitable<RowReader> {
    const columns = sql`i.id AS id, i.raw AS raw, i.first_seen AS "firstSeen", i.last_seen AS "lastSeen",
      ${LATEST_REQUEST} AS request`;
    return this.cursor<RawRow>(
      q.collection !== undefined
        ? sql`SELECT ${columns}, x.place AS place FROM collection_items x JOIN items i ON i.rowid = x.item
              WHERE x.collection = ${q.collection} AND ${this.where(q)} AND ${READABLE} ORDER BY x.position`
        : sql`SELECT ${columns}, ${sql.of({ sqlite: 'NULL', postgres: 'NULL::text' })} AS place FROM items i
              WHERE ${this.where(q)} AND ${READABLE}
              ORDER BY i.created_at${sql.of({ sqlite: '', postgres: ' NULLS FIRST' })}, i.rowid`,
    );
  }

  async damaged(q: ArchiveQueryParsed, listed: number): Promise<DamagedItems> {
    const from =
      q.collection !== undefined
        ? sql`FROM collection_items x JOIN items i ON i.rowid = x.item WHERE x.collection = ${q.collection} AND`
        : sql`FROM items i WHERE`;
    const rows = await this.executor.all<{ id: string; n: unknown }>(
      sql`SELECT i.id AS id, count(*) OVER () AS n ${from} ${this.where(q)} AND NOT ${READABLE} ORDER BY i.rowid
          LIMIT ${listed}`,
    );
    return { count: Number(rows[0]?.n ?? 0), ids: rows.map((r) => r.id) };
  }

  /** A query's item ids with their group's value (null: no grouping), read a chunk at a time. */
  async grouped(q: ArchiveQueryParsed, by: Grouping | null): Promise<GroupedReader> {
    const rows = await this.cursor<{ id: string; grp: string | null }>(
      sql`SELECT i.id AS id, ${groupSql(by)} AS grp FROM items i WHERE ${this.where(q)}${sql.of({
        sqlite: '',
        postgres: ' ORDER BY i.rowid',
      })}`,
      false,
    );
    return {
      next: async (max) => (await rows.next(max)).map((r) => ({ id: r.id, group: groupOf(by, r.grp) })),
      close: rows.close,
    };
  }

  /**
   * A sample's draw, in SQL: every item ranked in the store (db/rank.ts), the lowest of each group kept by a
   * window, so only the drawn items leave it (reading all of them out to rank them cost 8 times DuckDB's draw).
   * Only items ranked within a group's bound reach the window, so it sorts about the sample, not the source.
   * With a side reader (a project file's, on a thread of its own) the items up to the middle rowid are ranked
   * there while this thread ranks the rest: the ranks are most of a draw's work, and each half's lowest hold the
   * whole's lowest.
   */
  async lowestRanked(
    q: ArchiveQueryParsed,
    by: Grouping | null,
    prefix: string,
    quotas: ReadonlyArray<Quota>,
  ): Promise<RankedRow[]> {
    const here = (query: Sql) => this.executor.all<RankedSqlRow>(query);
    const side = this.side;
    if (side === null) return (await this.lowestOf(q, by, prefix, quotas, null, here))!;
    const bounds = await this.executor.get<{ m: number | null }>(
      sql`SELECT (min(rowid) + max(rowid)) / 2 AS m FROM items`,
    );
    const middle = bounds?.m ?? null;
    if (middle === null) return [];
    // the side's half asked first, so both run at once; the unary plus keeps the rowid off the index's choice
    const lower = sql`+i.rowid <= ${middle}`;
    const there = this.lowestOf(q, by, prefix, quotas, lower, (query) => side.all<RankedSqlRow>(query)).catch(
      () => null,
    );
    const mine = (await this.lowestOf(q, by, prefix, quotas, sql`+i.rowid > ${middle}`, here))!;
    // a side reader not started yet (or stopped) leaves its half to this thread
    const theirs = (await there) ?? (await this.lowestOf(q, by, prefix, quotas, lower, here))!;
    return lowestOfEach([...theirs, ...mine], by, quotas);
  }

  /**
   * The draw over the items `part` keeps (null: all of them), its statements run by `fetch`; null when `fetch`
   * could not run one.
   */
  private async lowestOf(
    q: ArchiveQueryParsed,
    by: Grouping | null,
    prefix: string,
    quotas: ReadonlyArray<Quota>,
    part: Sql | null,
    fetch: (query: Sql) => Promise<RankedSqlRow[] | null>,
  ): Promise<RankedRow[] | null> {
    const source = sql`SELECT i.id AS id, ${groupSql(by)} AS grp,
      ${sampleRankSql(this.executor.dialect, prefix, sql`i.id`)} AS rk FROM items i WHERE ${part === null ? this.where(q) : sql`${this.where(q)} AND ${part}`}`;
    // ties (a 64-bit rank) broken by id, so either store keeps the same
    const order = sql`ORDER BY s.rk${codePoint}, s.id${codePoint}`;
    // what PostgreSQL could not rank passes every bound, and is sent besides the quota
    const unranked = (rank: string) => sql.of({ sqlite: '', postgres: ` OR ${rank} IS NULL` });
    const read = async (query: Sql): Promise<RankedRow[] | null> =>
      (await fetch(query))?.map((r) => ({ id: r.id, group: groupOf(by, r.grp), rank: r.rk })) ?? null;
    if (by === null) {
      const [, size, bound] = quotas[0] ?? ['', 0, null];
      if (size === 0) return [];
      const within = bound === null ? sql`1 = 1` : sql`(s.rk <= ${bound}${codePoint}${unranked('s.rk')})`;
      return read(sql`SELECT r.id AS id, r.grp AS grp, r.rk AS rk FROM (
          SELECT s.id AS id, s.grp AS grp, s.rk AS rk, row_number() OVER (${order}) AS rn FROM (${source}) s
          WHERE ${within}) r
        WHERE r.rn <= ${size}${unranked('r.rk')}`);
    }
    const wanted = quotas
      .filter(([, quota]) => quota > 0)
      .map(([value, quota, bound]): [string, number, string | null] => [groupAsSql(by, value), quota, bound]);
    const out: RankedRow[] = [];
    for (let at = 0; at < wanted.length; at += QUOTA_CHUNK) {
      const chunk = wanted.slice(at, at + QUOTA_CHUNK);
      // the largest bound, tested on the rank alone before the group is worked out and joined to its quota: most
      // items fail it, and the group's value (a date formatted per item) cost more than the rank itself. The few
      // within it are set aside with their ranks, which SQLite would otherwise compute again at each mention.
      const bounds = chunk.map(([, , bound]) => bound);
      const widest = bounds.includes(null) ? null : bounds.reduce<string>((m, b) => (b! > m ? b! : m), '');
      const within =
        widest === null
          ? sql`s AS (${source})`
          : sql`s AS MATERIALIZED (SELECT w.id AS id, w.grp AS grp, w.rk AS rk FROM (${source}) w
              WHERE w.rk <= ${widest}${codePoint}${unranked('w.rk')})`;
      const rows = await read(sql`WITH quota(value, n, bound) AS (VALUES ${sql.rows(chunk)}), ${within}
          SELECT r.id AS id, r.grp AS grp, r.rk AS rk FROM (
            SELECT s.id AS id, s.grp AS grp, s.rk AS rk, row_number() OVER (PARTITION BY s.grp ${order}) AS rn
            FROM s JOIN quota q ON q.value = s.grp
            WHERE q.bound IS NULL OR s.rk <= q.bound${codePoint}${unranked('s.rk')}) r
          JOIN quota q ON q.value = r.grp
          WHERE r.rn <= CAST(q.n AS INTEGER)${unranked('r.rk')}`);
      if (rows === null) return null;
      out.push(...rows);
    }
    return out;
  }

  /**
   * A copy into this project, which must hold nothing yet, in one transaction (under the project's lock, where
   * other Skeins write too) kept open until the copy is committed or rolled back.
   */
  async loader(): Promise<Loader> {
    const { tx, end } = await heldTransaction(this.executor, PROJECT_LOCK);
    try {
      await refuseUnlessEmpty(tx, this.tables, this.location, this.copyElsewhere);
    } catch (e) {
      await end(false).catch(() => undefined);
      throw e;
    }
    return {
      add: (table, rows) => (rows.length === 0 ? undefined : this.load(tx, table, rows)),
      count: (table) => tableCount(tx, table),
      commit: async () => {
        if (tx.dialect === 'postgres')
          // the next row a Skein adds is numbered after the copied ones
          for (const table of this.tables) {
            const [column] = table.key;
            if (table.key.length !== 1 || (column !== 'rowid' && column !== 'id')) continue;
            await tx.get(
              sql.raw(
                `SELECT setval(pg_get_serial_sequence('${table.name}', '${column}'), coalesce(max(${column}), 0) + 1, false) FROM ${table.name}`,
              ),
            );
          }
        await end(true);
      },
      rollback: () => end(false),
    };
  }

  async summary(): Promise<ProjectSummary> {
    const [meta, counts, researchers] = await Promise.all([
      this.executor.all<{ key: string; value: string }>(sql`SELECT key, value FROM meta`),
      this.executor.get<{ items: number; requests: number }>(
        sql`SELECT (SELECT count(*) FROM items) AS items, (SELECT count(*) FROM requests) AS requests`,
      ),
      this.executor.all<ResearcherActivity>(
        sql`SELECT researcher AS name, count(*) AS answers, max(at) AS "lastAt" FROM requests
            GROUP BY researcher ORDER BY "lastAt" DESC LIMIT 50`,
      ),
    ]);
    const m = new Map(meta.map((r) => [r.key, r.value]));
    return {
      name: m.get('name') ?? 'Project',
      kind: m.get('kind') === 'demo' ? 'demo' : 'live',
      items: counts?.items ?? 0,
      requests: counts?.requests ?? 0,
      researchers,
      readOnly: this.readOnly,
    };
  }

  rename(name: string): Promise<void> {
    return this.setMeta('name', name);
  }

  async meta(key: string): Promise<string | null> {
    return (await this.executor.get<{ value: string }>(sql`SELECT value FROM meta WHERE key = ${key}`))?.value ?? null;
  }

  async setMeta(key: string, value: string): Promise<void> {
    await this.executor.run(
      sql`INSERT INTO meta (key, value) VALUES (${key}, ${value}) ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
    );
  }

  async createCollection(c: { name: string; kind: string; manifest: unknown }): Promise<number> {
    const row = await this.executor.get<{ rowid: number }>(
      sql`INSERT INTO collections (name, kind, created_at, manifest, researcher)
          VALUES (${c.name}, ${c.kind}, ${this.clock()}, ${JSON.stringify(c.manifest ?? null)}, ${this.writer})
          RETURNING rowid`,
    );
    return Number(row?.rowid ?? 0);
  }

  /** Items of a collection in order from `start`, all or none; one the project does not hold is left out. */
  async appendCollection(id: number, start: number, items: CollectionInput['items']): Promise<number> {
    const statements: Sql[] = [];
    for (let at = 0; at < items.length; at += APPEND_CHUNK) {
      const rows = items
        .slice(at, at + APPEND_CHUNK)
        .map(
          (it, i) =>
            sql`(${it.kind}, ${it.id}, CAST(${start + at + i} AS INTEGER), CAST(${it.depth} AS INTEGER), CAST(${it.place ?? null} AS TEXT))`,
        );
      statements.push(
        sql`WITH x (kind, id, position, depth, place) AS (VALUES ${sql.join(rows)})
            INSERT INTO collection_items (collection, position, item, depth, place)
            SELECT ${id}, x.position, i.rowid, x.depth, x.place FROM x JOIN items i ON i.kind = x.kind AND i.id = x.id
            WHERE true
            ON CONFLICT (collection, position) DO UPDATE SET item = excluded.item, depth = excluded.depth,
              place = excluded.place`,
      );
    }
    const [only] = statements;
    if (statements.length <= 1) return only ? this.executor.run(only) : 0;
    return this.executor.transaction(async (tx) => {
      let kept = 0;
      for (const s of statements) kept += await tx.run(s);
      return kept;
    });
  }

  async saveSearch(q: ArchiveQueryParsed, name: string): Promise<ArchiveCollection> {
    const where = this.where(q);
    const at = this.clock();
    const kept = await this.executor.transaction(async (tx) => {
      const row = await tx.get<{ rowid: number }>(
        sql`INSERT INTO collections (name, kind, created_at, manifest, researcher)
            VALUES (${name}, 'search', ${at}, ${JSON.stringify({ search: q })}, ${this.writer}) RETURNING rowid`,
      );
      const id = Number(row?.rowid ?? 0);
      const items = await tx.run(
        sql`INSERT INTO collection_items (collection, position, item, depth, place)
            SELECT ${id}, row_number() OVER (ORDER BY i.created_at DESC${sql.of({ sqlite: '', postgres: ' NULLS LAST' })}, i.rowid DESC) - 1,
              i.rowid, NULL, NULL FROM items i WHERE ${where}`,
      );
      return { id, items };
    });
    return { id: kept.id, name, kind: 'search', createdAt: at, items: kept.items, researcher: this.writer };
  }

  /**
   * A saved search brought up to date: the items its search finds now that it does not hold yet, added after the
   * ones it holds (newest first among them); what it held stays, in its order. Each time is noted in its manifest.
   */
  async refreshSearch(collection: number): Promise<{ added: number; collection: ArchiveCollection }> {
    const row = await this.executor.get<{ name: string; kind: string; manifest: string | null }>(
      sql`SELECT name, kind, manifest FROM collections WHERE rowid = ${collection}`,
    );
    if (!row) throw new SkeinError('not-found', 'This collection is no longer in the project.');
    const manifest = manifestOf(row.manifest);
    const search = row.kind === 'search' ? ArchiveQuery.safeParse(manifest?.search) : null;
    if (!search?.success)
      throw new SkeinError(
        'bad-input',
        `“${row.name}” is not a saved search: only a saved search can take in what its search finds now.`,
      );
    const at = this.clock();
    const added = await this.executor.transaction(async (tx) => {
      const end = await tx.get<{ next: number }>(
        sql`SELECT coalesce(max(position) + 1, 0) AS next FROM collection_items WHERE collection = ${collection}`,
      );
      const n = await tx.run(
        sql`INSERT INTO collection_items (collection, position, item, depth, place)
            SELECT ${collection}, ${Number(end?.next ?? 0)} + row_number() OVER (ORDER BY i.created_at DESC${sql.of({ sqlite: '', postgres: ' NULLS LAST' })}, i.rowid DESC) - 1,
              i.rowid, NULL, NULL FROM items i
            WHERE ${this.where(search.data)}
              AND NOT EXISTS (SELECT 1 FROM collection_items x WHERE x.collection = ${collection} AND x.item = i.rowid)`,
      );
      const refreshed = [...(Array.isArray(manifest?.refreshed) ? manifest.refreshed : []), { at, added: n }].slice(
        -100,
      );
      await tx.run(
        sql`UPDATE collections SET manifest = ${JSON.stringify({ ...manifest, refreshed })} WHERE rowid = ${collection}`,
      );
      return n;
    });
    const now = (await this.collections()).find((c) => c.id === collection);
    if (!now) throw new SkeinError('not-found', 'This collection is no longer in the project.');
    return { added, collection: now };
  }

  async collections(): Promise<ArchiveCollection[]> {
    const rows = await this.executor.all<{
      id: number;
      name: string;
      kind: string;
      created_at: number;
      items: number;
      researcher: string | null;
    }>(
      sql`SELECT c.rowid AS id, c.name AS name, c.kind AS kind, c.created_at AS created_at, c.researcher AS researcher,
            (SELECT count(*) FROM collection_items x WHERE x.collection = c.rowid) AS items
          FROM collections c ORDER BY c.created_at DESC, c.rowid DESC`,
    );
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      kind: r.kind,
      createdAt: r.created_at,
      items: r.items,
      researcher: r.researcher,
    }));
  }

  async collectionWith(kind: string, manifest: unknown): Promise<number | null> {
    const row = await this.executor.get<{ rowid: number }>(
      sql`SELECT rowid FROM collections WHERE kind = ${kind} AND manifest = ${JSON.stringify(manifest ?? null)}
          ORDER BY created_at DESC, rowid DESC LIMIT 1`,
    );
    return row ? Number(row.rowid) : null;
  }

  async provenance(kind: string, id: string): Promise<ArchiveProvenance | null> {
    const item = await this.executor.get<{ rowid: number; first_seen: number; last_seen: number }>(
      sql`SELECT rowid, first_seen, last_seen FROM items WHERE kind = ${kind} AND id = ${id}`,
    );
    if (!item) return null;
    const [versions, requests] = await Promise.all([
      this.executor.all<{ seen_from: number; seen_to: number }>(
        sql`SELECT seen_from, seen_to FROM item_versions WHERE item = ${item.rowid} ORDER BY seen_from, rowid`,
      ),
      this.executor.all<{
        operation: string;
        params: string;
        cursor: string | null;
        page_index: number;
        at: number;
        base_url: string;
        researcher: string | null;
      }>(
        sql`SELECT q.rowid, q.operation, q.params, q.cursor, q.page_index, q.at, q.base_url, q.researcher
            FROM requests q WHERE q.rowid IN (SELECT request FROM request_items WHERE item = ${item.rowid})
            ORDER BY q.at, q.rowid`,
      ),
    ]);
    return {
      firstSeen: item.first_seen,
      lastSeen: item.last_seen,
      versions: versions.map((v) => ({ seenFrom: v.seen_from, seenTo: v.seen_to })),
      requests: requests.map((r) => ({
        operation: r.operation,
        params: r.params,
        cursor: r.cursor,
        pageIndex: r.page_index,
        at: r.at,
        baseUrl: r.base_url,
        researcher: r.researcher,
      })),
    };
  }

  /**
   * The newest answer held for a request, rebuilt from its envelope and its items (each item as last received);
   * a first page only when received at or after `freshSince`, a later page whatever its age (its cursor names
   * the snapshot it belongs to). `baseUrl` null matches any (demo).
   */
  async held(key: HeldKey): Promise<HeldAnswer | null> {
    const since = key.cursor === null ? key.freshSince : (key.notBefore ?? 0);
    const row = await this.executor.get<{ rowid: number; at: number; http_status: number; envelope: string }>(
      sql`SELECT rowid, at, http_status, envelope FROM requests
          WHERE ${requestIs(this.executor, key)} AND at >= ${since} AND http_status BETWEEN 200 AND 299 AND stopped = 0
            AND (CAST(${key.baseUrl} AS TEXT) IS NULL OR base_url = ${key.baseUrl})
          ORDER BY at DESC LIMIT 1`,
    );
    if (!row) return null;
    const items = await this.executor.all<{ raw: string }>(
      sql`SELECT i.raw AS raw FROM request_items r JOIN items i ON i.rowid = r.item WHERE r.request = ${row.rowid}
          ORDER BY r.position`,
    );
    const text = rebuildBody(
      row.envelope,
      items.map((i) => i.raw),
    );
    return text === null ? null : { at: row.at, httpStatus: row.http_status, text };
  }

  async written(record: { operation: string; params: string; cursor: string | null; at: number }): Promise<boolean> {
    const row = await this.executor.get<{ one: number }>(
      sql`SELECT 1 AS one FROM requests WHERE ${requestIs(this.executor, record)} AND at = ${record.at} LIMIT 1`,
    );
    return row !== undefined;
  }

  /** An answer a paging guard stopped on: kept as received, never served again (asked again, the service may answer right). */
  async forget(key: { operation: string; params: string; cursor: string | null }): Promise<void> {
    await this.executor.run(sql`UPDATE requests SET stopped = 1 WHERE ${requestIs(this.executor, key)}`);
  }

  /** an item damaged in the project is not held: a hydration buys it again (which mends it), a view shows none */
  async heldItems(kind: 'post' | 'user', ids: readonly string[], withRaw: boolean): Promise<HeldItem[]> {
    if (this.executor.dialect === 'postgres') {
      const { held } = await this.keptItems(kind, ids, withRaw);
      return held;
    }
    return this.itemsAmong<HeldItem>(
      kind,
      ids,
      sql.raw(`id, ${withRaw ? 'raw' : "'' AS raw"}, last_seen AS at`),
      READABLE,
    );
  }

  /**
   * which of these ids the project holds as items of `kind`, in one read: those that read (their raw JSON if asked)
   * and those kept damaged (a view says so where it would show them; a package leaves them out while whose they are
   * matters)
   */
  async keptItems(kind: 'post' | 'user', ids: readonly string[], withRaw: boolean): Promise<KeptItems> {
    // PostgreSQL's test sees only the braces at either end (it has no JSON test for text short of version 16), so
    // there the text is read and parsed here, off main: damage between the braces would otherwise pass for an item
    // held, and a hydration would take it from the project instead of buying it again
    const parse = this.executor.dialect === 'postgres';
    const rows = await this.itemsAmong<HeldItem & { readable: unknown }>(
      kind,
      ids,
      sql`id, ${withRaw || parse ? sql`CASE WHEN ${READABLE} THEN raw ELSE '' END` : sql.raw("''")} AS raw,
        last_seen AS at, ${READABLE} AS readable`,
      sql.raw('1 = 1'),
    );
    const kept: KeptItems = { held: [], damaged: [] };
    for (const { readable, ...item } of rows)
      if ((readable === true || Number(readable) === 1) && (!parse || readsAsObject(item.raw)))
        kept.held.push(parse && !withRaw ? { ...item, raw: '' } : item);
      else kept.damaged.push(item.id);
    return kept;
  }

  private async itemsAmong<R extends object>(
    kind: 'post' | 'user',
    ids: readonly string[],
    columns: Sql,
    test: Sql,
  ): Promise<R[]> {
    if (this.executor.dialect === 'postgres')
      return ids.length === 0
        ? []
        : this.executor.all<R>(
            sql`SELECT ${columns} FROM items i
                WHERE kind = ${kind} AND id = ANY(CAST(${ids} AS text[])) AND ${test}`,
          );
    const out: R[] = [];
    for (let i = 0; i < ids.length; i += HELD_CHUNK) {
      const chunk = ids.slice(i, i + HELD_CHUNK);
      out.push(
        ...(await this.executor.all<R>(
          sql`SELECT ${columns} FROM items i WHERE kind = ${kind} AND id IN (${sql.join(chunk)}) AND ${test}`,
        )),
      );
    }
    return out;
  }

  /** The reply listings of a post the project holds, one per order (what an export's estimate reads). */
  conversation(rootId: string): Promise<HeldListing[]> {
    return heldConversation(this.executor, rootId);
  }

  /**
   * The requests a query's items were last returned by (a reader's `request`), oldest first: a re-export's sources,
   * a chunk at a time, in a snapshot of their own as the items' reader is.
   */
  requests(q: ArchiveQueryParsed): Awaitable<Reader<SourceRequest>> {
    return this.cursor<SourceRequest>(
      sql`SELECT q.rowid AS id, q.operation AS operation, q.params AS params, q.cursor AS cursor,
            q.page_index AS "pageIndex", q.at AS at, q.base_url AS "baseUrl", q.http_status AS "httpStatus",
            q.item_count AS items
          FROM requests q WHERE q.rowid IN (${latestRequests(q, this.where(q))}) ORDER BY q.at, q.rowid`,
    );
  }

  /** An account's id and handle as the project knows them (the newest user item, else a post's author). */
  async accountOf(ref: {
    userId?: string;
    handle?: string;
  }): Promise<{ userId: string | null; handle: string | null }> {
    const row = await this.executor.get<{ id: string; handle: string | null }>(
      ref.userId !== undefined
        ? sql`SELECT id, author_handle AS handle FROM items WHERE kind = 'user' AND id = ${ref.userId}`
        : sql`SELECT id, author_handle AS handle FROM items WHERE kind = 'user' AND ${sameHandle('author_handle', ref.handle ?? '')}
              ORDER BY last_seen DESC LIMIT 1`,
    );
    if (row) return { userId: row.id, handle: row.handle };
    if (ref.handle === undefined) return { userId: ref.userId ?? null, handle: null };
    // a post's author: its raw JSON names the id
    const authorId = sql.of({
      sqlite: "json_extract(raw, '$.author.id')",
      postgres: "skein_json_text(raw, '{author,id}')",
    });
    const post = await this.executor.get<{ id: string | number | null }>(
      sql`SELECT ${authorId} AS id FROM items WHERE kind = 'post' AND ${sameHandle('author_handle', ref.handle)} LIMIT 1`,
    );
    return { userId: post?.id === null || post?.id === undefined ? null : String(post.id), handle: ref.handle };
  }

  /** How many items a query holds, and per group (the largest first, `limit` of them listed). */
  async groupCounts(q: ArchiveQueryParsed, by: Grouping | null, limit: number): Promise<GroupCounts> {
    // a draw's form counts its population first: the side reader that ranks half of the draw's items starts now,
    // so the draw finds it running instead of ranking all of them here while it starts
    void this.side?.start();
    const where = this.where(q);
    if (by === null) {
      const total = await this.executor.get<{ n: number }>(sql`SELECT count(*) AS n FROM items i WHERE ${where}`);
      return { total: Number(total?.n), groups: [], groupCount: 0 };
    }
    // every item of a kind by day: the counts ingest keeps answer it without reading the items (a draw's strata)
    const days = by === 'day' && wholeKind(q) ? await dayCounts(this.executor, q.kind) : null;
    let counted: Sql;
    if (by !== 'day')
      counted = sql`SELECT ${groupSql(by)}${codePoint} AS value, count(*) AS n FROM items i WHERE ${where}
        GROUP BY 1 ORDER BY 2 DESC, 1`;
    else if (this.executor.dialect === 'sqlite')
      // one key per item, the day's number or else its date's text (SQLite groups an integer apart from any text):
      // the key worked out once and one column sorted cut counting by a fifth
      counted = sql`SELECT CASE WHEN typeof(g.k) = 'integer' THEN ${DAY_KEY.date} ELSE g.k END${codePoint} AS value,
          g.n AS n FROM (
            SELECT coalesce(${DAY_KEY.key}, ${groupSql(by)}) AS k, count(*) AS n FROM items i WHERE ${where} GROUP BY 1
          ) g ORDER BY 2 DESC, 1`;
    else
      counted = sql`SELECT coalesce(${DAY_KEY.date}, g.other)${codePoint} AS value, g.n AS n FROM (
          SELECT ${DAY_KEY.key} AS k, CASE WHEN ${DAY_KEY.key} IS NULL THEN ${groupSql(by)} END AS other,
            count(*) AS n FROM items i WHERE ${where} GROUP BY 1, 2) g
          ORDER BY 2 DESC, 1`;
    const rows =
      days?.sort((a, b) => b.n - a.n || (a.value < b.value ? -1 : 1)) ??
      (await this.executor.all<{ value: string; n: number }>(counted));
    return {
      // every item is in one group (none is '(none)'): the groups' sum is the total, without counting again
      total: rows.reduce((t, r) => t + Number(r.n), 0),
      groups: rows.slice(0, limit).map((r) => ({ value: groupOf(by, r.value) ?? '', count: Number(r.n) })),
      groupCount: rows.length,
    };
  }

  /**
   * How a query's items fall in time: counted per bucket (hour, day or week from the origin), in one window. One
   * pass over the query's items counts both the buckets and the whole (the items outside the window, or without a
   * time, are the null bucket). A chart of all of a kind's items reads the counts ingest keeps instead (counts.ts).
   */
  async activity(q: ArchiveQueryParsed, bucket: ActivityBucket, utcOffsetMinutes: number): Promise<ArchiveActivity> {
    const window = activityWindow(bucket, utcOffsetMinutes, this.clock());
    if (countsServe(q, window)) return activityFromCounts(this.executor, q.kind, window);
    const rows = await this.executor.all<{ b: number | null; n: number }>(
      sql`SELECT CASE WHEN i.created_at >= ${window.from} AND i.created_at <= ${window.to}
            THEN CAST((i.created_at - ${window.origin}) / ${window.size} AS INTEGER) END AS b, count(*) AS n
          FROM items i WHERE ${this.where(q)} GROUP BY 1 ORDER BY 1`,
    );
    const dated = rows.flatMap((r) => (r.b === null ? [] : [{ b: Number(r.b), n: Number(r.n) }]));
    return activityOf(
      dated,
      rows.reduce((n, r) => n + Number(r.n), 0),
      window,
    );
  }
}
