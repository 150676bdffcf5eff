/**
 * A team project: one schema of a PostgreSQL database that several Skeins read and write at once (store.ts is
 * the interface it fits, the SQLite project its twin). Each batch of answers is one transaction under the
 * project's advisory lock (ingest.ts); reads never wait for writers. Every write says which researcher made it.
 */
import type pg from 'pg';
import { SkeinError } from '../../../shared/errors';
import type {
  ActivityBucket,
  ArchiveActivity,
  ArchiveCollection,
  ArchiveProvenance,
  ArchiveQueryParsed,
  ArchiveSearchResult,
  ResearcherActivity,
} from '../../../shared/ipc/archive';
import { prepareAnswer, type IngestRecord } from '../answer';
import { storedFts } from '../derive';
import {
  type ProjectStore,
  LATEST_REQUEST,
  type CollectionInput,
  type GroupCounts,
  type GroupedReader,
  type Grouping,
  type HeldAnswer,
  type HeldItem,
  type HeldKey,
  type Loader,
  type ProjectSummary,
  type RawRow,
  type RowReader,
  type Snapshot,
  type SourceRequest,
  type TableName,
  type TableRow,
  type TableSpec,
} from '../store';
import type { HeldListing } from '../conversation';
import { heldConversation } from './conversation';
import {
  addressText,
  pgExecutor,
  type AnyPart,
  type PgConnection,
  openCursor,
  pgDb,
  type PgDb,
  checkout,
  createPool,
  explain,
  isTransient,
  Params,
  fromPg,
  fromPgOrNull,
  toPg,
  toPgOrNull,
} from '../../db';
import { tsvectorOf } from './fts';
import { withVectors, writeAnswers, type PgAnswer } from './ingest';
import {
  accountOf,
  activity,
  forgetAnswer,
  groupCounts,
  grouped,
  heldAnswer,
  provenance,
  search,
  whereOf,
} from './query';
import { heldSql, openParts, tablesOf, type OpenParts } from '../parts';
import { lockSql, migrate } from './schema';

export interface PgProjectInit {
  name: string;
  kind: 'live' | 'demo';
  now: number;
  researcher?: string | null;
}

/** Every string of a row as stored (encoded, text.ts), or back. */
const rowTo = (row: TableRow, f: (s: string) => string): TableRow =>
  Object.fromEntries(Object.entries(row).map(([k, v]) => [k, typeof v === 'string' ? f(v) : v]));

/** A batch parsed ahead (`prepare`): its answers ready to write, and how many could not be read. */
interface PgBatch {
  records: readonly IngestRecord[];
  answers: PgAnswer[];
  failed: number;
}

/** Items written since the planner's statistics were last gathered, beyond which they are gathered again. */
const ANALYZE_AFTER = { items: 5_000, share: 0.5 };

export class PostgresProject implements ProjectStore {
  skipped = 0;
  readonly location: string;
  private readonly db: PgDb;
  readonly tables: readonly TableSpec[];
  private readonly executor: ReturnType<typeof pgExecutor>;
  private opened: OpenParts = new Map();
  /** items written since statistics were gathered, and how many the table held then (null: may not gather them) */
  private sinceAnalyze = 0;
  private analyzedRows: number | null = 0;

  private constructor(
    private readonly pool: pg.Pool,
    private readonly connection: PgConnection,
    private readonly researcher: string | null,
    private readonly now: () => number,
    parts: readonly AnyPart[],
  ) {
    this.location = addressText(connection);
    this.db = pgDb(pool, connection, now);
    this.executor = pgExecutor(this.db);
    this.tables = tablesOf(parts);
  }

  /** Connects, makes or migrates the schema; refuses in plain words what it cannot open. */
  static async open(
    connection: PgConnection,
    init: PgProjectInit,
    now: () => number = Date.now,
    parts: readonly AnyPart[] = [],
  ): Promise<PostgresProject> {
    const pool = createPool(connection);
    let from: number;
    try {
      const client = await checkout(pool);
      try {
        const version = await client.query<{ v: string }>("SELECT current_setting('server_version_num') AS v");
        if (Number(version.rows[0]?.v ?? 0) < 120000)
          throw new SkeinError(
            'not-available',
            `${connection.host} runs a PostgreSQL older than 12, which Skein does not use.`,
            {
              action: 'Use PostgreSQL 12 or newer.',
            },
          );
        from = await migrate(client, connection.schema, addressText(connection), init);
      } finally {
        client.release();
      }
    } catch (e) {
      await pool.end().catch(() => undefined);
      throw e instanceof Error && e.name === 'ProjectFileError' ? e : explain(e, connection);
    }
    const project = new PostgresProject(pool, connection, init.researcher ?? null, now, parts);
    try {
      project.opened = await openParts(project.executor, parts, from, project.location, now);
    } catch (e) {
      await project.close();
      throw e instanceof Error && e.name === 'ProjectFileError' ? e : explain(e, connection);
    }
    return project;
  }

