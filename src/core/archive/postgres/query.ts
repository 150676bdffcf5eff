/**
 * Reading a team project: full-text search with the same filters and sorts as the SQLite store (PostgreSQL's
 * own `tsvector` index, fed by fts.ts), the activity of a result set, items by group, an item's provenance, an
 * account as the project knows it, and an answer rebuilt for the response store. Every value is a bound parameter; the one `tsquery` is a literal Skein built.
 */
import type { Pool, PoolClient } from 'pg';
import type {
  ActivityBucket,
  ArchiveActivity,
  ArchiveProvenance,
  ArchiveQueryParsed,
  ArchiveSearchResult,
} from '../../../shared/ipc/archive';
import { rebuildBody } from '../answer';
import { FLAG } from '../derive';
import { activityOf, activityWindow, hitsOf, type HitRow } from '../results';
import type { GroupCounts, GroupedReader, GroupedRow, Grouping, HeldAnswer, HeldKey } from '../store';
import { tsqueryOf } from './fts';
import { checkout, openCursor, Params, fromPg, fromPgOrNull, toPg, toPgOrNull, type PgDb } from '../../db';

type Db = Pool | PoolClient;

/** `work` on one connection in one transaction (its SET LOCALs end with it). */
async function inTransaction<T>(db: Db, work: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = 'release' in db ? db : await checkout(db);
  try {
    await client.query('BEGIN');
    try {
      const out = await work(client);
      await client.query('COMMIT');
      return out;
    } catch (e) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw e;
    }
  } finally {
    if (client !== db) client.release();
  }
}

const FLAGS = [
  ['media', FLAG.media],
  ['reply', FLAG.reply],
  ['quote', FLAG.quote],
  ['retweet', FLAG.retweet],
] as const;

/** The WHERE clause of a query over `items i` (`words`: false leaves the full-text match out). */
export function whereOf(q: ArchiveQueryParsed, p: Params, words = true): string {
  const parts = [`i.kind = ${p.add(q.kind)}`];
  const match = words ? tsqueryOf(q.text) : null;
  if (match !== null) parts.push(`i.fts @@ ${p.add(match, '::tsquery')}`);
  if (q.from !== undefined) parts.push(`i.created_at >= ${p.add(q.from, '::bigint')}`);
  if (q.to !== undefined) parts.push(`i.created_at < ${p.add(q.to, '::bigint')}`);
  // handles compare without case, as SQLite's NOCASE column does
  if (q.author) parts.push(`lower(i.author_handle) = lower(${p.add(toPg(q.author.replace(/^@/, '')))})`);
  if (q.lang) parts.push(`i.lang = ${p.add(toPg(q.lang))}`);
  if (q.collection !== undefined)
    parts.push(`i.rowid IN (SELECT item FROM collection_items WHERE collection = ${p.add(q.collection, '::bigint')})`);
  for (const [name, bit] of FLAGS) {
    const want = q[name];
    if (want === undefined) continue;
    parts.push(want ? `(i.flags & ${bit}) <> 0` : `(i.flags & ${bit}) = 0`);
  }
  return parts.join(' AND ');
}

/** The newest items (by the sort) a search walks looking for its page before it asks the full-text index instead. */
const WALK = 10_000;

/**
 * A page of hits. Without words: the sort's index walked. With words, two ways whatever the planner would
 * guess (it guesses words independent: two common words that never meet looked cheap to walk for, and it walked
 * every item): first the newest 10,000 items by the sort are walked and the page kept from their matches;
 * when they hold no full page (a rare word, a deep page), the index's matches are read and sorted.
 */
