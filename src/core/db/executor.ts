/**
 * The executor port: what an area's tables ask of the project's database, on either store. An area writes its
 * queries once (sql.ts) and runs them here; the SQLite executor answers at once (node:sqlite, in the archive's
 * worker), the PostgreSQL one over the network. Text comes back as it was written on both (PostgreSQL's
 * NUL-safe codec is the executor's business, never the area's); 64-bit integers come back as numbers.
 */
import type { DialectName, Sql } from './sql';

export type Row = Record<string, unknown>;

/** A lock held across transactions while this process lives: the one runner of a project across machines. */
export interface SessionLock {
  /** true while this process holds it (taken now if need be), false while another live process does */
  hold: () => Promise<boolean>;
  /** lets it go (nothing when not held) */
  release: () => Promise<void>;
}

export interface Db {
  readonly dialect: DialectName;
  /** every row of a query */
  all: <R extends object = Row>(q: Sql) => Promise<R[]>;
  /**
   * every row of a query as an array of its columns, in the order it selects them: for pages of thousands of rows,
   * which read the same fields of each (no object per row, no property looked up by name)
   */
  tuples: (q: Sql) => Promise<unknown[][]>;
  /**
   * a query's rows in order as `tuples` gives them, read as they are asked for: for a table of millions written out
   * page after page, each page continuing where the last one stopped (no page sought again by its key). On
   * PostgreSQL one `COPY (query) TO STDOUT` on a connection of its own, its text parsed here rather than field by
   * field by the driver; `numbers` says which columns are numbers (the others are text). On SQLite the statement is
   * stepped. Not a snapshot: rows written meanwhile may or may not be read. `close` it when done with it early.
   */
  stream: (q: Sql, numbers: readonly boolean[]) => RowStream;
  /** the first row of a query, or undefined */
  get: <R extends object = Row>(q: Sql) => Promise<R | undefined>;
  /** a statement that returns no rows; how many rows it changed */
  run: (q: Sql) => Promise<number>;
  /** statements with no values (a migration's DDL) */
  exec: (script: string) => Promise<void>;
  /**
   * `work` in one transaction, committed when it returns and rolled back when it throws; inside one, the same
   * transaction. `lock`: a lock class every process writing the same rules takes for the transaction (on
   * PostgreSQL an advisory lock per project; a project file has one writer at a time already).
   */
  transaction: <T>(work: (tx: Db) => Promise<T>, lock?: number) => Promise<T>;
  /** a session lock of this class on this project (see SessionLock) */
  sessionLock: (lockClass: number) => SessionLock;
}

/** A query's rows, a batch at a time (see `Db.stream`). */
export interface RowStream {
  /** up to `max` more rows; fewer only at the end (then the stream has closed itself) */
  next: (max: number) => Promise<unknown[][]>;
  /**
   * up to `max` more rows, each handed to `each` as it is read; how many (fewer only at the end). The array may be
   * the same one each time, its values good until `each` returns: for a page that keeps nothing of a row but what
   * it writes (no array per row for the collector to copy while the page is read)
   */
  visit: (max: number, each: (row: readonly unknown[]) => void) => Promise<number>;
  /** lets go of what it holds (a connection, a statement); nothing once ended */
  close: () => Promise<void>;
}

/** `visit` for a stream whose rows come as arrays of their own anyway: each batch's rows handed on. */
export function visitBatches(next: RowStream['next']): RowStream['visit'] {
  return async (max, each) => {
    const rows = await next(max);
    for (const row of rows) each(row);
    return rows.length;
  };
}

/** A bound value as both drivers take it: booleans as 0/1 (no column is boolean), undefined as null. */
export function bindable(v: unknown): unknown {
  if (v === undefined) return null;
  if (typeof v === 'boolean') return v ? 1 : 0;
  return v;
}

/** what a held transaction's work throws to roll it back */
const ROLLBACK = new Error('rolled back');

/**
 * A transaction on `db` (under `lock`, as `transaction` takes it) held open for work that comes in several calls:
 * `tx` runs inside it until `end` commits it (true) or rolls it back.
 */
export async function heldTransaction(
  db: Db,
  lock?: number,
): Promise<{ tx: Db; end: (commit: boolean) => Promise<void> }> {
  let begun: (tx: Db) => void = () => undefined;
  let decide: (commit: boolean) => void = () => undefined;
  const inside = new Promise<Db>((resolve) => (begun = resolve));
  const decided = new Promise<boolean>((resolve) => (decide = resolve));
  const done = db.transaction(async (tx) => {
    begun(tx);
    if (!(await decided)) throw ROLLBACK;
  }, lock);
  // a transaction that could not begin fails here
  const tx = await Promise.race([inside, done.then(() => inside)]);
  return {
    tx,
    end: async (commit) => {
      decide(commit);
      await done.catch((e: unknown) => {
        if (e !== ROLLBACK) throw e;
      });
    },
  };
}
