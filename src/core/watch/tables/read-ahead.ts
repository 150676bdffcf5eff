/**
 * A table's pages read one ahead where the rows are. An export asks for the next page only once a page has
 * reached it, so without this the archive's worker (or the server) waited, a page at a time, for each page to
 * cross to main and the next ask to cross back: about a third of the deltas table's time. Now, as soon as a full
 * page is answered, the page after it is read at once; the next ask for exactly that page takes it.
 *
 * The table's pages were never one snapshot: each is read when it is asked for. A page read ahead is read after the
 * page before it and before it is asked for, as a faster ask would have read it. So that it never answers anything
 * else, only the very next call may take it, within `HOLD_MS`; any other call drops it.
 */
import type { CsvPage } from './records';

/** how long a page read ahead waits for its ask: past it, the page is read again when asked */
export const HOLD_MS = 5_000;

/** a page's query: after the last row of the page before (null: from the start), at most `limit` rows */
interface PageQuery<K> {
  after: K | null;
  limit: number;
}

/**
 * `read`, one page ahead: the page after each full one it answers is read at once (the next turn of this thread,
 * after the answer has gone), and answers the next call if that call asks for exactly it.
 */
export function readAhead<Q extends PageQuery<K>, K, T extends string | Uint8Array>(
  read: (q: Q) => Promise<CsvPage<K, T>>,
  now: () => number = () => performance.now(),
): (q: Q) => Promise<CsvPage<K, T>> {
  let held: { query: string; at: number; page: Promise<CsvPage<K, T>> } | null = null;
  return async (q) => {
    const query = JSON.stringify(q);
    const ahead = held;
    held = null;
    const page =
      ahead && ahead.query === query && now() - ahead.at <= HOLD_MS
        ? await ahead.page.catch(() => read(q))
        : await read(q);
    if (page.rows >= q.limit && page.last !== null) {
      const next: Q = { ...q, after: page.last };
      const reading = new Promise<void>((resolve) => setImmediate(resolve)).then(() => read(next));
      // a page read ahead that fails is nobody's failure: its ask, if it comes, reads it again
      reading.catch(() => undefined);
      held = { query: JSON.stringify(next), at: now(), page: reading };
    }
    return page;
  };
}
