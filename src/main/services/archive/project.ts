/**
 * One open project file, synchronous (the archive worker owns it): ingest in batched
 * transactions, reads, collections and the project's name.
 */
import type { DatabaseSync } from 'node:sqlite';
import type {
  ActivityBucket,
  ArchiveActivity,
  ArchiveCollection,
  ArchiveProvenance,
  ArchiveQueryParsed,
  ArchiveSearchResult,
} from '../../../shared/ipc/archive';
import { createIngester, type IngestRecord } from './ingest';
import { activity, heldAnswer, provenance, search, whereOf, type HeldAnswer } from './query';
import { openProjectFile } from './schema';

export interface ProjectSummary {
  name: string;
  kind: 'live' | 'demo';
  items: number;
  requests: number;
}

export interface CollectionInput {
  name: string;
  kind: string;
  manifest: unknown;
  /** in order; depth is the item's place in a thread (null outside one) */
  items: Array<{ kind: string; id: string; depth: number | null }>;
}

export class ArchiveProject {
  private readonly db: DatabaseSync;
  private readonly ingester;

  constructor(
    readonly path: string,
    init: { name: string; kind: 'live' | 'demo'; now: number },
    private readonly now: () => number = Date.now,
  ) {
    this.db = openProjectFile(path, init);
    this.ingester = createIngester(this.db);
  }

  /** Every record in one transaction: a crash loses the whole batch or none of it. */
  ingest(records: readonly IngestRecord[]): void {
    if (records.length === 0) return;
    this.db.exec('BEGIN IMMEDIATE');
    try {
      for (const r of records) this.ingester.ingest(r);
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
    return {
      name: meta.get('name') ?? 'Project',
      kind: meta.get('kind') === 'demo' ? 'demo' : 'live',
      items: count('SELECT count(*) AS n FROM items'),
      requests: count('SELECT count(*) AS n FROM requests'),
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

  held(key: Parameters<typeof heldAnswer>[1]): HeldAnswer | null {
    return heldAnswer(this.db, key);
  }

  addCollection(c: CollectionInput): number {
    this.db.exec('BEGIN IMMEDIATE');
    try {
      const { lastInsertRowid } = this.db
        .prepare('INSERT INTO collections (name, kind, created_at, manifest) VALUES (?, ?, ?, ?)')
        .run(c.name, c.kind, this.now(), JSON.stringify(c.manifest ?? null));
      const id = Number(lastInsertRowid);
      const find = this.db.prepare('SELECT rowid FROM items WHERE kind = ? AND id = ?');
      const add = this.db.prepare(
        'INSERT INTO collection_items (collection, position, item, depth) VALUES (?, ?, ?, ?)',
      );
      let position = 0;
      for (const it of c.items) {
        const row = find.get(it.kind, it.id) as { rowid: number } | undefined;
        if (row) add.run(id, position++, row.rowid, it.depth);
      }
      this.db.exec('COMMIT');
      return id;
    } catch (e) {
      this.db.exec('ROLLBACK');
      throw e;
    }
  }

  collections(): ArchiveCollection[] {
    return (
      this.db
        .prepare(
          `SELECT c.rowid AS id, c.name AS name, c.kind AS kind, c.created_at AS created_at,
            (SELECT count(*) FROM collection_items x WHERE x.collection = c.rowid) AS items
           FROM collections c ORDER BY c.created_at DESC`,
        )
        .all() as Array<{ id: number; name: string; kind: string; created_at: number; items: number }>
    ).map((r) => ({ id: r.id, name: r.name, kind: r.kind, createdAt: r.created_at, items: r.items }));
  }

  /** The raw items of a query (a collection in its order), in chunks: what a re-export writes. */
  *rawItems(q: ArchiveQueryParsed, chunk = 1_000): Generator<Array<{ id: string; raw: string }>> {
    const { sql, args } = whereOf(q);
    const order =
      q.collection !== undefined
        ? `(SELECT min(position) FROM collection_items x WHERE x.collection = ${Number(q.collection)} AND x.item = i.rowid)`
        : 'i.created_at, i.rowid';
    let offset = 0;
    for (;;) {
      const rows = this.db
        .prepare(`SELECT i.id AS id, i.raw AS raw FROM items i WHERE ${sql} ORDER BY ${order} LIMIT ? OFFSET ?`)
        .all(...args, chunk, offset) as Array<{ id: string; raw: string }>;
      if (rows.length === 0) return;
      yield rows;
      offset += rows.length;
    }
  }

  close(): void {
    if (this.db.isOpen) this.db.close();
  }
}
