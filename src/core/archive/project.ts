/**
 * A project in one SQLite file (node:sqlite, FTS5 + JSON1), the embedded store: synchronous (the archive's
 * worker owns it). What both stores share it takes from common.ts; its own are ingest in batched transactions
 * with a savepoint per answer when one fails, search, readers on a read-only connection, and a copy's loading
 * (store.ts is the interface it fits).
 */
import { DatabaseSync } from 'node:sqlite';
import { sql, sqliteExecutor, type AnyPart, type Db, type SideReader, type Sql } from '../db';
import type { ArchiveQueryParsed, ArchiveSearchResult } from '../../shared/ipc/archive';
import type { IngestRecord } from './answer';
import { ArchiveTables, insertRows, snapshotOn } from './common';
import { storedFts } from './derive';
import { createIngester } from './ingest';
import { compiled, ftsMatch, search } from './query';
import { openProjectFile } from './schema';
import { type ProjectInit, type ProjectStore, type Snapshot, type TableRow, type TableSpec } from './store';

/** `it` read `max` rows at a time; `end` once it is read to its end or closed. */
function chunked<R>(it: Iterator<R>, end: () => void) {
  let done = false;
  const close = () => {
    if (done) return;
    done = true;
    it.return?.();
    end();
  };
  const next = (max: number): R[] => {
    const out: R[] = [];
    while (!done && out.length < max) {
      const row = it.next();
      if (row.done) close();
      else out.push(row.value);
    }
    return out;
  };
  return { next, close };
}

/** SQLite's own bound on the log, in pages: past it, a commit copies the log into the file */
const OWN_LOG_BOUND = 1000;
/**
 * the same while the side reader checkpoints: 256 MB of 4 KB pages. Its checkpoints wait on the disk's random
 * writes (a batch's ~40 MB took a second here), so a log bound of a few batches had the writer checkpoint itself
 * again; the log file is cut back to `LOG_KEPT` once the side reader has caught up.
 */
const SIDE_LOG_BOUND = 65_536;
/** bytes of an emptied log file kept for the next writes (SQLite keeps all of it by default) */
const LOG_KEPT = 64 * 1024 * 1024;

export class ArchiveProject extends ArchiveTables implements ProjectStore {
  private readonly db: DatabaseSync;
  private readonly ingester;
  /** a checkpoint asked of the side reader and not answered yet; another wanted after it */
  private checkpointing = false;
  private checkpointAgain = false;
  /** whether the side reader checkpoints this file (the last one asked of it was done) */
  private checkpointsBeside = false;

  /**
   * Opens (or creates) the project file with its parts, migrated; refuses in plain words what it will not open.
   * `side`: a reader on another thread a sample's draw gives half its items to (the archive's worker has one).
   */
  static async open(
    path: string,
    init: ProjectInit,
    now: () => number = Date.now,
    parts: readonly AnyPart[] = [],
    side: SideReader | null = null,
  ): Promise<ArchiveProject> {
    const { db, from } = openProjectFile(path, init);
    const project = new ArchiveProject(path, db, init, now, parts);
    project.side = side?.of(path) ?? null;
    await project.openParts(from);
    return project;
  }

  private constructor(
    readonly path: string,
    db: DatabaseSync,
    init: ProjectInit,
    now: () => number,
    parts: readonly AnyPart[],
  ) {
    super(sqliteExecutor(db), ftsMatch, now, init.researcher ?? null, parts);
    this.db = db;
    this.ingester = createIngester(this.db, init.researcher ?? null);
  }

  get location(): string {
    return this.path;
  }

