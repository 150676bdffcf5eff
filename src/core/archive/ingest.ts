/**
 * One answer into the project: the request it answered (never the key), each item once by
 * (kind, id) with its raw JSON exactly as received, an earlier version kept when the item changed,
 * and the answer's envelope with each item replaced by a marker, so the answer can be rebuilt
 * (served again without a call) from one copy of every item.
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { OPERATIONS, isListOperation, type OperationId } from '../../shared/api/catalog';
import { locateItems, normalizePage } from '../../shared/api/normalize/page';
import { isObject } from '../../shared/api/normalize/values';
import { derive, deriveListItem, type Derived } from './derive';
import { itemSpans } from './spans';

/** One answer as the client received it (the body as text: the worker parses it, not main). */
export interface IngestRecord {
  operation: OperationId;
  /** canonical params without the cursor (the response store's key) */
  params: string;
  cursor: string | null;
  at: number;
  baseUrl: string;
  httpStatus: number;
  text: string;
}

/** The marker an item leaves in its answer's envelope; an answer already holding the word is kept whole. */
const ITEM_MARKER = '$skein:item';
const MARKER_RE = /\{"\$skein:item":(\d+)\}/g;

export { FLAG } from './derive';

/** the next page's cursor, at the root or under `data` (api-field-notes.md) */
function nextCursorOf(body: unknown): string | null {
  for (const scope of isObject(body) ? [body, body.data] : []) {
    const c = isObject(scope) ? scope.next_cursor : undefined;
    if (typeof c === 'string' && c !== '') return c;
  }
  return null;
}

/**
 * Each item's raw JSON and the answer's envelope (the items replaced by their markers). From the
 * text itself when the items can be found in it: each item exactly as received, the envelope
 * the text between them. Otherwise (or for an item written over several lines, which a JSONL
 * re-export could not hold on one) from the parsed body written out again.
 */
function takeOut(
  text: string,
  body: unknown,
  list: unknown[] | null,
  listPath: string,
  extracted: ReadonlyArray<{ item: unknown; index: number }>,
): { envelope: string; raws: string[] } {
  if (extracted.length === 0 || !list) return { envelope: text, raws: [] };
  const spans = itemSpans(text, listPath.split('.'), list.length);
  if (!spans) {
    const raws = extracted.map((e) => JSON.stringify(e.item));
    extracted.forEach((e, i) => (list[e.index] = { [ITEM_MARKER]: i }));
    return { envelope: JSON.stringify(body), raws };
  }
  const raws: string[] = [];
  let envelope = '';
  let at = 0;
  extracted.forEach((e, i) => {
    const [start, end] = spans[e.index] ?? [0, 0];
    const raw = text.slice(start, end);
    raws.push(raw.includes('\n') || raw.includes('\r') ? JSON.stringify(e.item) : raw);
    envelope += `${text.slice(at, start)}{"${ITEM_MARKER}":${i}}`;
    at = end;
  });
  return { envelope: envelope + text.slice(at), raws };
}

export interface Ingester {
  ingest: (record: IngestRecord) => void;
}

export function createIngester(db: DatabaseSync): Ingester {
  const s = {
    find: db.prepare('SELECT rowid, raw, last_seen, version_since FROM items WHERE kind = ? AND id = ?'),
    insert: db.prepare(
      `INSERT INTO items (kind, id, raw, first_seen, last_seen, version_since, created_at, author_handle, lang, flags, engagement)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    seen: db.prepare('UPDATE items SET last_seen = max(last_seen, ?) WHERE rowid = ?'),
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
      `INSERT INTO requests (operation, params, cursor, page_index, at, base_url, http_status, next_cursor, envelope, item_count)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    link: db.prepare('INSERT INTO request_items (request, position, item) VALUES (?, ?, ?)'),
  } satisfies Record<string, StatementSync>;

  function upsert(d: Derived, raw: string, at: number): number {
    const row = s.find.get(d.kind, d.id) as
      { rowid: number; raw: string; last_seen: number; version_since: number } | undefined;
    const cols = [d.createdAt, d.handle, d.lang, d.flags, d.engagement] as const;
    if (!row) {
      const { lastInsertRowid } = s.insert.run(d.kind, d.id, raw, at, at, at, ...cols);
      const rowid = Number(lastInsertRowid);
      s.ftsInsert.run(rowid, d.fts.text, d.fts.handle, d.fts.name, d.fts.bio);
      return rowid;
    }
    if (row.raw === raw) {
      s.seen.run(at, row.rowid);
      return row.rowid;
    }
    // an answer older than what is held (a late write) becomes an earlier version, not the current one
    if (at < row.last_seen) {
      s.version.run(row.rowid, raw, at, at);
      return row.rowid;
    }
    s.version.run(row.rowid, row.raw, row.version_since, row.last_seen);
    s.change.run(raw, at, at, ...cols, row.rowid);
    s.ftsDelete.run(row.rowid);
    s.ftsInsert.run(row.rowid, d.fts.text, d.fts.handle, d.fts.name, d.fts.bio);
    return row.rowid;
  }

  function ingest(r: IngestRecord): void {
    let body: unknown;
    try {
      body = JSON.parse(r.text);
    } catch {
      body = undefined;
    }
    const kind = OPERATIONS[r.operation].itemKind;
    /** items taken out: where the item sat in its list, the item, and what the view filters on */
    let extracted: Array<{ item: unknown; index: number; derived: Derived }> = [];
    let list: unknown[] | null = null;
    let listPath = '';
    let nextCursor: string | null = null;
    let objectItem: { raw: unknown; derived: Derived } | null = null;
    if (body !== undefined && r.httpStatus >= 200 && r.httpStatus < 300) {
      try {
        if (isListOperation(r.operation)) {
          // the list as the client's readers find it, each item read without the schema check (the
          // client already checked what it showed; the archive keeps every item that has an id)
          nextCursor = nextCursorOf(body);
          const located = locateItems(r.operation, body);
          list = located?.items ?? null;
          listPath = located?.path ?? '';
          list?.forEach((item, index) => {
            const d = deriveListItem(kind, item);
            if (d) extracted.push({ item, index, derived: d });
          });
        } else {
          const page = normalizePage(r.operation, body, r.httpStatus);
          const d = derive(kind, page.data);
          if (d) objectItem = { raw: page.rawData, derived: d };
        }
      } catch {
        // a malformed answer is kept whole in its request, with no items taken out
        extracted = [];
      }
    }
    // a body that already holds the marker word is kept whole: the marker must only ever mean an item
    if (r.text.includes(ITEM_MARKER)) extracted = [];
    const { envelope, raws } = takeOut(r.text, body, list, listPath, extracted);
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
      nextCursor,
      envelope,
      extracted.length,
    );
    const request = Number(lastInsertRowid);
    extracted.forEach((e, i) => s.link.run(request, i, upsert(e.derived, raws[i] ?? '', r.at)));
    // an object answer (a profile, a space, a community) stays whole as a timed snapshot, and its item is kept too
    const single = objectItem;
    if (single) s.link.run(request, 0, upsert(single.derived, JSON.stringify(single.raw), r.at));
  }

  return { ingest };
}

/** The answer's body text again: the envelope with each marker replaced by its item's raw JSON. */
export function rebuildBody(envelope: string, items: readonly string[]): string | null {
  let missing = false;
  const text = envelope.replace(MARKER_RE, (_m, n: string) => {
    const raw = items[Number(n)];
    if (raw === undefined) missing = true;
    return raw ?? 'null';
  });
  return missing ? null : text;
}
