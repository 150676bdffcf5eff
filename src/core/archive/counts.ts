/**
 * A project's items counted by kind and quarter hour of creation, kept by ingest in the transaction that writes
 * the items (ingest.ts, postgres/ingest.ts): a chart over all of a project's posts sums a few thousand rows
 * instead of reading every item (a million on a big team project). Quarter hours, not days: a chart buckets in
 * the viewer's local time, and every time zone is a whole number of quarter hours from UTC, so any hour, day or
 * week of any zone is a whole number of quarter hours. Written once for both stores as a part the archive hosts
 * first; its migration counts the items an older project already holds.
 */
import type { ArchiveActivity, ArchiveQueryParsed } from '../../shared/ipc/archive';
import { sql, type Db, type Ddl, type Sql, type TablePart } from '../db';
import { activityOf, type ActivityWindow } from './results';

/** a slot's length: a quarter hour (ms) */
const SLOT = 15 * 60_000;
/** the one slot of items without a creation time, or one before 1970 (both undated on a chart) */
const UNDATED = -1;

/** The slot an item's creation time falls in. */
export const slotOf = (createdAt: number | null): number =>
  createdAt === null || createdAt < 0 ? UNDATED : Math.floor(createdAt / SLOT);

/** the same slot in SQL over `items` (an integer's division truncates, which is the floor for a time after 1970) */
const SLOT_SQL = `CASE WHEN created_at IS NULL OR created_at < 0 THEN ${UNDATED} ELSE created_at / ${SLOT} END`;

export const COUNTS_PART: TablePart = {
  name: 'activity',
  migrations: [
    // made whole from the items: counts left by anything before (a project whose versions of its parts were lost)
    // are dropped, never added to
    (t: Ddl) => `
    DROP TABLE IF EXISTS activity_counts;
    CREATE TABLE activity_counts (kind ${t.key} NOT NULL, slot ${t.int} NOT NULL, n ${t.int} NOT NULL,
      PRIMARY KEY (kind, slot))${t.keyed};
    INSERT INTO activity_counts (kind, slot, n) SELECT kind, ${SLOT_SQL}, count(*) FROM items GROUP BY 1, 2;`,
  ],
  tables: [{ name: 'activity_counts', key: ['kind', 'slot'], columns: ['kind', 'slot', 'n'] }],
  open: () => ({}),
};

/** What a write did to one item's creation time: `before` undefined for a new item. */
export interface CountChange {
  kind: string;
  before?: number | null;
  after: number | null;
}

/** The counts' changes a batch's writes make, one per (kind, slot) that moved: a changed item moves only if its time did. */
export function countDeltas(changes: readonly CountChange[]): Array<[kind: string, slot: number, n: number]> {
  const deltas = new Map<string, [string, number, number]>();
  const add = (kind: string, slot: number, n: number) => {
    const key = `${kind}\u0000${slot}`;
    const d = deltas.get(key);
    if (d) d[2] += n;
    else deltas.set(key, [kind, slot, n]);
  };
  for (const c of changes) {
    if (c.before !== undefined) add(c.kind, slotOf(c.before), -1);
    add(c.kind, slotOf(c.after), 1);
  }
  return [...deltas.values()].filter((d) => d[2] !== 0);
}

/** rows of changes one statement adds (3 values each: well under either store's limit on bound values) */
const ROWS_PER_STATEMENT = 2_000;

/** A change to one count: its row made, or added to. */
export const addCountSql = (rows: ReadonlyArray<readonly [string, number, number]>): Sql =>
  sql`INSERT INTO activity_counts (kind, slot, n) VALUES ${sql.rows(rows.map((r) => [...r]))}
      ON CONFLICT (kind, slot) DO UPDATE SET n = activity_counts.n + excluded.n`;

/** Adds a batch's changes inside the caller's transaction. */
export async function addCounts(tx: Db, changes: readonly CountChange[]): Promise<void> {
  const deltas = countDeltas(changes);
  for (let i = 0; i < deltas.length; i += ROWS_PER_STATEMENT)
    await tx.run(addCountSql(deltas.slice(i, i + ROWS_PER_STATEMENT)));
}

/** a query's fields that leave a chart of all of a kind's items whole: which project, which kind, the list's order */
const WHOLE = new Set<string>(['project', 'kind', 'sort']);