export async function search(
  db: Db,
  q: ArchiveQueryParsed,
  offset: number,
  limit: number,
  now: () => number,
): Promise<ArchiveSearchResult> {
  const started = now();
  const match = tsqueryOf(q.text);
  const key =
    q.sort === 'engagement' ? ['engagement DESC', 'rowid DESC'] : ['created_at DESC NULLS LAST', 'rowid DESC'];
  const order = (alias: string) => key.map((k) => `${alias}.${k}`).join(', ');
  const columns = `i.rowid, i.kind, i.id, i.raw, i.first_seen, i.last_seen,
    (SELECT count(*) FROM request_items r WHERE r.item = i.rowid) AS requests`;
  const read = async (sql: string, p: Params, on: Db = db) =>
    (await on.query<HitRow>(sql, p.values)).rows.map((row) => ({ ...row, id: fromPg(row.id), raw: fromPg(row.raw) }));
  let rows: HitRow[];
  if (match === null) {
    const p = new Params();
    rows = await read(
      `SELECT ${columns} FROM items i WHERE ${whereOf(q, p)} ORDER BY ${order('i')}
       LIMIT ${p.add(limit + 1)} OFFSET ${p.add(offset)}`,
      p,
    );
  } else {
    rows = [];
    if (offset + limit + 1 <= WALK / 10) {
      const p = new Params();
      rows = await read(
        `WITH walked AS (SELECT i.rowid, i.created_at, i.engagement, i.fts FROM items i WHERE ${whereOf(q, p, false)}
           ORDER BY ${order('i')} LIMIT ${WALK}),
         page AS (SELECT w.rowid, w.created_at, w.engagement FROM walked w WHERE w.fts @@ ${p.add(match, '::tsquery')}
           ORDER BY ${order('w')} LIMIT ${p.add(limit + 1)} OFFSET ${p.add(offset)})
         SELECT ${columns} FROM page w JOIN items i ON i.rowid = w.rowid ORDER BY ${order('w')}`,
        p,
      );
    }
    if (rows.length <= limit) {
      const p = new Params();
      const sql = `WITH matched AS MATERIALIZED (SELECT i.rowid, i.created_at, i.engagement FROM items i WHERE ${whereOf(q, p)}),
         page AS (SELECT m.rowid, m.created_at, m.engagement FROM matched m ORDER BY ${order('m')}
           LIMIT ${p.add(limit + 1)} OFFSET ${p.add(offset)})
         SELECT ${columns} FROM page w JOIN items i ON i.rowid = w.rowid ORDER BY ${order('w')}`;
      // the index's matches, never a scan of every item: the planner, taking words as independent, guesses
      // two words that never meet match thousands, and at a million items would read them all instead
      rows = await inTransaction(db, async (client) => {
        // and a bitmap of the matches that stays exact: past work_mem (4 MB by default) it turns lossy, and every
        // row of a lossy page is read again to test the words (two common words: 200,000 matches at 1M items)
        await client.query(
          "SET LOCAL enable_seqscan = off; SET LOCAL enable_indexscan = off; SET LOCAL work_mem = '64MB'",
        );
        return read(sql, p, client);
      });
    }
  }
  return hitsOf(rows, offset, limit, now() - started);
}

export async function activity(
  db: Db,
  q: ArchiveQueryParsed,
  bucket: ActivityBucket,
  utcOffsetMinutes: number,
  now: number,
): Promise<ArchiveActivity> {
  const window = activityWindow(bucket, utcOffsetMinutes, now);
  const p = new Params();
  const where = whereOf(q, p);
  const origin = p.add(window.origin, '::bigint');
  const size = p.add(window.size, '::bigint');
  const [rows, all] = await Promise.all([
    db.query<{ b: number; n: number }>(
      `SELECT (i.created_at - ${origin}) / ${size} AS b, count(*) AS n FROM items i
       WHERE ${where} AND i.created_at >= ${p.add(window.from, '::bigint')} AND i.created_at <= ${p.add(window.to, '::bigint')}
       GROUP BY b ORDER BY b`,
      p.values,
    ),
    (() => {
      const p2 = new Params();
      return db.query<{ n: number }>(`SELECT count(*) AS n FROM items i WHERE ${whereOf(q, p2)}`, p2.values);
    })(),
  ]);
  return activityOf(rows.rows, all.rows[0]?.n ?? 0, window);
}

