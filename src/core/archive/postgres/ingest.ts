/**
 * A batch of answers into a team project, in one transaction and a handful of statements whatever its size:
 * what the batch's items are already held as is read in one query, each item's fate (new, seen again, changed:
 * its earlier version kept, or an older answer: kept as an earlier version) follows the one rule both stores
 * keep (../versions.ts), item by item in order, and the rows go in as JSON sets. Writers of one project
 * take its advisory lock for the transaction, so two Skeins never interleave their upserts of the same item:
 * readers are never blocked (MVCC), and an item is always one row.
 */
import type { PreparedAnswer } from '../answer';
import { addCounts } from '../counts';
import type { Derived } from '../derive';
import { sighting } from '../versions';
import { tsvectorOf } from './fts';
import { sql, toPg, type Db } from '../../db';

/** An answer parsed, each item's full-text vector built: all the batch's work that needs no database. */
export type PgAnswer = PreparedAnswer & { tsv: string[] };

export function withVectors(answer: PreparedAnswer): PgAnswer {
  return {
    ...answer,
    tsv: answer.items.map(({ derived: d }) => tsvectorOf(d.fts.text, d.fts.handle, d.fts.name, d.fts.bio)),
  };
}

interface ItemState {
  rowid: number;
  raw: string;
  /** the full-text vector of `derived` */
  tsv: string;
  /** a new item's first sighting in this batch */
  firstSeen: number;
  lastSeen: number;
  versionSince: number;
  /** the creation time the project held before this batch (a held item's) */
  heldCreatedAt: number | null;
  derived: Derived;
  /** new: inserted; changed: every column written; seen: last_seen only */
  fate: 'new' | 'changed' | 'seen' | 'same';
}

const keyOf = (kind: string, id: string) => `${kind}\u0000${id}`;

/** Rows as a JSON set, each string as stored (the codec: JSON's text never holds a NUL the column could not). */
const recordset = (rows: readonly object[]): string =>
  JSON.stringify(rows, (_, v: unknown) => (typeof v === 'string' ? toPg(v) : v));

/**
 * Text a statement's JSON set carries at most (UTF-16 code units): a batch (up to 8 MB of answers) goes in as a
 * few statements, so the JSON text and the driver's buffer of each stay a few MB, not the batch's size twice over.
 */
const STATEMENT_TEXT = 2_000_000;

/** `rows` in consecutive slices whose `size`s add up to at most `max` (a row larger than that alone). */
function slices<T>(rows: readonly T[], size: (row: T) => number, max = STATEMENT_TEXT): T[][] {
  const out: T[][] = [];
  let slice: T[] = [];
  let held = 0;
  for (const row of rows) {
    const n = size(row);
    if (slice.length > 0 && held + n > max) {
      out.push(slice);
      slice = [];
      held = 0;
    }
    slice.push(row);
    held += n;
  }
  if (slice.length > 0) out.push(slice);
  return out;
}

const itemText = (s: { raw: string; tsv: string }) => s.raw.length + s.tsv.length;

/** `n` new ids of a table's identity column, allocated at once. */
async function newIds(tx: Db, table: string, n: number): Promise<number[]> {
  if (n === 0) return [];
  const rows = await tx.all<{ id: number }>(
    sql`SELECT nextval(pg_get_serial_sequence(${table}, 'rowid')) AS id FROM generate_series(1, ${n})`,
  );
  return rows.map((row) => row.id);
}

/**
 * Writes the answers inside the caller's transaction (under the project's lock): requests, items and their
 * versions, and the links. Values go in as JSON sets (`recordset`); what is read comes back decoded.
 */