/**
 * A chart the counts can answer exactly as a pass over the items would: every item of a kind, in buckets that are
 * whole quarter hours (a time zone whose offset is not is left to the items). Any other field set — a filter
 * added to the query later included — leaves the chart to the items, so a new filter can never be ignored.
 */
export function countsServe(q: ArchiveQueryParsed, window: ActivityWindow): boolean {
  return wholeKind(q) && window.origin % SLOT === 0 && window.from % SLOT === 0;
}

/** Whether a query asks for every item of its kind (no words, no filter): what the counts count. */
export function wholeKind(q: ArchiveQueryParsed): boolean {
  return Object.entries(q).every(
    ([field, value]) =>
      WHOLE.has(field) || value === undefined || value === '' || (field === 'text' && String(value).trim() === ''),
  );
}

/** slots in a day */
const DAY_SLOTS = 86_400_000 / SLOT;
/** the last slot of 9999-12-31 UTC: past it a date has no four-digit year, and the stores write it their own ways */
const LAST_SLOT = Math.floor(253_402_300_799_999 / SLOT);

/**
 * Every item of a kind counted per UTC day (YYYY-MM-DD) from the counts, as a pass over the items would count it;
 * null where a slot holds what a day's number cannot name (items undated or from before 1970, after year 9999, or a
 * count gone negative) or the counts do not add up to the items: the items answer then. Days whose count is 0 are
 * left out, as a pass finds none.
 */
export async function dayCounts(db: Db, kind: string): Promise<Array<{ value: string; n: number }> | null> {
  const odd = await db.get<{ n: number }>(
    sql`SELECT count(*) AS n FROM activity_counts WHERE kind = ${kind}
        AND (slot < 0 OR slot > ${LAST_SLOT} OR round(slot) <> slot OR n < 0) AND n <> 0`,
  );
  if (Number(odd?.n ?? 0) > 0) return null;
  // counts that are not the items' (a copy loaded without them) are never trusted for a sample's population
  const [kept, held] = await Promise.all([
    db.get<{ n: number | null }>(sql`SELECT sum(n) AS n FROM activity_counts WHERE kind = ${kind}`),
    db.get<{ n: number }>(sql`SELECT count(*) AS n FROM items WHERE kind = ${kind}`),
  ]);
  if (Number(kept?.n ?? 0) !== Number(held?.n ?? 0)) return null;
  const rows = await db.all<{ d: number; n: number }>(
    sql`SELECT slot / ${sql.raw(String(DAY_SLOTS))} AS d, sum(n) AS n FROM activity_counts WHERE kind = ${kind}
        GROUP BY 1 HAVING sum(n) > 0`,
  );
  return rows.map((r) => ({ value: new Date(Number(r.d) * 86_400_000).toISOString().slice(0, 10), n: Number(r.n) }));
}

/**
 * The chart from the counts: the slots wholly inside the window summed per bucket, the items of the one slot the
 * window's end cuts read from the items themselves (a creation time in the future is undated), the total from
 * every slot.
 */
export async function activityFromCounts(db: Db, kind: string, window: ActivityWindow): Promise<ArchiveActivity> {
  const cut = Math.floor(window.to / SLOT);
  const rows = await db.all<{ b: number; n: number }>(
    sql`SELECT CAST((slot * ${SLOT} - ${window.origin}) / ${window.size} AS INTEGER) AS b, sum(n) AS n
        FROM activity_counts WHERE kind = ${kind} AND slot >= ${window.from / SLOT} AND slot < ${cut}
        GROUP BY 1 ORDER BY 1`,
  );
  const edge = await db.get<{ n: number }>(
    sql`SELECT count(*) AS n FROM items WHERE kind = ${kind} AND created_at >= ${cut * SLOT} AND created_at <= ${window.to}`,
  );
  const total = await db.get<{ n: number | null }>(sql`SELECT sum(n) AS n FROM activity_counts WHERE kind = ${kind}`);
  const dated = rows.map((r) => ({ b: Number(r.b), n: Number(r.n) }));
  const late = Number(edge?.n ?? 0);
  if (late > 0) {
    const b = Math.trunc((cut * SLOT - window.origin) / window.size);
    const last = dated.at(-1);
    if (last?.b === b) last.n += late;
    else dated.push({ b, n: late });
  }
  return activityOf(dated, Number(total?.n ?? 0), window);
}
