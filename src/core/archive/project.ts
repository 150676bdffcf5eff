/**
 * A project in one SQLite file (node:sqlite, FTS5 + JSON1), the embedded store: synchronous (the archive's
 * worker owns it), ingest in batched transactions, reads, collections, the project's name, and its copy to and
 * from another store (store.ts is the interface it fits).
 */
import { DatabaseSync, type SQLInputValue } from 'node:sqlite';
import { sqliteExecutor, type AnyPart } from '../db';
import { SkeinError } from '../../shared/errors';
import type {
  ActivityBucket,
  ArchiveActivity,
  ArchiveCollection,
  ArchiveProvenance,
  ArchiveQueryParsed,
  ArchiveSearchResult,
  ResearcherActivity,
} from '../../shared/ipc/archive';
import type { IngestRecord } from './answer';
import { storedFts } from './derive';
import { heldConversation, type HeldListing } from './conversation';
import { createIngester } from './ingest';
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
import { heldSql, openParts, tablesOf, type OpenParts } from './parts';
import { openProjectFile } from './schema';
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
} from './store';

export type { CollectionInput, HeldItem, ProjectSummary } from './store';

/** ids per `IN (…)` query */
const HELD_CHUNK = 500;

export interface ProjectInit {
  name: string;
  kind: 'live' | 'demo';
  now: number;
  /** the name recorded with what this Skein writes (null: none given) */
  researcher?: string | null;
}

/** `(a, b) > (?, ?)` and its values: the rows after a key, in key order */
function afterKey(table: TableSpec, after: TableRow | null): { sql: string; args: SQLInputValue[] } {
  if (after === null) return { sql: '1', args: [] };
  const cols = table.key.join(', ');
  return { sql: `(${cols}) > (${table.key.map(() => '?').join(', ')})`, args: table.key.map((k) => after[k] ?? null) };
}

