/**
 * A batch of answers into a team project, in one transaction and a handful of statements whatever its size:
 * what the batch's items are already held as is read in one query, each item's fate (new, seen again, changed:
 * its earlier version kept, or an older answer: kept as an earlier version) follows the one rule both stores
 * keep (../versions.ts), item by item in order, and the rows go in as JSON sets. Writers of one project
 * take its advisory lock for the transaction, so two Skeins never interleave their upserts of the same item:
 * readers are never blocked (MVCC), and an item is always one row.
 */
import type { PoolClient } from 'pg';
import type { PreparedAnswer } from '../answer';
import type { Derived } from '../derive';
import { sighting } from '../versions';
import { tsvectorOf } from './fts';
import { lockSql } from './schema';
import { fromPg, toPg, toPgOrNull } from '../../db';

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
  derived: Derived;
  /** new: inserted; changed: every column written; seen: last_seen only */
  fate: 'new' | 'changed' | 'seen' | 'same';
}

const keyOf = (kind: string, id: string) => `${kind}\u0000${id}`;

/** `n` new ids of a table's identity column, allocated at once. */
async function newIds(client: PoolClient, table: string, n: number): Promise<number[]> {
  if (n === 0) return [];
  const r = await client.query<{ id: number }>(
    `SELECT nextval(pg_get_serial_sequence('${table}', 'rowid')) AS id FROM generate_series(1, $1)`,
    [n],
  );
  return r.rows.map((row) => row.id);
}

