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
} from '../../shared/ipc/archive';
import { CodingStore } from './coding';
import { heldConversation, type HeldListing } from './conversation';
import { createIngester, type IngestRecord } from './ingest';
import { activity, forgetAnswer, heldAnswer, provenance, readItem, search, whereOf, type HeldAnswer } from './query';
import { openProjectFile } from './schema';
import { WatchTables } from './watches';

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
  /** in order; depth and place (JSON `{root_id, parent_id, depth}`) say where it sits in a thread (null outside one) */
  items: Array<{ kind: string; id: string; depth: number | null; place?: string | null }>;
}

/** ids per `IN (…)` query */
const HELD_CHUNK = 500;

/** An item the project holds: its raw JSON as last received (empty when not asked for) and when (epoch ms). */
/** An item as a re-export reads it (`rawItems`). */
export interface RawItem {
  id: string;
  raw: string;
  place: string | null;
  /** when the project first and last received it (ms) */
  firstSeen: number;
  lastSeen: number;
  /** the request that last returned it (a `requests` rowid), or null */
  request: number | null;
}

/** A request a re-export's items came from (`requestsOf`): what was asked (never the key), when, what came. */
export interface SourceRequest {
  id: number;
  operation: string;
  /** the request's canonical params, as JSON */
  params: string;
  cursor: string | null;
  /** its page's place in its listing (0: the first page) */
  pageIndex: number;
  at: number;
  baseUrl: string;
  httpStatus: number;
  items: number;
}

/** The request that last returned item `i` (the newest answer holding it: its raw JSON is that answer's). */
const LATEST_REQUEST = `(SELECT r.request FROM request_items r JOIN requests rq ON rq.rowid = r.request
  WHERE r.item = i.rowid ORDER BY rq.at DESC, r.request DESC LIMIT 1)`;

export interface HeldItem {
  id: string;
  raw: string;
  at: number;
}

export class ArchiveProject {
  private readonly db: DatabaseSync;
  private readonly ingester;
  /** codebooks, coders, values, samples (issue 36) */
  readonly coding: CodingStore;
  /** the project's watches (issue 35) */
  readonly watches: WatchTables;
  /** answers that could not be kept (rolled back alone) */
  skipped = 0;

  constructor(
    readonly path: string,
    init: { name: string; kind: 'live' | 'demo'; now: number },
    private readonly now: () => number = Date.now,
  ) {
    this.db = openProjectFile(path, init);
    this.ingester = createIngester(this.db);
    this.coding = new CodingStore(this.db, now);
    this.watches = new WatchTables(this.db);
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

  forget(key: Parameters<typeof forgetAnswer>[1]): void {
    forgetAnswer(this.db, key);
  }

  /** A new, empty collection; its items come in `appendCollection` chunks (an export may hold millions). */
  createCollection(c: { name: string; kind: string; manifest: unknown }): number {
    const { lastInsertRowid } = this.db
      .prepare('INSERT INTO collections (name, kind, created_at, manifest) VALUES (?, ?, ?, ?)')
      .run(c.name, c.kind, this.now(), JSON.stringify(c.manifest ?? null));
    return Number(lastInsertRowid);
  }

  /** Items of a collection, in order from `start`; an item the project does not hold is left out. Returns how many were kept. */
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
          `SELECT c.rowid AS id, c.name AS name, c.kind AS kind, c.created_at AS created_at,
            (SELECT count(*) FROM collection_items x WHERE x.collection = c.rowid) AS items
           FROM collections c ORDER BY c.created_at DESC`,
        )
        .all() as Array<{ id: number; name: string; kind: string; created_at: number; items: number }>
    ).map((r) => ({ id: r.id, name: r.name, kind: r.kind, createdAt: r.created_at, items: r.items }));
  }

  /**
   * The raw items of a query (a collection in its order, with each item's thread position), one at a time:
   * what a re-export writes. Each with when the project first and last received it and the request that last
   * returned it (its raw JSON is that answer's).
   */
  rawItems(q: ArchiveQueryParsed): Iterator<RawItem> {
    const { sql, args } = whereOf(q);
    const columns = `i.id AS id, i.raw AS raw, i.first_seen AS firstSeen, i.last_seen AS lastSeen, ${LATEST_REQUEST} AS request`;
    const statement =
      q.collection !== undefined
        ? `SELECT ${columns}, x.place AS place FROM collection_items x JOIN items i ON i.rowid = x.item
           WHERE x.collection = ? AND ${sql} ORDER BY x.position`
        : `SELECT ${columns}, NULL AS place FROM items i WHERE ${sql} ORDER BY i.created_at, i.rowid`;
    return this.db
      .prepare(statement)
      .iterate(...(q.collection !== undefined ? [q.collection] : []), ...args) as Iterator<RawItem>;
  }

  /** The requests a query's items were last returned by (`rawItems`' `request`), oldest first: a re-export's sources. */
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
  conversation(rootId: string): HeldListing[] {
    return heldConversation(this.db, rootId);
  }

  /**
   * Which of these ids the project holds as items of `kind` (post, user), with their raw JSON as last received
   * and when (`withRaw`: false asks for the ids only, for a quote). Asked in chunks: a hydration's list is never
   * sent whole.
   */
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

  /**
   * Items as the coding views show them (posts cut to cards, accounts as read), in the order asked; an item the
   * project does not hold (or no longer reads) is null.
   */
  codedItems(
    refs: ReadonlyArray<{ kind: 'post' | 'user'; id: string }>,
  ): Array<{ kind: 'post' | 'user'; id: string; item: unknown }> {
    const raw = new Map<string, string>();
    for (const kind of ['post', 'user'] as const) {
      const ids = refs.filter((r) => r.kind === kind).map((r) => r.id);
      for (const held of this.heldItems(kind, ids, true)) raw.set(`${kind}:${held.id}`, held.raw);
    }
    return refs.map((r) => {
      const text = raw.get(`${r.kind}:${r.id}`);
      try {
        return { kind: r.kind, id: r.id, item: text === undefined ? null : readItem(r.kind, text) };
      } catch {
        // an item that no longer reads is shown as not held
        return { kind: r.kind, id: r.id, item: null };
      }
    });
  }

  close(): void {
    if (this.db.isOpen) this.db.close();
  }
}