export async function writeAnswers(tx: Db, answers: readonly PgAnswer[], researcher: string | null): Promise<void> {
  if (answers.length === 0) return;

  // --- page indexes: a page's index is one more than the answer whose next cursor it was asked with
  const asked = answers.filter((a) => a.record.cursor !== null);
  const earlier = new Map<string, number>();
  const pageKey = (operation: string, params: string, cursor: string) => `${operation}\u0000${params}\u0000${cursor}`;
  if (asked.length > 0) {
    const keys = asked.map(({ record: r }) => ({ operation: r.operation, params: r.params, cursor: r.cursor ?? '' }));
    const rows = await tx.all<{ operation: string; params: string; next_cursor: string; page_index: number }>(
      sql`SELECT DISTINCT ON (q.operation, q.params, q.next_cursor) q.operation, q.params, q.next_cursor, q.page_index
          FROM json_to_recordset(${recordset(keys)}::json) AS k(operation text, params text, cursor text)
          JOIN requests q ON q.operation = k.operation AND md5(q.params) = md5(k.params) AND q.params = k.params
            AND md5(q.next_cursor) = md5(k.cursor) AND q.next_cursor = k.cursor
          ORDER BY q.operation, q.params, q.next_cursor, q.at DESC`,
    );
    for (const row of rows) earlier.set(pageKey(row.operation, row.params, row.next_cursor), row.page_index);
  }

  // --- items: what is held of each, then each occurrence in order, as the SQLite store would one at a time
  const wanted = new Map<string, { kind: string; id: string }>();
  for (const a of answers)
    for (const it of a.items)
      wanted.set(keyOf(it.derived.kind, it.derived.id), { kind: it.derived.kind, id: it.derived.id });
  const state = new Map<string, ItemState>();
  if (wanted.size > 0) {
    const held = await tx.all<{
      rowid: number;
      kind: string;
      id: string;
      raw: string;
      last_seen: number;
      version_since: number;
      created_at: number | null;
    }>(
      sql`SELECT i.rowid, i.kind, i.id, i.raw, i.last_seen, i.version_since, i.created_at
          FROM json_to_recordset(${recordset([...wanted.values()])}::json) AS k(kind text, id text)
          JOIN items i ON i.kind = k.kind AND i.id = k.id`,
    );
    for (const row of held)
      state.set(keyOf(row.kind, row.id), {
        rowid: row.rowid,
        raw: row.raw,
        tsv: '',
        firstSeen: 0,
        lastSeen: row.last_seen,
        versionSince: row.version_since,
        heldCreatedAt: row.created_at === null ? null : Number(row.created_at),
        derived: null as unknown as Derived,
        fate: 'same',
      });
  }
  const fresh = [...wanted.keys()].filter((k) => !state.has(k));
  const ids = await newIds(tx, 'items', fresh.length);
  const freshIds = new Map(fresh.map((k, i) => [k, ids[i] ?? 0]));
  const versions: Array<{ item: number; raw: string; seen_from: number; seen_to: number }> = [];
  const links: Array<{ item: number }[]> = [];
  for (const a of answers) {
    const at = a.record.at;
    const linked: { item: number }[] = [];
    for (const [index, { derived, raw }] of a.items.entries()) {
      const tsv = a.tsv[index] ?? '';
      const key = keyOf(derived.kind, derived.id);
      let s = state.get(key);
      if (!s) {
        s = {
          rowid: freshIds.get(key) ?? 0,
          raw,
          tsv,
          firstSeen: at,
          lastSeen: at,
          versionSince: at,
          heldCreatedAt: null,
          derived,
          fate: 'new',
        };
        state.set(key, s);
      } else {
        const next = sighting(s, raw, at);
        if (next.fate === 'same') {
          if (next.lastSeen > s.lastSeen && s.fate === 'same') s.fate = 'seen';
          s.lastSeen = next.lastSeen;
        } else {
          const e = next.earlier;
          versions.push({ item: s.rowid, raw: e.raw, seen_from: e.seenFrom, seen_to: e.seenTo });
          if (next.fate === 'changed') {
            Object.assign(s, next.current, { derived, tsv });
            if (s.fate !== 'new') s.fate = 'changed';
          }
        }
      }
      linked.push({ item: s.rowid });
    }
    links.push(linked);
  }

  const itemRow = (s: ItemState) => ({
    rowid: s.rowid,
    kind: s.derived.kind,
    id: s.derived.id,
    raw: s.raw,
    first_seen: s.firstSeen,
    last_seen: s.lastSeen,
    version_since: s.versionSince,
    created_at: s.derived.createdAt,
    author_handle: s.derived.handle,
    lang: s.derived.lang,
    flags: s.derived.flags,
    engagement: s.derived.engagement,
    fts: s.tsv,
  });
  const all = [...state.values()];
  const created = all.filter((s) => s.fate === 'new');
  for (const slice of slices(created, itemText))
    await tx.run(
      sql`INSERT INTO items (rowid, kind, id, raw, first_seen, last_seen, version_since, created_at, author_handle, lang, flags, engagement, fts)
          SELECT rowid, kind, id, raw, first_seen, last_seen, version_since, created_at, author_handle, lang, flags, engagement, fts::tsvector
          FROM json_to_recordset(${recordset(slice.map(itemRow))}::json) AS x(rowid bigint, kind text, id text, raw text,
            first_seen bigint, last_seen bigint, version_since bigint, created_at bigint, author_handle text, lang text,
            flags integer, engagement bigint, fts text)
          ORDER BY rowid`,
    );
  const changed = all.filter((s) => s.fate === 'changed');
  for (const slice of slices(changed, itemText))
    await tx.run(
      sql`UPDATE items i SET raw = x.raw, last_seen = x.last_seen, version_since = x.version_since, created_at = x.created_at,
            author_handle = x.author_handle, lang = x.lang, flags = x.flags, engagement = x.engagement, fts = x.fts::tsvector
          FROM json_to_recordset(${recordset(slice.map(itemRow))}::json) AS x(rowid bigint, raw text, last_seen bigint,
            version_since bigint, created_at bigint, author_handle text, lang text, flags integer, engagement bigint, fts text)
          WHERE i.rowid = x.rowid`,
    );
  // the chart's counts, in the same transaction: a new item counted once, a changed one moved if its time did
  await addCounts(tx, [
    ...created.map((s) => ({ kind: s.derived.kind, after: s.derived.createdAt })),
    ...changed.map((s) => ({ kind: s.derived.kind, before: s.heldCreatedAt, after: s.derived.createdAt })),
  ]);
  const seen = all.filter((s) => s.fate === 'seen');
  if (seen.length > 0)
    await tx.run(
      sql`UPDATE items i SET last_seen = greatest(i.last_seen, x.last_seen)
          FROM json_to_recordset(${recordset(seen.map((s) => ({ rowid: s.rowid, last_seen: s.lastSeen })))}::json)
            AS x(rowid bigint, last_seen bigint)
          WHERE i.rowid = x.rowid`,
    );
  for (const slice of slices(versions, (v) => v.raw.length))
    await tx.run(
      sql`INSERT INTO item_versions (item, raw, seen_from, seen_to)
          SELECT item, raw, seen_from, seen_to
          FROM json_to_recordset(${recordset(slice)}::json) AS x(item bigint, raw text, seen_from bigint, seen_to bigint)`,
    );

  // --- the requests, numbered in order, then each one's items
  const requestIds = await newIds(tx, 'requests', answers.length);
  const rows = answers.map((a, n) => {
    const r = a.record;
    const pageIndex = r.cursor === null ? 0 : (earlier.get(pageKey(r.operation, r.params, r.cursor)) ?? -1) + 1;
    // a later page of the same query in this batch finds this one
    if (a.nextCursor !== null) earlier.set(pageKey(r.operation, r.params, a.nextCursor), pageIndex);
    return {
      rowid: requestIds[n] ?? 0,
      operation: r.operation,
      params: r.params,
      cursor: r.cursor,
      page_index: pageIndex,
      at: r.at,
      base_url: r.baseUrl,
      http_status: r.httpStatus,
      next_cursor: a.nextCursor,
      envelope: a.envelope,
      item_count: a.listed,
      researcher,
    };
  });
  await tx.run(
    sql`INSERT INTO requests (rowid, operation, params, cursor, page_index, at, base_url, http_status, next_cursor, envelope, item_count, researcher)
        SELECT * FROM json_to_recordset(${recordset(rows)}::json) AS x(rowid bigint, operation text, params text, cursor text,
          page_index integer, at bigint, base_url text, http_status integer, next_cursor text, envelope text,
          item_count integer, researcher text)`,
  );
  const request: number[] = [];
  const position: number[] = [];
  const item: number[] = [];
  links.forEach((linked, n) =>
    linked.forEach((l, i) => {
      request.push(requestIds[n] ?? 0);
      position.push(i);
      item.push(l.item);
    }),
  );
  if (item.length > 0)
    await tx.run(
      sql`INSERT INTO request_items (request, position, item)
          SELECT * FROM unnest(CAST(${request} AS bigint[]), CAST(${position} AS int[]), CAST(${item} AS bigint[]))`,
    );
}