/** Writes the answers (inside the caller's transaction): requests, items and their versions, and the links. */
export async function writeAnswers(
  client: PoolClient,
  schema: string,
  answers: readonly PgAnswer[],
  researcher: string | null,
): Promise<void> {
  if (answers.length === 0) return;
  await client.query(lockSql(schema));

  // --- page indexes: a page's index is one more than the answer whose next cursor it was asked with
  const asked = answers.filter((a) => a.record.cursor !== null);
  const earlier = new Map<string, number>();
  const pageKey = (operation: string, params: string, cursor: string) => `${operation}\u0000${params}\u0000${cursor}`;
  if (asked.length > 0) {
    const r = await client.query<{ operation: string; params: string; next_cursor: string; page_index: number }>(
      `SELECT DISTINCT ON (q.operation, q.params, q.next_cursor) q.operation, q.params, q.next_cursor, q.page_index
       FROM json_to_recordset($1::json) AS k(operation text, params text, cursor text)
       JOIN requests q ON q.operation = k.operation AND md5(q.params) = md5(k.params) AND q.params = k.params
         AND md5(q.next_cursor) = md5(k.cursor) AND q.next_cursor = k.cursor
       ORDER BY q.operation, q.params, q.next_cursor, q.at DESC`,
      [
        JSON.stringify(
          asked.map((a) => ({
            operation: toPg(a.record.operation),
            params: toPg(a.record.params),
            cursor: toPg(a.record.cursor ?? ''),
          })),
        ),
      ],
    );
    // read back as stored (encoded): the map's keys are the stored spellings
    for (const row of r.rows) earlier.set(pageKey(row.operation, row.params, row.next_cursor), row.page_index);
  }

  // --- items: what is held of each, then each occurrence in order, as the SQLite store would one at a time
  const wanted = new Map<string, { kind: string; id: string }>();
  for (const a of answers)
    for (const it of a.items)
      wanted.set(keyOf(it.derived.kind, it.derived.id), { kind: it.derived.kind, id: it.derived.id });
  const state = new Map<string, ItemState>();
  if (wanted.size > 0) {
    const held = await client.query<{
      rowid: number;
      kind: string;
      id: string;
      raw: string;
      last_seen: number;
      version_since: number;
    }>(
      `SELECT i.rowid, k.kind, k.id, i.raw, i.last_seen, i.version_since
       FROM json_to_recordset($1::json) AS k(kind text, id text, skind text, sid text)
       JOIN items i ON i.kind = k.skind AND i.id = k.sid`,
      [
        JSON.stringify(
          [...wanted.values()].map((w) => ({ kind: w.kind, id: w.id, skind: toPg(w.kind), sid: toPg(w.id) })),
        ),
      ],
    );
    for (const row of held.rows)
      state.set(keyOf(row.kind, row.id), {
        rowid: row.rowid,
        raw: fromPg(row.raw),
        tsv: '',
        firstSeen: 0,
        lastSeen: row.last_seen,
        versionSince: row.version_since,
        derived: null as unknown as Derived,
        fate: 'same',
      });
  }
  const fresh = [...wanted.keys()].filter((k) => !state.has(k));
  const ids = await newIds(client, 'items', fresh.length);
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
    kind: toPg(s.derived.kind),
    id: toPg(s.derived.id),
    raw: toPg(s.raw),
    first_seen: s.firstSeen,
    last_seen: s.lastSeen,
    version_since: s.versionSince,
    created_at: s.derived.createdAt,
    author_handle: toPgOrNull(s.derived.handle),
    lang: toPgOrNull(s.derived.lang),
    flags: s.derived.flags,
    engagement: s.derived.engagement,
    fts: s.tsv,
  });
  const all = [...state.values()];
  const created = all.filter((s) => s.fate === 'new');
  if (created.length > 0)
    await client.query(
      `INSERT INTO items (rowid, kind, id, raw, first_seen, last_seen, version_since, created_at, author_handle, lang, flags, engagement, fts)
       SELECT rowid, kind, id, raw, first_seen, last_seen, version_since, created_at, author_handle, lang, flags, engagement, fts::tsvector
       FROM json_to_recordset($1::json) AS x(rowid bigint, kind text, id text, raw text, first_seen bigint, last_seen bigint,
         version_since bigint, created_at bigint, author_handle text, lang text, flags integer, engagement bigint, fts text)
       ORDER BY rowid`,
      [JSON.stringify(created.map(itemRow))],
    );
  const changed = all.filter((s) => s.fate === 'changed');
  if (changed.length > 0)
    await client.query(
      `UPDATE items i SET raw = x.raw, last_seen = x.last_seen, version_since = x.version_since, created_at = x.created_at,
         author_handle = x.author_handle, lang = x.lang, flags = x.flags, engagement = x.engagement, fts = x.fts::tsvector
       FROM json_to_recordset($1::json) AS x(rowid bigint, raw text, last_seen bigint, version_since bigint, created_at bigint,
         author_handle text, lang text, flags integer, engagement bigint, fts text)
       WHERE i.rowid = x.rowid`,
      [JSON.stringify(changed.map(itemRow))],
    );
  const seen = all.filter((s) => s.fate === 'seen');
  if (seen.length > 0)
    await client.query(
      `UPDATE items i SET last_seen = greatest(i.last_seen, x.last_seen)
       FROM json_to_recordset($1::json) AS x(rowid bigint, last_seen bigint) WHERE i.rowid = x.rowid`,
      [JSON.stringify(seen.map((s) => ({ rowid: s.rowid, last_seen: s.lastSeen })))],
    );
  if (versions.length > 0)
    await client.query(
      `INSERT INTO item_versions (item, raw, seen_from, seen_to)
       SELECT item, raw, seen_from, seen_to FROM json_to_recordset($1::json) AS x(item bigint, raw text, seen_from bigint, seen_to bigint)`,
      [JSON.stringify(versions.map((v) => ({ ...v, raw: toPg(v.raw) })))],
    );

  // --- the requests, numbered in order, then each one's items
  const requestIds = await newIds(client, 'requests', answers.length);
  const rows = answers.map((a, n) => {
    const r = a.record;
    const params = toPg(r.params);
    const cursor = toPgOrNull(r.cursor);
    const next = toPgOrNull(a.nextCursor);
    const pageIndex = cursor === null ? 0 : (earlier.get(pageKey(r.operation, params, cursor)) ?? -1) + 1;
    // a later page of the same query in this batch finds this one
    if (next !== null) earlier.set(pageKey(r.operation, params, next), pageIndex);
    return {
      rowid: requestIds[n] ?? 0,
      operation: toPg(r.operation),
      params,
      cursor,
      page_index: pageIndex,
      at: r.at,
      base_url: toPg(r.baseUrl),
      http_status: r.httpStatus,
      next_cursor: next,
      envelope: toPg(a.envelope),
      item_count: a.listed,
      researcher: toPgOrNull(researcher),
    };
  });
  await client.query(
    `INSERT INTO requests (rowid, operation, params, cursor, page_index, at, base_url, http_status, next_cursor, envelope, item_count, researcher)
     SELECT * FROM json_to_recordset($1::json) AS x(rowid bigint, operation text, params text, cursor text, page_index integer,
       at bigint, base_url text, http_status integer, next_cursor text, envelope text, item_count integer, researcher text)`,
    [JSON.stringify(rows)],
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
    await client.query(
      'INSERT INTO request_items (request, position, item) SELECT * FROM unnest($1::bigint[], $2::int[], $3::bigint[])',
      [request, position, item],
    );
}