  /** A query's failure in plain words (never with the password); a transient one keeps its code for the host. */
  private run<T>(work: () => Promise<T>): Promise<T> {
    return this.db.run(work);
  }

  private async transaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await checkout(this.pool);
    try {
      await client.query('BEGIN');
      try {
        const out = await work(client);
        await client.query('COMMIT');
        return out;
      } catch (e) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw e;
      }
    } finally {
      client.release();
    }
  }

  /**
   * Every record in one transaction: a Skein killed mid-batch loses that batch, never half of it, and nothing
   * another Skein wrote. A batch that fails for a reason other than the connection is written again one answer
   * per transaction, and an answer that cannot be kept is left out alone. A lost connection keeps the batch for
   * the host to write again (`transient`).
   */
  prepare(records: readonly IngestRecord[]): PgBatch {
    const answers: PgAnswer[] = [];
    let failed = 0;
    for (const r of records) {
      try {
        answers.push(withVectors(prepareAnswer(r)));
      } catch {
        failed++; // an answer no reader expected (a bug): left out alone, as SQLite's savepoint does
      }
    }
    return { records, answers, failed };
  }

  async ingest(records: readonly IngestRecord[], ahead?: unknown): Promise<void> {
    if (records.length === 0) return;
    const batch =
      ahead instanceof Object && (ahead as PgBatch).records === records ? (ahead as PgBatch) : this.prepare(records);
    this.skipped += batch.failed;
    const prepared = batch.answers;
    const write = (answers: readonly PgAnswer[]) =>
      this.transaction((client) => writeAnswers(client, this.connection.schema, answers, this.researcher));
    try {
      await write(prepared);
    } catch (e) {
      if (isTransient(e)) throw Object.assign(explain(e, this.connection), { transient: true });
      for (const answer of prepared) {
        try {
          await write([answer]);
        } catch (e2) {
          if (isTransient(e2)) throw Object.assign(explain(e2, this.connection), { transient: true });
          this.skipped++;
        }
      }
    }
    await this.analyzeAsItGrows(prepared.reduce((n, a) => n + a.items.length, 0));
  }

  /**
   * The planner's statistics gathered again as the project grows by half (a collection fills a new project far
   * faster than autovacuum looks): without them it takes the project's posts for a few thousand and sorts them
   * all where walking an index would do. Only the tables' owner may; anyone else leaves it to autovacuum.
   */
  private async analyzeAsItGrows(written: number): Promise<void> {
    if (this.analyzedRows === null) return;
    this.sinceAnalyze += written;
    if (this.sinceAnalyze < Math.max(ANALYZE_AFTER.items, this.analyzedRows * ANALYZE_AFTER.share)) return;
    this.sinceAnalyze = 0;
    try {
      await this.pool.query('ANALYZE items');
      const r = await this.pool.query<{ n: number }>(
        "SELECT reltuples::bigint AS n FROM pg_class WHERE oid = 'items'::regclass",
      );
      this.analyzedRows = Math.max(0, r.rows[0]?.n ?? 0);
    } catch {
      this.analyzedRows = null;
    }
  }

  summary(): Promise<ProjectSummary> {
    return this.run(async () => {
      const [meta, counts, researchers] = await Promise.all([
        this.pool.query<{ key: string; value: string }>('SELECT key, value FROM meta'),
        this.pool.query<{ items: number; requests: number }>(
          'SELECT (SELECT count(*) FROM items) AS items, (SELECT count(*) FROM requests) AS requests',
        ),
        this.pool.query<ResearcherActivity>(
          `SELECT researcher AS name, count(*) AS answers, max(at) AS "lastAt" FROM requests
           GROUP BY researcher ORDER BY "lastAt" DESC LIMIT 50`,
        ),
      ]);
      const m = new Map(meta.rows.map((r) => [r.key, fromPg(r.value)]));
      return {
        name: m.get('name') ?? 'Project',
        kind: m.get('kind') === 'demo' ? 'demo' : 'live',
        items: counts.rows[0]?.items ?? 0,
        requests: counts.rows[0]?.requests ?? 0,
        researchers: researchers.rows.map((r) => ({ ...r, name: fromPgOrNull(r.name) })),
      };
    });
  }

  rename(name: string): Promise<void> {
    return this.run(async () => {
      await this.pool.query(
        "INSERT INTO meta (key, value) VALUES ('name', $1) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        [toPg(name)],
      );
    });
  }

  search(q: ArchiveQueryParsed, offset: number, limit: number): Promise<ArchiveSearchResult> {
    return this.run(() => search(this.pool, q, offset, limit, () => performance.now()));
  }

  activity(q: ArchiveQueryParsed, bucket: ActivityBucket, utcOffsetMinutes: number): Promise<ArchiveActivity> {
    return this.run(() => activity(this.pool, q, bucket, utcOffsetMinutes, this.now()));
  }

  provenance(kind: string, id: string): Promise<ArchiveProvenance | null> {
    return this.run(() => provenance(this.pool, kind, id));
  }

  held(key: HeldKey): Promise<HeldAnswer | null> {
    return this.run(() => heldAnswer(this.pool, key));
  }

  forget(key: { operation: string; params: string; cursor: string | null }): Promise<void> {
    return this.run(() => forgetAnswer(this.pool, key));
  }

  createCollection(c: { name: string; kind: string; manifest: unknown }): Promise<number> {
    return this.run(async () => {
      const r = await this.pool.query<{ rowid: number }>(
        'INSERT INTO collections (name, kind, created_at, manifest, researcher) VALUES ($1, $2, $3, $4, $5) RETURNING rowid',
        [toPg(c.name), toPg(c.kind), this.now(), toPg(JSON.stringify(c.manifest ?? null)), toPgOrNull(this.researcher)],
      );
      return r.rows[0]?.rowid ?? 0;
    });
  }

  appendCollection(id: number, start: number, items: CollectionInput['items']): Promise<number> {
    if (items.length === 0) return Promise.resolve(0);
    return this.run(async () => {
      const r = await this.pool.query(
        `INSERT INTO collection_items (collection, position, item, depth, place)
         SELECT $1::bigint, x.position, i.rowid, x.depth, x.place
         FROM json_to_recordset($2::json) AS x(kind text, id text, position integer, depth integer, place text)
         JOIN items i ON i.kind = x.kind AND i.id = x.id
         ON CONFLICT (collection, position) DO UPDATE SET item = excluded.item, depth = excluded.depth, place = excluded.place`,
        [
          id,
          JSON.stringify(
            items.map((it, i) => ({
              kind: toPg(it.kind),
              id: toPg(it.id),
              position: start + i,
              depth: it.depth,
              place: toPgOrNull(it.place ?? null),
            })),
          ),
        ],
      );
      return r.rowCount ?? 0;
    });
  }

  async addCollection(c: CollectionInput): Promise<number> {
    const id = await this.createCollection(c);
    await this.appendCollection(id, 0, c.items);
    return id;
  }

  collections(): Promise<ArchiveCollection[]> {
    return this.run(async () => {
      const r = await this.pool.query<{
        id: number;
        name: string;
        kind: string;
        created_at: number;
        items: number;
        researcher: string | null;
      }>(
        `SELECT c.rowid AS id, c.name, c.kind, c.created_at, c.researcher,
           (SELECT count(*) FROM collection_items x WHERE x.collection = c.rowid) AS items
         FROM collections c ORDER BY c.created_at DESC, c.rowid DESC`,
      );
      return r.rows.map((row) => ({
        id: row.id,
        name: fromPg(row.name),
        kind: fromPg(row.kind),
        createdAt: row.created_at,
        items: row.items,
        researcher: fromPgOrNull(row.researcher),
      }));
    });
  }

  /** A server-side cursor in a read-only snapshot, on a connection of its own until closed. */
  reader(q: ArchiveQueryParsed): Promise<RowReader> {
    const p = new Params();
    const where = whereOf(q, p);
    const columns = `i.id, i.raw, i.first_seen AS "firstSeen", i.last_seen AS "lastSeen", ${LATEST_REQUEST} AS request`;
    const sql =
      q.collection !== undefined
        ? `SELECT ${columns}, x.place FROM collection_items x JOIN items i ON i.rowid = x.item
           WHERE x.collection = ${p.add(q.collection, '::bigint')} AND ${where} ORDER BY x.position`
        : `SELECT ${columns}, NULL::text AS place FROM items i WHERE ${where}
           ORDER BY i.created_at NULLS FIRST, i.rowid`;
    return openCursor<RawRow, RawRow>(this.db, sql, p, (row) => ({
      ...row,
      id: fromPg(row.id),
      raw: fromPg(row.raw),
      place: fromPgOrNull(row.place),
    }));
  }

  /** The requests a query's items were last returned by (`reader`'s `request`), oldest first: a re-export's sources. */
  requestsOf(q: ArchiveQueryParsed): Promise<SourceRequest[]> {
    return this.run(async () => {
      const p = new Params();
      const where = whereOf(q, p);
      const items =
        q.collection !== undefined
          ? `SELECT ${LATEST_REQUEST} AS request FROM collection_items x JOIN items i ON i.rowid = x.item
             WHERE x.collection = ${p.add(q.collection, '::bigint')} AND ${where}`
          : `SELECT ${LATEST_REQUEST} AS request FROM items i WHERE ${where}`;
      const r = await this.pool.query<SourceRequest>(
        `SELECT q.rowid AS id, q.operation, q.params, q.cursor, q.page_index AS "pageIndex", q.at,
           q.base_url AS "baseUrl", q.http_status AS "httpStatus", q.item_count AS items
         FROM requests q WHERE q.rowid IN (${items}) ORDER BY q.at, q.rowid`,
        p.values,
      );
      return r.rows.map((row) => ({
        ...row,
        operation: fromPg(row.operation),
        params: fromPg(row.params),
        cursor: fromPgOrNull(row.cursor),
        baseUrl: fromPg(row.baseUrl),
      }));
    });
  }

  /** The reply listings of a post the project holds, one per order (what an export's estimate reads). */
  conversation(rootId: string): Promise<HeldListing[]> {
    return this.run(() => heldConversation(this.pool, rootId));
  }

  heldItems(kind: 'post' | 'user', ids: readonly string[], withRaw: boolean): Promise<HeldItem[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.run(async () => {
      const r = await this.pool.query<HeldItem>(
        `SELECT id, ${withRaw ? 'raw' : "'' AS raw"}, last_seen AS at FROM items WHERE kind = $1 AND id = ANY($2::text[])`,
        [kind, ids.map(toPg)],
      );
      return r.rows.map((row) => ({ id: fromPg(row.id), raw: fromPg(row.raw), at: row.at }));
    });
  }

  groupCounts(q: ArchiveQueryParsed, by: Grouping | null, limit: number): Promise<GroupCounts> {
    return this.run(() => groupCounts(this.pool, q, by, limit));
  }

  grouped(q: ArchiveQueryParsed, by: Grouping | null): Promise<GroupedReader> {
    return grouped(this.db, q, by);
  }

  accountOf(ref: { userId?: string; handle?: string }): Promise<{ userId: string | null; handle: string | null }> {
    return this.run(() => accountOf(this.pool, ref));
  }

  async meta(key: string): Promise<string | null> {
    const r = (await this.db.rows<{ value: string }>('SELECT value FROM meta WHERE key = $1', [toPg(key)]))[0];
    return r ? fromPg(r.value) : null;
  }

  async setMeta(key: string, value: string): Promise<void> {
    await this.db.rows(
      'INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
      [toPg(key), toPg(value)],
    );
  }

  /** One read-only transaction on a connection of its own: the project as of now while others go on writing. */
  snapshot(): Promise<Snapshot> {
    return this.run(async () => {
      const client = await checkout(this.pool);
      try {
        await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      } catch (e) {
        client.release();
        throw e;
      }
      let open = true;
      return {
        count: async (table) =>
          (await this.run(() => client.query<{ n: number }>(`SELECT count(*) AS n FROM ${table}`))).rows[0]?.n ?? 0,
        rows: async (table, after, limit) => {
          const p = new Params();
          const cond =
            after === null
              ? 'true'
              : `(${table.key.join(', ')}) > (${table.key.map((k) => p.add(typeof after[k] === 'string' ? toPg(after[k]) : after[k])).join(', ')})`;
          const r = await this.run(() =>
            client.query<TableRow>(
              `SELECT ${table.columns.join(', ')} FROM ${table.name} WHERE ${cond} ORDER BY ${table.key.join(', ')} LIMIT ${p.add(limit)}`,
              p.values,
            ),
          );
          return r.rows.map((row) => rowTo(row, fromPg));
        },
        close: async () => {
          if (!open) return;
          open = false;
          await client.query('COMMIT').catch(() => undefined);
          client.release();
        },
      };
    });
  }

  /** A copy into this schema, which must hold nothing yet, in one transaction under the project's lock. */
  loader(): Promise<Loader> {
    return this.run(async () => {
      const client = await checkout(this.pool);
      const schema = this.connection.schema;
      let open = true;
      const end = async (sql: 'COMMIT' | 'ROLLBACK') => {
        if (!open) return;
        open = false;
        try {
          await client.query(sql);
        } finally {
          client.release();
        }
      };
      try {
        await client.query('BEGIN');
        await client.query(lockSql(schema));
        const held = await client.query<{ n: number }>(`SELECT ${heldSql(this.tables)} AS n`);
        if ((held.rows[0]?.n ?? 0) > 0)
          throw new SkeinError(
            'write-failed',
            `${this.location} already holds items, codes or watches: a project is copied only into an empty one.`,
            {
              action: 'Copy into a new schema (another name in the same database), or into a new project file.',
            },
          );
      } catch (e) {
        await end('ROLLBACK').catch(() => undefined);
        throw e;
      }
      const types = new Map<string, Map<string, string>>();
      const typesOf = async (table: string) => {
        let t = types.get(table);
        if (!t) {
          const r = await client.query<{ column_name: string; type: string }>(
            `SELECT attname AS column_name, format_type(atttypid, atttypmod) AS type FROM pg_attribute
             WHERE attrelid = $1::regclass AND attnum > 0 AND NOT attisdropped`,
            [`${schema}.${table}`],
          );
          t = new Map(r.rows.map((row) => [row.column_name, row.type]));
          types.set(table, t);
        }
        return t;
      };
      return {
        add: async (table: TableSpec, rows: readonly TableRow[]) => {
          if (rows.length === 0) return;
          const t = await typesOf(table.name);
          const cols: string[] = [...table.columns];
          const defs = cols.map((c) => `${c} ${t.get(c) ?? 'text'}`);
          const payload = rows.map((row) => {
            const out = rowTo(row, toPg);
            if (table.name === 'items') {
              const f = storedFts(String(row.kind), String(row.raw));
              out.fts = tsvectorOf(f.text, f.handle, f.name, f.bio);
            }
            return out;
          });
          const items = table.name === 'items';
          await this.run(() =>
            client.query(
              `INSERT INTO ${table.name} (${cols.join(', ')}${items ? ', fts' : ''})
               SELECT ${cols.join(', ')}${items ? ', fts::tsvector' : ''}
               FROM json_to_recordset($1::json) AS x(${defs.join(', ')}${items ? ', fts text' : ''})
               ${table.name === 'meta' ? 'ON CONFLICT (key) DO UPDATE SET value = excluded.value' : ''}`,
              [JSON.stringify(payload)],
            ),
          );
        },
        count: async (table: TableName) =>
          (await this.run(() => client.query<{ n: number }>(`SELECT count(*) AS n FROM ${table}`))).rows[0]?.n ?? 0,
        commit: async () => {
          // the next row a Skein adds is numbered after the copied ones
          for (const table of this.tables) {
            const [column] = table.key;
            if (table.key.length !== 1 || (column !== 'rowid' && column !== 'id')) continue;
            await client.query(
              `SELECT setval(pg_get_serial_sequence('${table.name}', '${column}'), coalesce(max(${column}), 0) + 1, false) FROM ${table.name}`,
            );
          }
          await end('COMMIT');
        },
        rollback: () => end('ROLLBACK'),
      };
    });
  }

  transient(error: unknown): boolean {
    return (error as { transient?: unknown } | null)?.transient === true || isTransient(error);
  }

  get parts(): OpenParts {
    return this.opened;
  }

  async close(): Promise<void> {
    await this.executor.releaseLocks();
    await this.pool.end().catch(() => undefined);
  }
}
