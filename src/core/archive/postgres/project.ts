/**
 * A team project: one schema of a PostgreSQL database that several Skeins read and write at once (store.ts is
 * the interface it fits; what both stores share comes from ../common.ts). Each batch of answers is one transaction under the
 * project's advisory lock (ingest.ts); reads never wait for writers. Every write says which researcher made it.
 */
import { SkeinError } from '../../../shared/errors';
import type { ArchiveQueryParsed, ArchiveSearchResult } from '../../../shared/ipc/archive';
import { prepareAnswer, type IngestRecord } from '../answer';
import { ArchiveTables, insertRows, PROJECT_LOCK, snapshotOn } from '../common';
import { FLAG, storedFts } from '../derive';
import {
  type ProjectInit,
  type ProjectStore,
  type Reader,
  type Snapshot,
  type TableRow,
  type TableSpec,
} from '../store';
import {
  addressText,
  cursor,
  readSnapshot,
  pgExecutor,
  type AnyPart,
  type Db,
  type PgConnection,
  pgDb,
  type PgDb,
  createPool,
  explain,
  isDenied,
  isTransient,
  sql,
  type Sql,
} from '../../db';
import { tsvectorOf } from './fts';
import { withVectors, writeAnswers, type PgAnswer } from './ingest';
import { search, tsMatch } from './query';
import { mayWrite, migrate } from './schema';

/** A batch parsed ahead (`prepare`): its answers ready to write, and how many could not be read. */
interface PgBatch {
  records: readonly IngestRecord[];
  answers: PgAnswer[];
  failed: number;
}

/** Items written since the planner's statistics were last gathered, beyond which they are gathered again. */
const ANALYZE_AFTER = { items: 5_000, share: 0.5 };

/**
 * Once no answer has come for `idleMs`, a run that wrote at least `items` items has `items` vacuumed: its pages
 * marked all-visible, so a count or a chart over the project's posts reads the creation-time index alone instead
 * of every row (autovacuum does it too, but a minute or more later, and PostgreSQL 12 not for inserts at all).
 */
const VACUUM_AFTER = { items: 10_000, idleMs: 1_000 };

export class PostgresProject extends ArchiveTables implements ProjectStore {
  readonly location: string;
  private readonly db: PgDb;
  /** lets go of the parts' session locks */
  private readonly releaseLocks: () => Promise<void>;
  /** items written since statistics were gathered, and how many the table held then (null: may not gather them) */
  private sinceAnalyze = 0;
  private analyzedRows: number | null = 0;
  /** items written since the run's pages were last vacuumed; the vacuum under way; its timer */
  private sinceVacuum = 0;
  private vacuuming: Promise<void> | null = null;
  /** the statistics on `flags` being made (`flagStatistics`) */
  private gathering: Promise<void> | null = null;
  private vacuumTimer: ReturnType<typeof setTimeout> | null = null;
  private closing = false;

  private constructor(
    private readonly researcher: string | null,
    db: PgDb,
    executor: ReturnType<typeof pgExecutor>,
    parts: readonly AnyPart[],
    /** what goes wrong off any call's path (the run's vacuum): the host's report, main's log */
    private readonly report: (error: Error) => void,
  ) {
    super(executor, tsMatch, db.now, researcher, parts);
    this.releaseLocks = executor.releaseLocks;
    this.location = addressText(db.connection);
    this.db = db;
  }