/** A grouping's value as SQL over `items i` (null when the item has none): the SQLite store's, in UTC. */
const UTC = "to_timestamp(i.created_at / 1000) AT TIME ZONE 'UTC'";
const GROUP_SQL: Record<Grouping, string> = {
  day: `to_char(${UTC}, 'YYYY-MM-DD')`,
  // the Monday on or before the day (SQLite: '-6 days', 'weekday 1')
  week: `'week of ' || to_char(date_trunc('week', ${UTC}), 'YYYY-MM-DD')`,
  month: `to_char(${UTC}, 'YYYY-MM')`,
  author: "'@' || i.author_handle",
  lang: 'i.lang',
  type: `CASE WHEN (i.flags & ${FLAG.retweet}) <> 0 THEN 'repost' WHEN (i.flags & ${FLAG.quote}) <> 0 THEN 'quote'
    WHEN (i.flags & ${FLAG.reply}) <> 0 THEN 'reply' ELSE 'original' END`,
};

/** A group's value as read back (a handle or a language is kept encoded, text.ts). */
const groupOf = (v: string | null): string | null =>
  v === null ? null : v.startsWith('@') ? `@${fromPg(v.slice(1))}` : fromPg(v);

/** How many items a query holds, and per group (the largest first, `limit` of them listed). */
export async function groupCounts(
  db: Db,
  q: ArchiveQueryParsed,
  by: Grouping | null,
  limit: number,
): Promise<GroupCounts> {
  const p = new Params();
  const where = whereOf(q, p);
  const total = Number(
    (await db.query<{ n: number }>(`SELECT count(*) AS n FROM items i WHERE ${where}`, p.values)).rows[0]?.n ?? 0,
  );
  if (by === null) return { total, groups: [], groupCount: 0 };
  const rows = (
    await db.query<{ value: string; n: number }>(
      `SELECT coalesce(${GROUP_SQL[by]}, '(none)') COLLATE "C" AS value, count(*) AS n FROM items i
       WHERE ${where} GROUP BY 1 ORDER BY 2 DESC, 1`,
      p.values,
    )
  ).rows;
  return {
    total,
    groups: rows.slice(0, limit).map((r) => ({ value: groupOf(r.value) ?? '', count: Number(r.n) })),
    groupCount: rows.length,
  };
}

/** A query's item ids with their group's value (null: no grouping), read a chunk at a time through a cursor. */
export function grouped(db: PgDb, q: ArchiveQueryParsed, by: Grouping | null): Promise<GroupedReader> {
  const p = new Params();
  const where = whereOf(q, p);
  const column = by === null ? 'NULL::text' : `coalesce(${GROUP_SQL[by]}, '(none)')`;
  return openCursor<{ id: string; grp: string | null }, GroupedRow>(
    db,
    `SELECT i.id, ${column} AS grp FROM items i WHERE ${where} ORDER BY i.rowid`,
    p,
    (r) => ({ id: fromPg(r.id), group: groupOf(r.grp) }),
  );
}

/** An account's id and handle as the project knows them (the newest user item, else a post's author). */
export async function accountOf(
  db: Db,
  ref: { userId?: string; handle?: string },
): Promise<{ userId: string | null; handle: string | null }> {
  const row = (
    ref.userId !== undefined
      ? await db.query<{ id: string; handle: string | null }>(
          "SELECT id, author_handle AS handle FROM items WHERE kind = 'user' AND id = $1",
          [toPg(ref.userId)],
        )
      : await db.query<{ id: string; handle: string | null }>(
          `SELECT id, author_handle AS handle FROM items WHERE kind = 'user' AND lower(author_handle) = lower($1)
           ORDER BY last_seen DESC LIMIT 1`,
          [toPg(ref.handle ?? '')],
        )
  ).rows[0];
  if (row) return { userId: fromPg(row.id), handle: fromPgOrNull(row.handle) };
  if (ref.handle !== undefined) {
    // a post's author: its raw JSON names the id
    const post = (
      await db.query<{ id: string | null }>(
        `SELECT skein_json_text(raw, '{author,id}') AS id FROM items
         WHERE kind = 'post' AND lower(author_handle) = lower($1) LIMIT 1`,
        [toPg(ref.handle)],
      )
    ).rows[0];
    return { userId: post?.id ?? null, handle: ref.handle };
  }
  return { userId: ref.userId ?? null, handle: null };
}

