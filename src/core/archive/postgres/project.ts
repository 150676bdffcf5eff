/**
 * A team project: one schema of a PostgreSQL database that several Skeins read and write at once (store.ts is
 * the interface it fits; what both stores share comes from ../common.ts). Each batch of answers is one transaction under the
 * project's advisory lock (ingest.ts); reads never wait for writers. Every write says which researcher made it.
 */
import type pg from 'pg';
import { SkeinError } from '../../../shared/errors';
import type { ArchiveQueryParsed, ArchiveSearchResult } from '../../../shared/ipc/archive';
import { prepareAnswer, type IngestRecord } from '../answer';
import { ArchiveTables, groupOf, refuseUnlessEmpty, tableCount, tableRows } from '../common';
import { storedFts } from '../derive';
import {
  type ProjectStore,
  type GroupedReader,
  type Grouping,
  type Loader,
  type RawRow,
  type RowReader,
  type Snapshot,
  type TableRow,
  type TableSpec,
} from '../store';
import {
  addressText,
  clientExecutor,
  pgExecutor,
  type AnyPart,
  type PgConnection,
  pgDb,
  type PgDb,
  checkout,
  createPool,
  explain,
  isTransient,
  toPg,
} from '../../db';
import { tsvectorOf } from './fts';
import { withVectors, writeAnswers, type PgAnswer } from './ingest';
import { cursorOf, search, tsMatch } from './query';
import { openParts, tablesOf, type OpenParts } from '../parts';
import { lockSql, migrate } from './schema';

export interface PgProjectInit {
  name: string;
  kind: 'live' | 'demo';
  now: number;
  researcher?: string | null;
}

/** Every string of a row as stored (encoded, text.ts). */
const encoded = (row: TableRow): TableRow =>
  Object.fromEntries(Object.entries(row).map(([k, v]) => [k, typeof v === 'string' ? toPg(v) : v]));

/** A batch parsed ahead (`prepare`): its answers ready to write, and how many could not be read. */
interface PgBatch {
  records: readonly IngestRecord[];
  answers: PgAnswer[];
  failed: number;
}

/** Items written since the planner's statistics were last gathered, beyond which they are gathered again. */
const ANALYZE_AFTER = { items: 5_000, share: 0.5 };

export class PostgresProject extends ArchiveTables implements ProjectStore {
  skipped = 0;
  readonly location: string;
  private readonly db: PgDb;
  readonly tables: readonly TableSpec[];
  /** lets go of the parts' session locks */
  private readonly releaseLocks: () => Promise<void>;
  private opened: OpenParts = new Map();
  /** items written since statistics were gathered, and how many the table held then (null: may not gather them) */
  private sinceAnalyze = 0;
  private analyzedRows: number | null = 0;

  private constructor(
    private readonly pool: pg.Pool,
    private readonly connection: PgConnection,
    private readonly researcher: string | null,
    db: PgDb,
    parts: readonly AnyPart[],
    executor = pgExecutor(db),
  ) {
    super(executor, tsMatch, db.now, researcher);
    this.releaseLocks = executor.releaseLocks;
    this.location = addressText(connection);
    this.db = db;
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
    const project = new PostgresProject(pool, connection, init.researcher ?? null, pgDb(pool, connection, now), parts);
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

  search(q: ArchiveQueryParsed, offset: number, limit: number): Promise<ArchiveSearchResult> {
    return search(this.executor, q, offset, limit, () => performance.now());
  }

  /** A server-side cursor in a read-only snapshot, on a connection of its own until closed. */
  reader(q: ArchiveQueryParsed): Promise<RowReader> {
    return cursorOf<RawRow>(this.db, this.rawItems(q));
  }

  /** A query's item ids with their group's value (null: no grouping), read a chunk at a time through a cursor. */
  async grouped(q: ArchiveQueryParsed, by: Grouping | null): Promise<GroupedReader> {
    const rows = await cursorOf<{ id: string; grp: string | null }>(this.db, this.groupedItems(q, by));
    return {
      next: async (max) => (await rows.next(max)).map((r) => ({ id: r.id, group: groupOf(by, r.grp) })),
      close: rows.close,
    };
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
      const on = clientExecutor(this.db, client);
      return {
        count: (table) => tableCount(on, table),
        rows: (table, after, limit) => tableRows(on, table, after, limit),
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
      const on = clientExecutor(this.db, client);
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
        await refuseUnlessEmpty(
          on,
          this.tables,
          this.location,
          'Copy into a new schema (another name in the same database), or into a new project file.',
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
            const out = encoded(row);
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
        count: (table) => tableCount(on, table),
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
    await this.releaseLocks();
    await this.pool.end().catch(() => undefined);
  }
}