  /**
   * Every record in one transaction: a crash loses the whole batch or none of it. A record that
   * cannot be kept (a bug, an answer no reader expected) is rolled back alone, not its batch: the
   * batch is written again with a savepoint per record (a savepoint each time costs ~5 % of ingest).
   */
  ingest(records: readonly IngestRecord[]): void {
    if (records.length === 0) return;
    this.db.exec('BEGIN IMMEDIATE');
    try {
      for (const r of records) this.ingester.ingest(r);
      this.db.exec('COMMIT');
      this.checkpointBeside();
      return;
    } catch {
      this.db.exec('ROLLBACK');
    }
    this.db.exec('BEGIN IMMEDIATE');
    try {
      for (const r of records) {
        this.db.exec('SAVEPOINT answer');
        try {
          this.ingester.ingest(r);
          this.db.exec('RELEASE answer');
        } catch {
          this.db.exec('ROLLBACK TO answer; RELEASE answer');
          this.skipped++;
        }
      }
      this.db.exec('COMMIT');
    } catch (e) {
      this.db.exec('ROLLBACK');
      throw e;
    }
    this.checkpointBeside();
  }

  /**
   * Has the side reader copy the log into the file, one checkpoint asked at a time (one more if batches were written
   * meanwhile). While it does, this connection checkpoints only a log grown to `SIDE_LOG_BOUND` (a side reader
   * falling behind, or a read keeping the log); while it cannot (not started yet, or stopped), it does so after a
   * commit past SQLite's own bound, as without one.
   */
  private checkpointBeside(): void {
    const side = this.side;
    if (!side) return;
    if (this.checkpointing) {
      this.checkpointAgain = true;
      return;
    }
    this.checkpointing = true;
    this.checkpointAgain = false;
    void side
      .checkpoint()
      .catch(() => false)
      .then((beside) => {
        this.checkpointing = false;
        if (!this.db.isOpen) return;
        if (beside !== this.checkpointsBeside) {
          this.checkpointsBeside = beside;
          this.db.exec(
            `PRAGMA wal_autocheckpoint = ${beside ? SIDE_LOG_BOUND : OWN_LOG_BOUND}; PRAGMA journal_size_limit = ${LOG_KEPT}`,
          );
        }
        if (beside && this.checkpointAgain) this.checkpointBeside();
      });
  }

  search(q: ArchiveQueryParsed, offset: number, limit: number): ArchiveSearchResult {
    return search(this.db, q, offset, limit, () => performance.now());
  }

  /**
   * A query's rows a chunk at a time (what a re-export writes, a query's groups), read on a connection of its
   * own in one read transaction: the project as of their start while answers keep being written here.
   */
  protected cursor<R>(q: Sql, apart = true) {
    const { sql, args } = compiled(q);
    if (!apart) return chunked(this.db.prepare(sql).iterate(...args) as Iterator<R>, () => {});
    const db = this.readConnection();
    return chunked(db.prepare(sql).iterate(...args) as Iterator<R>, () => {
      db.exec('COMMIT');
      db.close();
    });
  }

  /** A second, read-only connection in one read transaction: the file as of now, while this one goes on writing. */
  snapshot(): Snapshot {
    const db = this.readConnection();
    // the read transaction's snapshot starts at its first read
    db.prepare('SELECT count(*) FROM meta').get();
    return snapshotOn(sqliteExecutor(db), () => {
      db.exec('COMMIT');
      db.close();
    });
  }

  private readConnection(): DatabaseSync {
    const db = new DatabaseSync(this.path, { readOnly: true });
    db.exec('BEGIN');
    return db;
  }

  protected readonly copyElsewhere = 'Copy into a new project file, or into a team schema that holds nothing yet.';

  /** A copy's rows, and an item's words in the full-text index. */
  protected async load(tx: Db, table: TableSpec, rows: readonly TableRow[]): Promise<void> {
    await insertRows(tx, table, rows);
    if (table.name === 'items')
      await tx.run(
        sql`INSERT INTO items_fts (rowid, text, handle, name, bio) VALUES ${sql.rows(
          rows.map((row) => {
            const f = storedFts(String(row.kind), String(row.raw));
            return [row.rowid ?? null, f.text, f.handle, f.name, f.bio];
          }),
        )}`,
      );
  }

  transient(): boolean {
    return false;
  }

  close(): void {
    if (this.db.isOpen) this.db.close();
    // the side reader lets its connection go in its own time; one that stopped holds none
    void this.side?.forget().catch(() => undefined);
  }
}