export async function provenance(db: Db, kind: string, id: string): Promise<ArchiveProvenance | null> {
  const item = await db.query<{ rowid: number; first_seen: number; last_seen: number }>(
    'SELECT rowid, first_seen, last_seen FROM items WHERE kind = $1 AND id = $2',
    [toPg(kind), toPg(id)],
  );
  const row = item.rows[0];
  if (!row) return null;
  const [versions, requests] = await Promise.all([
    db.query<{ seen_from: number; seen_to: number }>(
      'SELECT seen_from, seen_to FROM item_versions WHERE item = $1 ORDER BY seen_from, rowid',
      [row.rowid],
    ),
    db.query<{
      operation: string;
      params: string;
      cursor: string | null;
      page_index: number;
      at: number;
      base_url: string;
      researcher: string | null;
    }>(
      `SELECT q.rowid, q.operation, q.params, q.cursor, q.page_index, q.at, q.base_url, q.researcher
       FROM requests q WHERE q.rowid IN (SELECT request FROM request_items WHERE item = $1) ORDER BY q.at, q.rowid`,
      [row.rowid],
    ),
  ]);
  return {
    firstSeen: row.first_seen,
    lastSeen: row.last_seen,
    versions: versions.rows.map((v) => ({ seenFrom: v.seen_from, seenTo: v.seen_to })),
    requests: requests.rows.map((r) => ({
      operation: fromPg(r.operation),
      params: fromPg(r.params),
      cursor: fromPgOrNull(r.cursor),
      pageIndex: r.page_index,
      at: r.at,
      baseUrl: fromPg(r.base_url),
      researcher: fromPgOrNull(r.researcher),
    })),
  };
}

/** The newest answer held for a request, rebuilt from its envelope and its items as last received. */
export async function heldAnswer(db: Db, key: HeldKey): Promise<HeldAnswer | null> {
  const since = key.cursor === null ? key.freshSince : (key.notBefore ?? 0);
  const r = await db.query<{ rowid: number; at: number; http_status: number; envelope: string }>(
    `SELECT rowid, at, http_status, envelope FROM requests
     WHERE operation = $1 AND md5(params) = md5($2) AND params = $2
       AND md5(coalesce(cursor, '')) = md5(coalesce($3::text, '')) AND cursor IS NOT DISTINCT FROM $3::text
       AND at >= $4 AND http_status BETWEEN 200 AND 299 AND stopped = 0 AND ($5::text IS NULL OR base_url = $5::text)
     ORDER BY at DESC LIMIT 1`,
    [toPg(key.operation), toPg(key.params), toPgOrNull(key.cursor), since, toPgOrNull(key.baseUrl)],
  );
  const row = r.rows[0];
  if (!row) return null;
  const items = await db.query<{ raw: string }>(
    'SELECT i.raw FROM request_items r JOIN items i ON i.rowid = r.item WHERE r.request = $1 ORDER BY r.position',
    [row.rowid],
  );
  const text = rebuildBody(
    fromPg(row.envelope),
    items.rows.map((i) => fromPg(i.raw)),
  );
  return text === null ? null : { at: row.at, httpStatus: row.http_status, text };
}

/** An answer a paging guard stopped on: kept as received, never served again. */
export async function forgetAnswer(
  db: Db,
  key: { operation: string; params: string; cursor: string | null },
): Promise<void> {
  await db.query(
    `UPDATE requests SET stopped = 1 WHERE operation = $1 AND md5(params) = md5($2) AND params = $2
       AND md5(coalesce(cursor, '')) = md5(coalesce($3::text, '')) AND cursor IS NOT DISTINCT FROM $3::text`,
    [toPg(key.operation), toPg(key.params), toPgOrNull(key.cursor)],
  );
}
