/**
 * A project in one SQLite file (node:sqlite, FTS5 + JSON1), the embedded store: synchronous (the archive's
 * worker owns it). What both stores share it takes from common.ts; its own are ingest in batched transactions
 * with a savepoint per answer when one fails, search, readers on a read-only connection, and a copy's loading
 * (store.ts is the interface it fits).
 */
import { DatabaseSync } from 'node:sqlite';
import { sqliteExecutor, type AnyPart } from '../db';
import type { ArchiveQueryParsed, ArchiveSearchResult } from '../../shared/ipc/archive';
import type { IngestRecord } from './answer';
import { ArchiveTables, groupOf, refuseUnlessEmpty, tableCount, tableRows } from './common';
import { storedFts } from './derive';
import { createIngester } from './ingest';
import { compiled, ftsMatch, search } from './query';
import { openParts, tablesOf, type OpenParts } from './parts';
import { openProjectFile } from './schema';
import {
  type ProjectStore,
  type GroupedReader,
  type Grouping,
  type Loader,
  type RawRow,
  type RowReader,
  type Snapshot,
  type TableSpec,
} from './store';

export interface ProjectInit {
  name: string;
  kind: 'live' | 'demo';
  now: number;
  /** the name recorded with what this Skein writes (null: none given) */
  researcher?: string | null;
}

/** `it` read `max` rows at a time, each through `map`; `end` once it is read to its end or closed. */
function chunked<R, T>(it: Iterator<R>, map: (row: R) => T, end = () => {}) {
  let done = false;
  const close = () => {
    if (done) return;
    done = true;
    it.return?.();
    end();
  };
  const next = (max: number): T[] => {
    const out: T[] = [];
    while (!done && out.length < max) {
      const row = it.next();
      if (row.done) close();
      else out.push(map(row.value));
    }
    return out;
  };
  return { next, close };
}

export class ArchiveProject extends ArchiveTables implements ProjectStore {
  private readonly db: DatabaseSync;
  private readonly ingester;
  readonly tables: readonly TableSpec[];
  private opened: OpenParts = new Map();
  /** answers that could not be kept (rolled back alone) */
  skipped = 0;

  /** Opens (or creates) the project file with its parts, migrated; refuses in plain words what it will not open. */
  static async open(
    path: string,
    init: ProjectInit,
    now: () => number = Date.now,
    parts: readonly AnyPart[] = [],
  ): Promise<ArchiveProject> {
    const { db, from } = openProjectFile(path, init);
    const project = new ArchiveProject(path, db, init, now, parts);
    try {
      project.opened = await openParts(project.executor, parts, from, path, now);
    } catch (e) {
      project.close();
      throw e;
    }
    return project;
  }

  private constructor(
    readonly path: string,
    db: DatabaseSync,
    init: ProjectInit,
    now: () => number,
    parts: readonly AnyPart[],
  ) {
    super(sqliteExecutor(db), ftsMatch, now, init.researcher ?? null);
    this.db = db;
    this.ingester = createIngester(this.db, init.researcher ?? null);
    this.tables = tablesOf(parts);
  }

  get parts(): OpenParts {
    return this.opened;
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
  }

  search(q: ArchiveQueryParsed, offset: number, limit: number): ArchiveSearchResult {
    return search(this.db, q, offset, limit, () => performance.now());
  }

  /**
   * The raw items of a query (a collection in its order, with each item's thread position), a chunk at a time:
   * what a re-export writes. Read on a connection of its own in one read transaction, so the export is the
   * project as of its start while answers keep being written here.
   */
  reader(q: ArchiveQueryParsed): RowReader {
    const { sql, args } = compiled(this.rawItems(q));
    const db = new DatabaseSync(this.path, { readOnly: true });
    db.exec('BEGIN');
    return chunked(
      db.prepare(sql).iterate(...args) as Iterator<RawRow>,
      (row) => row,
      () => {
        db.exec('COMMIT');
        db.close();
      },
    );
  }

  /** A query's item ids with their group's value (null: no grouping), read a chunk at a time. */
  grouped(q: ArchiveQueryParsed, by: Grouping | null): GroupedReader {
    const { sql, args } = compiled(this.groupedItems(q, by));
    const it = this.db.prepare(sql).iterate(...args) as Iterator<{ id: string; grp: string | null }>;
    return chunked(it, (row) => ({ id: row.id, group: groupOf(by, row.grp) }));
  }

  /** A second, read-only connection in one read transaction: the file as of now, while this one goes on writing. */
  snapshot(): Snapshot {
    const db = new DatabaseSync(this.path, { readOnly: true });
    db.exec('BEGIN');
    // the read transaction's snapshot starts at its first read
    db.prepare('SELECT count(*) FROM meta').get();
    const on = sqliteExecutor(db);
    return {
      count: (table) => tableCount(on, table),
      rows: (table, after, limit) => tableRows(on, table, after, limit),
      close: () => {
        if (!db.isOpen) return;
        db.exec('COMMIT');
        db.close();
      },
    };
  }

  async loader(): Promise<Loader> {
    await refuseUnlessEmpty(
      this.executor,
      this.tables,
      this.path,
      'Copy into a new project file, or into a team schema that holds nothing yet.',
    );
    this.db.exec('BEGIN IMMEDIATE');
    const fts = this.db.prepare('INSERT INTO items_fts (rowid, text, handle, name, bio) VALUES (?, ?, ?, ?, ?)');
    return {
      add: (table, rows) => {
        if (rows.length === 0) return;
        const cols = table.columns;
        const insert = this.db.prepare(
          `INSERT ${table.name === 'meta' ? 'OR REPLACE ' : ''}INTO ${table.name} (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`,
        );
        for (const row of rows) {
          insert.run(...cols.map((c) => row[c] ?? null));
          if (table.name === 'items') {
            const f = storedFts(String(row.kind), String(row.raw));
            fts.run(row.rowid ?? null, f.text, f.handle, f.name, f.bio);
          }
        }
      },
      count: (table) => tableCount(this.executor, table),
      commit: () => this.db.exec('COMMIT'),
      rollback: () => {
        if (this.db.isTransaction) this.db.exec('ROLLBACK');
      },
    };
  }

  transient(): boolean {
    return false;
  }

  close(): void {
    if (this.db.isOpen) this.db.close();
  }
}
