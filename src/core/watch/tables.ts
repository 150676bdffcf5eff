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
 * deltas by item, metric and time; attrition by watch, kind and id. The store makes each page's lines where it
 * reads the rows (./tables/csv), so a page reaches this thread as one string, not thousands of objects, and the
 * next page is asked for before this one is written; the store has begun it already (./tables/read-ahead).
 */
import { writeFileAtomic } from '../files/atomic-file';
import type { WatchTable } from '../../shared/ipc/watch';
import { csvLine } from './tables/csv';
import type { AttritionKey, CsvPage, DeltaKey } from './tables/records';

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

/**
 * The rows as CSV lines, a page at a time after the last row of the page before (null: from the start); the
 * store makes the lines (./tables/csv), so a page crosses from the archive's worker as one value (the deltas
 * table's as its UTF-8 bytes, written to the file as they are).
 */
export interface TableSource {
  deltas: (after: DeltaKey | null, limit: number) => Promise<CsvPage<DeltaKey, string | Uint8Array>>;
  attrition: (after: AttritionKey | null, limit: number) => Promise<CsvPage<AttritionKey>>;
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
    await sink.write(csvLine(table === 'deltas' ? [...DELTA_COLUMNS] : [...ATTRITION_COLUMNS]));
    /**
     * every row of one table, a page after another: the next page is asked for as soon as a page arrives, so the
     * archive's worker (or the server) makes it while this thread writes the one before; never more than two
     * pages held at once
     */
    const pages = async <K, T extends string | Uint8Array>(
      next: (after: K | null, limit: number) => Promise<CsvPage<K, T>>,
    ) => {
      let coming: Promise<CsvPage<K, T>> | null = next(null, CHUNK);
      try {
        let last: K | null = null;
        while (coming) {
          const page: CsvPage<K, T> = await coming;
          rows += page.rows;
          last = page.last ?? last;
          coming = page.rows < CHUNK ? null : next(last, CHUNK);
          if (page.rows) await sink.write(page.text);
        }
      } finally {
        // a write that failed leaves the page asked for ahead unread: its failure, if any, is not the export's
        coming?.catch(() => undefined);
      }
    };
    if (table === 'deltas') await pages((after: DeltaKey | null, n) => source.deltas(after, n));
    else await pages((after: AttritionKey | null, n) => source.attrition(after, n));
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