  /** Connects, makes or migrates the schema; refuses in plain words what it cannot open. */
  static async open(
    connection: PgConnection,
    init: ProjectInit,
    now: () => number = Date.now,
    parts: readonly AnyPart[] = [],
    report: (error: Error) => void = () => undefined,
  ): Promise<PostgresProject> {
    const pool = createPool(connection);
    const db = pgDb(pool, connection, now);
    const executor = pgExecutor(db);
    let from: number;
    let server: number;
    try {
      const version = await executor.get<{ v: string }>(sql`SELECT current_setting('server_version_num') AS v`);
      server = Number(version?.v ?? 0);
      if (server < 120000)
        throw new SkeinError(
          'not-available',
          `${connection.host} runs a PostgreSQL older than 12, which Skein does not use.`,
          {
            action: 'Use PostgreSQL 12 or newer.',
          },
        );
      from = await migrate(executor, connection.schema, addressText(connection), init);
    } catch (e) {
      await pool.end().catch(() => undefined);
      throw e instanceof Error && e.name === 'ProjectFileError' ? e : explain(e, connection);
    }
    const project = new PostgresProject(init.researcher ?? null, db, executor, parts, report);
    await project.openParts(from).catch((e: unknown) => {
      throw e instanceof Error && e.name === 'ProjectFileError' ? e : explain(e, connection);
    });
    if (!(await mayWrite(executor, connection.schema).catch(() => true))) project.readOnly = project.mayOnlyRead();
    else project.flagStatistics(server);
    return project;
  }

  /**
   * Statistics on each bit of `flags` (PostgreSQL 14 and later: statistics on expressions), so the planner knows
   * how many posts a filter such as "no replies" keeps. Without them it guesses one in two hundred, and from a
   * list's ninth page on read and sorted every post for each page (0.55 s at 200,000 posts) where walking the
   * sort's index takes milliseconds. Made once, by the tables' owner, and gathered at once (in the background: a
   * project of a million posts takes a second or two); anyone else, or an older server, does without. Made at
   * open rather than by a migration, so that a server upgraded to 14 gets them, and a member with fewer rights
   * still opens the project.
   */
  private flagStatistics(server: number): void {
    if (server < 140000) return;
    const bits = Object.values(FLAG)
      .map((bit) => `(flags & ${bit})`)
      .join(', ');
    const made = async () =>
      (await this.executor.get(
        sql`SELECT 1 AS found FROM pg_statistic_ext
            WHERE stxname = 'items_flag_bits' AND stxnamespace = ${this.db.connection.schema}::regnamespace`,
      )) !== undefined;
    this.gathering = (async () => {
      if (await made()) return;
      await this.executor.exec(`CREATE STATISTICS IF NOT EXISTS items_flag_bits ON ${bits} FROM items`);
      if (!this.closing) await this.executor.exec('ANALYZE items');
    })()
      .catch(async (e: unknown) => {
        // not the owner, or another Skein made them at the same moment: nothing is lost but speed
        if (this.closing || isDenied(e) || (await made().catch(() => false))) return;
        this.report(
          new Error(
            `the team project's statistics on its posts' kinds could not be made, so lists filtered by kind (no replies, only quotes) may read every post: ${e instanceof Error ? e.message : String(e)}`,
          ),
        );
      })
      .finally(() => {
        this.gathering = null;
      });
  }

  /** What a member with read rights only is told: Skein does not collect what it could not keep. */
  private mayOnlyRead(): string {
    const c = this.db.connection;
    return `${c.user} may only read the team project “${c.schema}” on ${c.host}: Skein does not collect into it, as nothing it collected could be kept. Ask the database’s administrator for write rights on the schema “${c.schema}”, or switch to a project of your own.`;
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
    // a write under way is not the run's end: its rows would not be visible to the vacuum yet
    if (this.vacuumTimer) clearTimeout(this.vacuumTimer);
    this.vacuumTimer = null;
    const batch =
      ahead instanceof Object && (ahead as PgBatch).records === records ? (ahead as PgBatch) : this.prepare(records);
    this.skipped += batch.failed;
    const prepared = batch.answers;
    // a lost connection is thrown marked transient, in plain words (PgDb's `run`)
    const write = (answers: readonly PgAnswer[]) =>
      this.executor.transaction((tx) => writeAnswers(tx, answers, this.researcher), PROJECT_LOCK);
    try {
      await write(prepared);
    } catch (e) {
      if (this.transient(e)) throw e;
      // rights taken away: every answer would be refused alike; the batch is kept by the host, and said
      if (isDenied(e)) throw new SkeinError('write-failed', (this.readOnly = this.mayOnlyRead()));
      for (const answer of prepared) {
        try {
          await write([answer]);
        } catch (e2) {
          if (this.transient(e2)) throw e2;
          this.skipped++;
        }
      }
    }
    // a state derived from the last write, not remembered: rights given back clear it
    this.readOnly = null;
    const written = prepared.reduce((n, a) => n + a.items.length, 0);
    this.sinceVacuum += written;
    await this.analyzeAsItGrows(written);
    this.vacuumWhenIdle();
  }

