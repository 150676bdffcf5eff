/**
 * Reading a project: full-text search with filters, the activity of a result set, items by group, an item's
 * provenance, an account as the project knows it, and an answer rebuilt for the response store. Synchronous
 * (node:sqlite): it runs in the archive's worker thread, never on main's event loop.
 */
import type { DatabaseSync, SQLInputValue } from 'node:sqlite';
import type {
  ArchiveActivity,
  ArchiveProvenance,
  ArchiveQueryParsed,
  ArchiveSearchResult,
  ActivityBucket,
} from '../../shared/ipc/archive';
import { rebuildBody } from './answer';
import { FLAG } from './derive';
import { activityOf, activityWindow, hitsOf, type HitRow } from './results';
import type { GroupCounts, GroupedReader, GroupedRow, Grouping, HeldAnswer, HeldKey } from './store';

/** Words as FTS5 phrases (quotes doubled), the last one a prefix: user input never reaches FTS5's syntax. */
function ftsQuery(text: string): string | null {
  const words = text
    .normalize('NFKC')
    .split(/[\s"]+/u)
    .map((w) => w.replace(/^[^\p{L}\p{N}#@]+|[^\p{L}\p{N}]+$/gu, ''))
    .filter((w) => w !== '');
  if (words.length === 0) return null;
  return words.map((w, i) => `"${w.replace(/"/g, '""')}"${i === words.length - 1 ? ' *' : ''}`).join(' ');
}

const FLAGS = [
  ['media', FLAG.media],
  ['reply', FLAG.reply],
  ['quote', FLAG.quote],
  ['retweet', FLAG.retweet],
] as const;

/** WHERE clause and its values for a query (the FTS match as a rowid set, unless the caller joins it). */
export function whereOf(q: ArchiveQueryParsed, joinedMatch = false): { sql: string; args: SQLInputValue[] } {
  const parts = ['i.kind = ?'];
  const args: SQLInputValue[] = [q.kind];
  const match = ftsQuery(q.text);
  if (match !== null && !joinedMatch) {
    parts.push('i.rowid IN (SELECT rowid FROM items_fts WHERE items_fts MATCH ?)');
    args.push(match);
  }
  if (q.from !== undefined) {
    parts.push('i.created_at >= ?');
    args.push(q.from);
  }
  if (q.to !== undefined) {
    parts.push('i.created_at < ?');
    args.push(q.to);
  }
  if (q.author) {
    parts.push('i.author_handle = ?');
    args.push(q.author.replace(/^@/, ''));
  }
  if (q.lang) {
    parts.push('i.lang = ?');
    args.push(q.lang);
  }
  if (q.collection !== undefined) {
    parts.push('i.rowid IN (SELECT item FROM collection_items WHERE collection = ?)');
    args.push(q.collection);
  }
  for (const [name, bit] of FLAGS) {
    const want = q[name];
    if (want === undefined) continue;
    parts.push(want ? `(i.flags & ${bit}) != 0` : `(i.flags & ${bit}) = 0`);
  }
  return { sql: parts.join(' AND '), args };
}

/** up to this many matches, a search sorts them itself rather than walking an index */
const FEW_MATCHES = 5_000;

/** The rowids an FTS query matches, as a bit set (read as one string: 10x faster than a row each). */
function matchSet(db: DatabaseSync, match: string): { size: number; has: (rowid: number) => boolean } {
  const max = (db.prepare('SELECT max(rowid) AS m FROM items').get() as { m: number | null }).m ?? 0;
  const bits = new Uint8Array((max >> 3) + 1);
  const list = (
    db.prepare("SELECT group_concat(rowid, ',') AS g FROM items_fts WHERE items_fts MATCH ?").get(match) as {
      g: string | null;
    }
  ).g;
  let size = 0;
  if (list) {
    let n = 0;
    for (let i = 0; i <= list.length; i++) {
      const c = i < list.length ? list.charCodeAt(i) : 44;
      if (c !== 44) n = n * 10 + (c - 48);
      else {
        if (n <= max) bits[n >> 3]! |= 1 << (n & 7);
        size++;
        n = 0;
      }
    }
  }
  return { size, has: (rowid) => rowid <= max && (bits[rowid >> 3]! & (1 << (rowid & 7))) !== 0 };
}

export function search(
  db: DatabaseSync,
  q: ArchiveQueryParsed,
  offset: number,
  limit: number,
  now: () => number,
): ArchiveSearchResult {
  const started = now();
  const match = ftsQuery(q.text);
  const key = q.sort === 'engagement' ? 'i.engagement' : 'i.created_at';
  const columns = `i.rowid AS rowid, i.kind AS kind, i.id AS id, i.raw AS raw, i.first_seen AS first_seen,
    i.last_seen AS last_seen, (SELECT count(*) FROM request_items r WHERE r.item = i.rowid) AS requests`;
  let rows: HitRow[];
  if (match === null) {
    const { sql, args } = whereOf(q);
    rows = db
      .prepare(`SELECT ${columns} FROM items i WHERE ${sql} ORDER BY ${key} DESC, i.rowid DESC LIMIT ? OFFSET ?`)
      .all(...args, limit + 1, offset) as HitRow[];
  } else {
    // the word's matches are one cheap read of its doclist (100,000 in ~15 ms as one string); ordering costs
    const matches = matchSet(db, match);
    const { sql, args } = whereOf(q, true);
    if (matches.size <= FEW_MATCHES) {
      // few: read those items and sort them
      rows = db
        .prepare(
          `SELECT ${columns} FROM items_fts f CROSS JOIN items i ON i.rowid = f.rowid
           WHERE items_fts MATCH ? AND ${sql} ORDER BY +${key} DESC, i.rowid DESC LIMIT ? OFFSET ?`,
        )
        .all(match, ...args, limit + 1, offset) as HitRow[];
    } else {
      // many: walk the time (or engagement) index newest first and keep the matches; a page is found
      // after about (page / share of items matching) steps
      const picked: number[] = [];
      let skipped = 0;
      const walk = db.prepare(`SELECT i.rowid AS rowid FROM items i WHERE ${sql} ORDER BY ${key} DESC, i.rowid DESC`);
      for (const row of walk.iterate(...args) as Iterable<{ rowid: number }>) {
        if (!matches.has(row.rowid)) continue;
        if (skipped++ < offset) continue;
        picked.push(row.rowid);
        if (picked.length > limit) break;
      }
      const byRowid = new Map(
        (
          db
            .prepare(`SELECT ${columns} FROM items i WHERE i.rowid IN (${picked.map(() => '?').join(',') || 'NULL'})`)
            .all(...picked) as HitRow[]
        ).map((r) => [r.rowid, r]),
      );
      rows = picked.flatMap((id) => byRowid.get(id) ?? []);
    }
  }
  return hitsOf(rows, offset, limit, now() - started);
}

export function activity(
  db: DatabaseSync,
  q: ArchiveQueryParsed,
  bucket: ActivityBucket,
  utcOffsetMinutes: number,
  now: number,
): ArchiveActivity {
  const window = activityWindow(bucket, utcOffsetMinutes, now);
  const { sql, args } = whereOf(q);
  const rows = db
    .prepare(
      `SELECT CAST((i.created_at - ?) / ? AS INTEGER) AS b, count(*) AS n FROM items i
       WHERE ${sql} AND i.created_at >= ? AND i.created_at <= ? GROUP BY b ORDER BY b`,
    )
    .all(window.origin, window.size, ...args, window.from, window.to) as Array<{ b: number; n: number }>;
  const all = db.prepare(`SELECT count(*) AS n FROM items i WHERE ${sql}`).get(...args) as { n: number };
  return activityOf(rows, all.n, window);
}

/** A grouping's value as SQL over `items i` (null when the item has none): days, weeks and months in UTC. */
const GROUP_SQL: Record<Grouping, string> = {
  day: "strftime('%Y-%m-%d', i.created_at / 1000, 'unixepoch')",
  // the Monday on or before the day
  week: "'week of ' || date(i.created_at / 1000, 'unixepoch', '-6 days', 'weekday 1')",
  month: "strftime('%Y-%m', i.created_at / 1000, 'unixepoch')",
  author: "'@' || i.author_handle",
  lang: 'i.lang',
  type: `CASE WHEN (i.flags & ${FLAG.retweet}) != 0 THEN 'repost' WHEN (i.flags & ${FLAG.quote}) != 0 THEN 'quote'
    WHEN (i.flags & ${FLAG.reply}) != 0 THEN 'reply' ELSE 'original' END`,
};

/** How many items a query holds, and per group (the largest first, `limit` of them listed). */
export function groupCounts(db: DatabaseSync, q: ArchiveQueryParsed, by: Grouping | null, limit: number): GroupCounts {
  const { sql, args } = whereOf(q);
  const total = (db.prepare(`SELECT count(*) AS n FROM items i WHERE ${sql}`).get(...args) as { n: number }).n;
  if (by === null) return { total, groups: [], groupCount: 0 };
  const rows = db
    .prepare(
      `SELECT coalesce(${GROUP_SQL[by]}, '(none)') AS value, count(*) AS n FROM items i WHERE ${sql}
       GROUP BY value ORDER BY n DESC, value`,
    )
    .all(...args) as Array<{ value: string; n: number }>;
  return {
    total,
    groups: rows.slice(0, limit).map((r) => ({ value: r.value, count: r.n })),
    groupCount: rows.length,
  };
}

/** A query's item ids with their group's value (null: no grouping), read a chunk at a time. */
export function grouped(db: DatabaseSync, q: ArchiveQueryParsed, by: Grouping | null): GroupedReader {
  const { sql, args } = whereOf(q);
  const column = by === null ? 'NULL' : `coalesce(${GROUP_SQL[by]}, '(none)')`;
  const it = db.prepare(`SELECT i.id AS id, ${column} AS grp FROM items i WHERE ${sql}`).iterate(...args) as Iterator<{
    id: string;
    grp: string | null;
  }>;
  return {
    next: (max) => {
      const out: GroupedRow[] = [];
      while (out.length < max) {
        const next = it.next();
        if (next.done) break;
        out.push({ id: next.value.id, group: next.value.grp });
      }
      return out;
    },
    close: () => {
      it.return?.();
    },
  };
}

/** An account's id and handle as the project knows them (the newest user item, else a post's author). */
export function accountOf(
  db: DatabaseSync,
  ref: { userId?: string; handle?: string },
): { userId: string | null; handle: string | null } {
  const row = (
    ref.userId !== undefined
      ? db.prepare("SELECT id, author_handle AS handle FROM items WHERE kind = 'user' AND id = ?").get(ref.userId)
      : db
          .prepare(
            "SELECT id, author_handle AS handle FROM items WHERE kind = 'user' AND author_handle = ? ORDER BY last_seen DESC LIMIT 1",
          )
          .get(ref.handle ?? '')
  ) as { id: string; handle: string | null } | undefined;
  if (row) return { userId: row.id, handle: row.handle };
  if (ref.handle !== undefined) {
    // a post's author: its raw JSON names the id
    const post = db
      .prepare(
        "SELECT json_extract(raw, '$.author.id') AS id FROM items WHERE kind = 'post' AND author_handle = ? LIMIT 1",
      )
      .get(ref.handle) as { id: string | number | null } | undefined;
    return { userId: post?.id === null || post?.id === undefined ? null : String(post.id), handle: ref.handle };
  }
  return { userId: ref.userId ?? null, handle: null };
}

export function provenance(db: DatabaseSync, kind: string, id: string): ArchiveProvenance | null {
  const item = db.prepare('SELECT rowid, first_seen, last_seen FROM items WHERE kind = ? AND id = ?').get(kind, id) as
    { rowid: number; first_seen: number; last_seen: number } | undefined;
  if (!item) return null;
  const versions = db
    .prepare('SELECT seen_from, seen_to FROM item_versions WHERE item = ? ORDER BY seen_from')
    .all(item.rowid) as Array<{ seen_from: number; seen_to: number }>;
  const requests = db
    .prepare(
      `SELECT DISTINCT q.rowid, q.operation, q.params, q.cursor, q.page_index, q.at, q.base_url, q.researcher FROM request_items r
       JOIN requests q ON q.rowid = r.request WHERE r.item = ? ORDER BY q.at`,
    )
    .all(item.rowid) as Array<{
    operation: string;
    params: string;
    cursor: string | null;
    page_index: number;
    at: number;
    base_url: string;
    researcher: string | null;
  }>;
  return {
    firstSeen: item.first_seen,
    lastSeen: item.last_seen,
    versions: versions.map((v) => ({ seenFrom: v.seen_from, seenTo: v.seen_to })),
    requests: requests.map((r) => ({
      operation: r.operation,
      params: r.params,
      cursor: r.cursor,
      pageIndex: r.page_index,
      at: r.at,
      baseUrl: r.base_url,
      researcher: r.researcher,
    })),
  };
}

/**
 * The newest answer held for a request, rebuilt from its envelope and its items (each item as
 * last received); a first page only when received at or after `freshSince`, a later page whatever
 * its age (its cursor names the snapshot it belongs to). `baseUrl` null matches any (demo).
 */
export function heldAnswer(db: DatabaseSync, key: HeldKey): HeldAnswer | null {
  const since = key.cursor === null ? key.freshSince : (key.notBefore ?? 0);
  const row = db
    .prepare(
      `SELECT rowid, at, http_status, envelope FROM requests
       WHERE operation = ? AND params = ? AND cursor IS ? AND at >= ? AND http_status BETWEEN 200 AND 299 AND stopped = 0
         AND (? IS NULL OR base_url = ?)
       ORDER BY at DESC LIMIT 1`,
    )
    .get(key.operation, key.params, key.cursor, since, key.baseUrl, key.baseUrl) as
    { rowid: number; at: number; http_status: number; envelope: string } | undefined;
  if (!row) return null;
  const items = db
    .prepare(
      'SELECT i.raw AS raw FROM request_items r JOIN items i ON i.rowid = r.item WHERE r.request = ? ORDER BY r.position',
    )
    .all(row.rowid) as Array<{ raw: string }>;
  const text = rebuildBody(
    row.envelope,
    items.map((i) => i.raw),
  );
  return text === null ? null : { at: row.at, httpStatus: row.http_status, text };
}

/** An answer a paging guard stopped on: kept as received, never served again (asked again, the service may answer right). */
export function forgetAnswer(
  db: DatabaseSync,
  key: { operation: string; params: string; cursor: string | null },
): void {
  db.prepare('UPDATE requests SET stopped = 1 WHERE operation = ? AND params = ? AND cursor IS ?').run(
    key.operation,
    key.params,
    key.cursor,
  );
}