export class ArchiveProject implements ProjectStore {
  private readonly db: DatabaseSync;
  private readonly ingester;
  private readonly researcher: string | null;
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
      project.opened = await openParts(sqliteExecutor(db), parts, from, path, now);
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
    private readonly now: () => number,
    parts: readonly AnyPart[],
  ) {
    this.db = db;
    this.researcher = init.researcher ?? null;
    this.ingester = createIngester(this.db, this.researcher);
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

  summary(): ProjectSummary {
    const meta = new Map(
      (this.db.prepare('SELECT key, value FROM meta').all() as Array<{ key: string; value: string }>).map((r) => [
        r.key,
        r.value,
      ]),
    );
    const count = (sql: string) => (this.db.prepare(sql).get() as { n: number }).n;
    const researchers = this.db
      .prepare(
        `SELECT researcher AS name, count(*) AS answers, max(at) AS lastAt FROM requests
         GROUP BY researcher ORDER BY lastAt DESC LIMIT 50`,
      )
      .all() as unknown as ResearcherActivity[];
    return {
      name: meta.get('name') ?? 'Project',
      kind: meta.get('kind') === 'demo' ? 'demo' : 'live',
      items: count('SELECT count(*) AS n FROM items'),
      requests: count('SELECT count(*) AS n FROM requests'),
      researchers,
    };
  }

  rename(name: string): void {
    this.db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('name', ?)").run(name);
  }

  search(q: ArchiveQueryParsed, offset: number, limit: number): ArchiveSearchResult {
    return search(this.db, q, offset, limit, () => performance.now());
  }

  activity(q: ArchiveQueryParsed, bucket: ActivityBucket, utcOffsetMinutes: number): ArchiveActivity {
    return activity(this.db, q, bucket, utcOffsetMinutes, this.now());
  }

  provenance(kind: string, id: string): ArchiveProvenance | null {
    return provenance(this.db, kind, id);
  }

  held(key: HeldKey): HeldAnswer | null {
    return heldAnswer(this.db, key);
  }

  forget(key: { operation: string; params: string; cursor: string | null }): void {
    forgetAnswer(this.db, key);
  }

  createCollection(c: { name: string; kind: string; manifest: unknown }): number {
    const { lastInsertRowid } = this.db
      .prepare('INSERT INTO collections (name, kind, created_at, manifest, researcher) VALUES (?, ?, ?, ?, ?)')
      .run(c.name, c.kind, this.now(), JSON.stringify(c.manifest ?? null), this.researcher);
    return Number(lastInsertRowid);
  }

  appendCollection(id: number, start: number, items: CollectionInput['items']): number {
    this.db.exec('BEGIN IMMEDIATE');
    try {
      const find = this.db.prepare('SELECT rowid FROM items WHERE kind = ? AND id = ?');
      const add = this.db.prepare(
        'INSERT OR REPLACE INTO collection_items (collection, position, item, depth, place) VALUES (?, ?, ?, ?, ?)',
      );
      let kept = 0;
      items.forEach((it, i) => {
        const row = find.get(it.kind, it.id) as { rowid: number } | undefined;
        if (!row) return;
        add.run(id, start + i, row.rowid, it.depth, it.place ?? null);
        kept++;
      });
      this.db.exec('COMMIT');
      return kept;
    } catch (e) {
      this.db.exec('ROLLBACK');
      throw e;
    }
  }

  addCollection(c: CollectionInput): number {
    const id = this.createCollection(c);
    this.appendCollection(id, 0, c.items);
    return id;
  }

  collections(): ArchiveCollection[] {
    return (
      this.db
        .prepare(
          `SELECT c.rowid AS id, c.name AS name, c.kind AS kind, c.created_at AS created_at, c.researcher AS researcher,
            (SELECT count(*) FROM collection_items x WHERE x.collection = c.rowid) AS items
           FROM collections c ORDER BY c.created_at DESC, c.rowid DESC`,
        )
        .all() as Array<{
        id: number;
        name: string;
        kind: string;
        created_at: number;
        items: number;
        researcher: string | null;
      }>
    ).map((r) => ({
      id: r.id,
      name: r.name,
      kind: r.kind,
      createdAt: r.created_at,
      items: r.items,
      researcher: r.researcher,
    }));
  }

  /**
   * The raw items of a query (a collection in its order, with each item's thread position), a chunk at a time:
   * what a re-export writes. Read on a connection of its own in one read transaction, so the export is the
   * project as of its start while answers keep being written here.
   */
  reader(q: ArchiveQueryParsed): RowReader {
    const { sql, args } = whereOf(q);
    const columns = `i.id AS id, i.raw AS raw, i.first_seen AS firstSeen, i.last_seen AS lastSeen, ${LATEST_REQUEST} AS request`;
    const statement =
      q.collection !== undefined
        ? `SELECT ${columns}, x.place AS place FROM collection_items x JOIN items i ON i.rowid = x.item
           WHERE x.collection = ? AND ${sql} ORDER BY x.position`
        : `SELECT ${columns}, NULL AS place FROM items i WHERE ${sql} ORDER BY i.created_at, i.rowid`;
    const db = new DatabaseSync(this.path, { readOnly: true });
    db.exec('BEGIN');
    const it = db
      .prepare(statement)
      .iterate(...(q.collection !== undefined ? [q.collection] : []), ...args) as Iterator<RawRow>;
    let done = false;
    const close = () => {
      if (done) return;
      done = true;
      it.return?.();
      db.exec('COMMIT');
      db.close();
    };
    return {
      next: (max) => {
        const out: RawRow[] = [];
        while (!done && out.length < max) {
          const next = it.next();
          if (next.done) close();
          else out.push(next.value);
        }
        return out;
      },
      close,
    };
  }

  /** The requests a query's items were last returned by (`reader`'s `request`), oldest first: a re-export's sources. */
  requestsOf(q: ArchiveQueryParsed): SourceRequest[] {
    const { sql, args } = whereOf(q);
    const items =
      q.collection !== undefined
        ? `SELECT ${LATEST_REQUEST} AS request FROM collection_items x JOIN items i ON i.rowid = x.item WHERE x.collection = ? AND ${sql}`
        : `SELECT ${LATEST_REQUEST} AS request FROM items i WHERE ${sql}`;
    return this.db
      .prepare(
        `SELECT q.rowid AS id, q.operation AS operation, q.params AS params, q.cursor AS cursor, q.page_index AS pageIndex,
           q.at AS at, q.base_url AS baseUrl, q.http_status AS httpStatus, q.item_count AS items
         FROM requests q WHERE q.rowid IN (${items}) ORDER BY q.at, q.rowid`,
      )
      .all(...(q.collection !== undefined ? [q.collection] : []), ...args) as unknown as SourceRequest[];
  }

  /** The reply listings of a post the project holds, one per order (what an export's estimate reads). */
  conversation(rootId: string): Promise<HeldListing[]> {
    return heldConversation(this.db, rootId);
  }

  heldItems(kind: 'post' | 'user', ids: readonly string[], withRaw: boolean): HeldItem[] {
    const out: HeldItem[] = [];
    for (let i = 0; i < ids.length; i += HELD_CHUNK) {
      const chunk = ids.slice(i, i + HELD_CHUNK);
      const rows = this.db
        .prepare(
          `SELECT id, ${withRaw ? 'raw' : "'' AS raw"}, last_seen AS at FROM items WHERE kind = ? AND id IN (${chunk.map(() => '?').join(',')})`,
        )
        .all(kind, ...chunk) as unknown as HeldItem[];
      out.push(...rows);
    }
    return out;
  }

  groupCounts(q: ArchiveQueryParsed, by: Grouping | null, limit: number): GroupCounts {
    return groupCounts(this.db, q, by, limit);
  }

  grouped(q: ArchiveQueryParsed, by: Grouping | null): GroupedReader {
    return grouped(this.db, q, by);
  }

  accountOf(ref: { userId?: string; handle?: string }): { userId: string | null; handle: string | null } {
    return accountOf(this.db, ref);
  }

  meta(key: string): string | null {
    const r = this.db.prepare('SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | undefined;
    return r?.value ?? null;
  }

  setMeta(key: string, value: string): void {
    this.db.prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)').run(key, value);
  }

  /** A second, read-only connection in one read transaction: the file as of now, while this one goes on writing. */
  snapshot(): Snapshot {
    const db = new DatabaseSync(this.path, { readOnly: true });
    db.exec('BEGIN');
    // the read transaction's snapshot starts at its first read
    db.prepare('SELECT count(*) FROM meta').get();
    return {
      count: (table) => (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n,
      rows: (table, after, limit) => {
        const { sql, args } = afterKey(table, after);
        return db
          .prepare(
            `SELECT ${table.columns.join(', ')} FROM ${table.name} WHERE ${sql} ORDER BY ${table.key.join(', ')} LIMIT ?`,
          )
          .all(...args, limit) as TableRow[];
      },
      close: () => {
        if (!db.isOpen) return;
        db.exec('COMMIT');
        db.close();
      },
    };
  }

  loader(): Loader {
    const held = this.db.prepare(`SELECT ${heldSql(this.tables)} AS n`).get() as { n: number };
    if (held.n > 0)
      throw new SkeinError(
        'write-failed',
        `${this.path} already holds items, codes or watches: a project is copied only into an empty one.`,
        {
          action: 'Copy into a new project file, or into a team schema that holds nothing yet.',
        },
      );
    this.db.exec('BEGIN IMMEDIATE');
    const fts = this.db.prepare('INSERT INTO items_fts (rowid, text, handle, name, bio) VALUES (?, ?, ?, ?, ?)');
    const count = (table: TableName) =>
      (this.db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
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
      count,
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
