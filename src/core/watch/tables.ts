/**
 * The watches' two tables as CSV, what a researcher analyses attrition and counter changes from, written
 * atomically beside a manifest that says what each column means and the exact lines that read it in pandas and R
 * (19-digit ids are kept as text there):
 * - deltas: `id, metric, at, value, previous, change`, then `kind, previous_seen_at` — a counter's value when
 *   first seen and each change after (the change happened between `previous_seen_at` and `at`);
 * - attrition: `id, first_seen, last_seen, first_missing_at, rechecks, status, reason`, then
 *   `kind, status_at, watch, target, created_at` — every item a watch follows and whether it is still there.
 * Times are ISO 8601 in UTC; ids plain digits; an empty cell is "none". Rows are read from the project a page
 * at a time after the last one (never all at once, and never by an offset that would grow with the table):
 * deltas by item, metric and time; attrition by watch, kind and id.
 */
import { writeFileAtomic } from '../files/atomic-file';
import type { WatchTable } from '../../shared/ipc/watch';
import type { DeltaRecord, PresenceRecord } from './tables/records';

const CHUNK = 5_000;

export const DELTA_COLUMNS = ['id', 'metric', 'at', 'value', 'previous', 'change', 'kind', 'previous_seen_at'] as const;
export const ATTRITION_COLUMNS = [
  'id',
  'first_seen',
  'last_seen',
  'first_missing_at',
  'rechecks',
  'status',
  'reason',
  'kind',
  'status_at',
  'watch',
  'target',
  'created_at',
] as const;

const iso = (t: number | null): string => (t === null ? '' : new Date(t).toISOString());

/** RFC 4180: quoted only when it holds a comma, a quote or a line break; quotes doubled. */
function cell(v: string | number | null): string {
  if (v === null) return '';
  const s = String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}
const line = (cells: ReadonlyArray<string | number | null>) => `${cells.map(cell).join(',')}\n`;

function deltaLine(d: DeltaRecord): string {
  return line([
    d.id,
    d.metric,
    iso(d.at),
    d.value,
    d.previous,
    d.previous === null ? null : d.value - d.previous,
    d.kind,
    iso(d.previousSeenAt),
  ]);
}

function attritionLine(p: PresenceRecord): string {
  return line([
    p.id,
    iso(p.firstSeen),
    iso(p.lastSeen),
    iso(p.firstMissingAt),
    p.rechecks,
    p.status,
    p.reason,
    p.kind,
    iso(p.statusAt),
    p.watch,
    p.target,
    iso(p.createdAt),
  ]);
}

/** The rows, a page at a time after the last row of the page before (null: from the start). */
export interface TableSource {
  deltas: (after: DeltaRecord | null, limit: number) => Promise<DeltaRecord[]>;
  attrition: (after: PresenceRecord | null, limit: number) => Promise<PresenceRecord[]>;
}

/** the exact lines a researcher reads the table with (ids as text: R's read.csv would round them) */
function readers(table: WatchTable, file: string): { pandas: string; R: string } {
  const name = JSON.stringify(file.split(/[\\/]/).pop() ?? file);
  const text = table === 'deltas' ? ['id', 'metric', 'kind'] : ['id', 'status', 'reason', 'kind', 'target'];
  return {
    pandas: `pd.read_csv(${name}, dtype={${text.map((c) => `"${c}": str`).join(', ')}}, keep_default_na=False, na_values=[""])`,
    R: `read.csv(${name}, colClasses = c(${text.map((c) => `${c} = "character"`).join(', ')}), na.strings = "", encoding = "UTF-8")`,
  };
}

/** Writes the table to `target` (and its manifest beside it); returns its rows. */
export async function writeTable(
  table: WatchTable,
  target: string,
  source: TableSource,
  about: { project: string; scope: string; exportedAt: number; app: string },
): Promise<number> {
  let rows = 0;
  await writeFileAtomic(target, async (sink) => {
    await sink.write(line(table === 'deltas' ? [...DELTA_COLUMNS] : [...ATTRITION_COLUMNS]));
    /** every row of one table, a page after another, as lines */
    const pages = async <T>(next: (after: T | null, limit: number) => Promise<T[]>, lineOf: (row: T) => string) => {
      let last: T | null = null;
      for (;;) {
        const chunk = await next(last, CHUNK);
        if (chunk.length) await sink.write(chunk.map(lineOf).join(''));
        rows += chunk.length;
        last = chunk.at(-1) ?? last;
        if (chunk.length < CHUNK) break;
      }
    };
    if (table === 'deltas') await pages((after: DeltaRecord | null, n) => source.deltas(after, n), deltaLine);
    else await pages((after: PresenceRecord | null, n) => source.attrition(after, n), attritionLine);
  });
  const manifest = {
    table,
    file: target.split(/[\\/]/).pop(),
    rows,
    project: about.project,
    scope: about.scope,
    exported_at: new Date(about.exportedAt).toISOString(),
    exported_by: about.app,
    encoding: 'UTF-8, no byte order mark; RFC 4180 quoting; times in ISO 8601, UTC; an empty cell means none',
    order: table === 'deltas' ? 'by kind, id, metric, then time' : 'by watch, kind, then id',
    columns:
      table === 'deltas'
        ? {
            id: 'the post, account, community or space (a trend: "<place>:<name>")',
            metric:
              'likes, reposts, replies, quotes, bookmarks, views, followers, following, posts, members, listeners, participants or rank',
            at: 'when this value was first seen',
            value: 'the counter',
            previous: 'the value before (empty for the first)',
            change: 'value − previous',
            kind: 'post, user, community, space or trend',
            previous_seen_at: 'when the previous value was last seen: the change happened between it and `at`',
          }
        : {
            id: 'the post or account',
            first_seen: 'when a watch first read it',
            last_seen: 'when a watch last read it',
            first_missing_at: 'when it was first expected and not there',
            rechecks: 'how many times it was asked for again by id',
            status:
              'present; missing (expected and not there, not yet re-checked); gone (a re-check by id confirmed it); returned (gone, then seen again)',
            reason: 'why, in plain words',
            kind: 'post or user',
            status_at: 'when it took its status (gone: when the re-check confirmed it)',
            watch: 'the watch that follows it',
            target: 'the account, list or post it came through',
            created_at: 'when it was made',
          },
    readers: readers(table, target),
  };
  await writeFileAtomic(`${target}.manifest.json`, async (sink) =>
    sink.write(`${JSON.stringify(manifest, null, 2)}\n`),
  );
  return rows;
}