  /**
   * The run's end is the moment answers stop coming: the vacuum starts then, off the writes' path (readers and
   * later batches do not wait for it; a batch meanwhile is written alongside). A role that does not own the
   * tables is told no by PostgreSQL with a warning only, and leaves it to autovacuum; a vacuum that fails is
   * reported (`report`), never thrown: no call waits for it.
   */
  private vacuumWhenIdle(): void {
    if (this.vacuumTimer) clearTimeout(this.vacuumTimer);
    this.vacuumTimer = null;
    if (this.closing || this.vacuuming || this.sinceVacuum < VACUUM_AFTER.items) return;
    this.vacuumTimer = setTimeout(() => {
      this.vacuumTimer = null;
      this.sinceVacuum = 0;
      this.vacuuming = this.executor
        .exec('VACUUM (ANALYZE) items')
        .then(() => {
          this.sinceAnalyze = 0;
        })
        .catch((e: unknown) =>
          this.report(
            new Error(
              `the team project's posts could not be vacuumed after the run, so its chart and counts read every row until PostgreSQL's autovacuum does: ${e instanceof Error ? e.message : String(e)}`,
            ),
          ),
        )
        .finally(() => {
          this.vacuuming = null;
          // what was written while it ran is the next run's
          this.vacuumWhenIdle();
        });
    }, VACUUM_AFTER.idleMs);
    this.vacuumTimer.unref?.();
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
      await this.executor.exec('ANALYZE items');
      const r = await this.executor.get<{ n: number }>(
        sql`SELECT reltuples::bigint AS n FROM pg_class WHERE oid = 'items'::regclass`,
      );
      this.analyzedRows = Math.max(0, r?.n ?? 0);
    } catch {
      this.analyzedRows = null;
    }
  }

  search(q: ArchiveQueryParsed, offset: number, limit: number): Promise<ArchiveSearchResult> {
    return search(this.executor, q, offset, limit, () => performance.now());
  }

  /** A server-side cursor in a read-only snapshot, on a connection of its own until closed. */
  protected cursor<R>(q: Sql): Promise<Reader<R>> {
    return cursor<R>(this.db, q);
  }

  /** One read-only transaction on a connection of its own: the project as of now while others go on writing. */
  async snapshot(): Promise<Snapshot> {
    const { tx, end } = await readSnapshot(this.db);
    return snapshotOn(tx, end);
  }

  protected readonly copyElsewhere =
    'Copy into a new schema (another name in the same database), or into a new project file.';

  /** A copy's rows, an item's with its full-text vector. */
  protected load(tx: Db, table: TableSpec, rows: readonly TableRow[]): Promise<void> {
    if (table.name !== 'items') return insertRows(tx, table, rows);
    const indexed = rows.map((row) => {
      const f = storedFts(String(row.kind), String(row.raw));
      return { ...row, fts: tsvectorOf(f.text, f.handle, f.name, f.bio) };
    });
    return insertRows(tx, { ...table, columns: [...table.columns, 'fts'] }, indexed);
  }

  transient(error: unknown): boolean {
    return (error as { transient?: unknown } | null)?.transient === true || isTransient(error);
  }

  async close(): Promise<void> {
    this.closing = true;
    if (this.vacuumTimer) clearTimeout(this.vacuumTimer);
    await this.vacuuming;
    await this.gathering;
    await this.releaseLocks();
    await this.db.pool.end().catch(() => undefined);
  }
}
