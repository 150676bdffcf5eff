/**
 * One answer into a SQLite project (answer.ts made it ready): the request it answered (never the key), each item
 * once by (kind, id) with its raw JSON exactly as received, an earlier version kept when the item changed
 * (versions.ts), the counts a chart reads moved with them (counts.ts), and
 * the answer's envelope with each item replaced by a marker.
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { compile } from '../db';
import { prepareAnswer, type IngestRecord } from './answer';
import { addCountSql, countDeltas, type CountChange } from './counts';
import type { Derived } from './derive';
import { sighting } from './versions';

export interface Ingester {
  ingest: (record: IngestRecord) => void;
}

/** `researcher`: who this Skein records as having made each request (null: nobody named) */
export function createIngester(db: DatabaseSync, researcher: string | null): Ingester {
  const s = {
    find: db.prepare('SELECT rowid, raw, last_seen, version_since, created_at FROM items WHERE kind = ? AND id = ?'),
    insert: db.prepare(
      `INSERT INTO items (kind, id, raw, first_seen, last_seen, version_since, created_at, author_handle, lang, flags, engagement)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    seen: db.prepare('UPDATE items SET last_seen = ? WHERE rowid = ?'),
    change: db.prepare(
      `UPDATE items SET raw = ?, last_seen = ?, version_since = ?, created_at = ?, author_handle = ?, lang = ?, flags = ?, engagement = ?
       WHERE rowid = ?`,
    ),
    version: db.prepare('INSERT INTO item_versions (item, raw, seen_from, seen_to) VALUES (?, ?, ?, ?)'),
    ftsInsert: db.prepare('INSERT INTO items_fts (rowid, text, handle, name, bio) VALUES (?, ?, ?, ?, ?)'),
    ftsDelete: db.prepare('DELETE FROM items_fts WHERE rowid = ?'),
    previous: db.prepare(
      'SELECT page_index FROM requests WHERE operation = ? AND params = ? AND next_cursor = ? ORDER BY at DESC LIMIT 1',
    ),
    request: db.prepare(
      `INSERT INTO requests (operation, params, cursor, page_index, at, base_url, http_status, next_cursor, envelope, item_count, researcher)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    link: db.prepare('INSERT INTO request_items (request, position, item) VALUES (?, ?, ?)'),
  } satisfies Record<string, StatementSync>;
  // prepared at the first answer: the counts' table is made by its part's migration, after the ingester
  let count: StatementSync | null = null;

  function upsert(d: Derived, raw: string, at: number, counted: CountChange[]): number {
    const row = s.find.get(d.kind, d.id) as
      { rowid: number; raw: string; last_seen: number; version_since: number; created_at: number | null } | undefined;
    const cols = [d.createdAt, d.handle, d.lang, d.flags, d.engagement] as const;
    if (!row) {
      const { lastInsertRowid } = s.insert.run(d.kind, d.id, raw, at, at, at, ...cols);
      const rowid = Number(lastInsertRowid);
      s.ftsInsert.run(rowid, d.fts.text, d.fts.handle, d.fts.name, d.fts.bio);
      counted.push({ kind: d.kind, after: d.createdAt });
      return rowid;
    }
    const next = sighting({ raw: row.raw, lastSeen: row.last_seen, versionSince: row.version_since }, raw, at);
    if (next.fate === 'same') {
      s.seen.run(next.lastSeen, row.rowid);
      return row.rowid;
    }
    s.version.run(row.rowid, next.earlier.raw, next.earlier.seenFrom, next.earlier.seenTo);
    if (next.fate === 'older') return row.rowid;
    s.change.run(next.current.raw, next.current.lastSeen, next.current.versionSince, ...cols, row.rowid);
    counted.push({ kind: d.kind, before: row.created_at, after: d.createdAt });
    s.ftsDelete.run(row.rowid);
    s.ftsInsert.run(row.rowid, d.fts.text, d.fts.handle, d.fts.name, d.fts.bio);
    return row.rowid;
  }

  function ingest(r: IngestRecord): void {
    const answer = prepareAnswer(r);
    const pageIndex =
      r.cursor === null
        ? 0
        : ((s.previous.get(r.operation, r.params, r.cursor) as { page_index: number } | undefined)?.page_index ?? -1) +
          1;
    const { lastInsertRowid } = s.request.run(
      r.operation,
      r.params,
      r.cursor,
      pageIndex,
      r.at,
      r.baseUrl,
      r.httpStatus,
      answer.nextCursor,
      answer.envelope,
      answer.listed,
      researcher,
    );
    const request = Number(lastInsertRowid);
    const counted: CountChange[] = [];
    answer.items.forEach((item, i) => s.link.run(request, i, upsert(item.derived, item.raw, r.at, counted)));
    count ??= db.prepare(compile(addCountSql([['', 0, 0]]), 'sqlite').text);
    for (const [kind, slot, n] of countDeltas(counted)) count.run(kind, slot, n);
  }

  return { ingest };
}
