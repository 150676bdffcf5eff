/**
 * What a search and an activity chart answer, from the rows either store read (common.ts, query.ts,
 * postgres/query.ts): each hit read again from its raw JSON, the chart's buckets zero-filled. Pure: no database.
 */
import { normalizePost } from '../../shared/api/normalize/post';
import { normalizeUser } from '../../shared/api/normalize/user';
import { cardPost, type Post } from '../../shared/api/schemas';
import type { ActivityBucket, ArchiveActivity, ArchiveHit, ArchiveSearchResult } from '../../shared/ipc/archive';

export type HitRow = {
  rowid: number;
  kind: 'post' | 'user';
  id: string;
  raw: string;
  first_seen: number;
  last_seen: number;
  requests: number;
};

/** The canonical item again from the raw JSON kept; posts cut to cards as the bridge carries them. */
export function readItem(kind: 'post' | 'user', raw: string): unknown {
  const parsed = JSON.parse(raw) as unknown;
  // what Skein keeps of an item is an object: anything else was damaged in the project
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new TypeError('not an item');
  return kind === 'post' ? cardPost(normalizePost(parsed) as Post) : normalizeUser(parsed);
}

/** A page of hits from up to `limit + 1` rows (one more says another page follows). */
export function hitsOf(rows: readonly HitRow[], offset: number, limit: number, tookMs: number): ArchiveSearchResult {
  const hits: ArchiveHit[] = [];
  for (const row of rows.slice(0, limit)) {
    const hit = {
      kind: row.kind,
      id: row.id,
      firstSeen: row.first_seen,
      lastSeen: row.last_seen,
      requests: row.requests,
    };
    try {
      hits.push({ ...hit, item: readItem(row.kind, row.raw) });
    } catch {
      // a row that no longer reads is listed as such, where it falls: not left out in silence, nor the whole search
      hits.push({ ...hit, item: null, unread: true });
    }
  }
  return { hits, nextOffset: rows.length > limit ? offset + limit : null, tookMs };
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const WEEK = 7 * DAY;
/** 1970-01-05 was a Monday: weeks start on Mondays */
const MONDAY = 4 * DAY;
const PLAUSIBLE_FROM = Date.UTC(2006, 0, 1);
const MAX_BUCKETS = 2_000;

/** A chart's buckets: their size and origin (ms), and the creation times counted (plausible ones only). */
export function activityWindow(bucket: ActivityBucket, utcOffsetMinutes: number, now: number) {
  const size = bucket === 'hour' ? HOUR : bucket === 'day' ? DAY : WEEK;
  const origin = (bucket === 'week' ? MONDAY : 0) - utcOffsetMinutes * 60_000;
  return { size, origin, from: PLAUSIBLE_FROM, to: now + DAY };
}
export type ActivityWindow = ReturnType<typeof activityWindow>;

/** The chart from its counted buckets (`b`: bucket number from the origin), zero-filled, at most 2,000 buckets. */
export function activityOf(
  rows: ReadonlyArray<{ b: number; n: number }>,
  total: number,
  window: { size: number; origin: number },
): ArchiveActivity {
  const dated = rows.reduce((sum, r) => sum + r.n, 0);
  const buckets: ArchiveActivity['buckets'] = [];
  let truncated = false;
  if (rows.length > 0) {
    const first = Math.floor(rows[0]!.b);
    const last = Math.floor(rows[rows.length - 1]!.b);
    const counts = new Map(rows.map((r) => [Math.floor(r.b), r.n]));
    let start = first;
    if (last - first + 1 > MAX_BUCKETS) {
      truncated = true;
      start = last - MAX_BUCKETS + 1;
    }
    for (let b = start; b <= last; b++)
      buckets.push({ start: window.origin + b * window.size, count: counts.get(b) ?? 0 });
  }
  return { buckets, total, undated: total - dated, truncated };
}
