/**
 * A second reader of project files, on a thread of its own: a query over one part of a project's items runs there
 * while the archive's worker runs the same query over the rest. A sample's draw ranks every item by SHA-256
 * (rank.ts), work for the CPU alone that one thread did while DuckDB spreads the same draw over two. The reader
 * holds a read-only connection per file, each with the rank function, and never writes.
 *
 * The thread runs the archive worker's own module, told by its `workerData` to serve this instead: the module's
 * address is the one thing known alike from source and built, so no shell names another worker.
 */
import { DatabaseSync, type SQLInputValue } from 'node:sqlite';
import { serveWorker, startWorker, type RunningWorker } from '../../workers';
import { bindable } from '../executor';
import { registerSampleRank } from '../rank';
import { compile, type Sql } from '../sql';

/** What the reader's thread answers: a statement's rows on a file's read-only connection; a file let go. */
interface SideApi {
  all: (path: string, text: string, values: SQLInputValue[]) => unknown[];
  forget: (path: string) => void;
}

const ROLE = 'skein-side-reader';

/** The `workerData` a module is started with to serve as the side reader. */
const SIDE_READER_DATA = { role: ROLE } as const;

/** Whether this thread was started to serve as the side reader (its module serves `serveSideReader` then). */
export function isSideReader(data: unknown): boolean {
  return typeof data === 'object' && data !== null && (data as { role?: unknown }).role === ROLE;
}

/** The side reader's end, in its thread. */
export function serveSideReader(): void {
  serveWorker<SideApi>(() => {
    const open = new Map<string, DatabaseSync>();
    const forget = (path: string) => {
      open.get(path)?.close();
      open.delete(path);
    };
    return {
      api: {
        all: (path, text, values) => {
          let db = open.get(path);
          if (!db) {
            db = new DatabaseSync(path, { readOnly: true });
            registerSampleRank(db);
            open.set(path, db);
          }
          return db.prepare(text).all(...values);
        },
        forget,
      },
      close: () => {
        for (const path of [...open.keys()]) forget(path);
      },
    };
  });
}

/** One file's queries on the side reader. */
export interface SideQuery {
  /** the rows of `q` there; null while the reader is not running (it starts on the first ask): run it here then */
  all: <R extends object>(q: Sql) => Promise<R[] | null>;
  /**
   * has the reader start now, before it is asked (a draw's form counts its population first); settles once it
   * runs, or could not start
   */
  start: () => Promise<void>;
  /** the file is closed: its connection there too */
  forget: () => Promise<void>;
}

export interface SideReader {
  /** the queries on the file at `path` */
  of: (path: string) => SideQuery;
  close: () => Promise<void>;
}

/**
 * The side reader of the archive's worker, started from `entry` (the worker's own module) on the first query asked
 * of it. A query asked before it is ready, or after it failed to start, is answered null: no draw waits for a
 * thread to start, and one that cannot start leaves the work to the archive's worker, as before.
 */
export function sideReader(
  entry: URL,
  options: { onError?: (error: Error) => void; execArgv?: string[] } = {},
): SideReader {
  const { onError } = options;
  let running: RunningWorker<SideApi> | null = null;
  let starting: Promise<void> | null = null;
  let failed = false;
  const start = () => {
    starting ??= startWorker<SideApi>({
      entry,
      // by default the archive worker's own flags (from source: tsx's loader)
      execArgv: options.execArgv,
      workerData: SIDE_READER_DATA,
      // it holds a statement's rows at a time: the few items of a sample within their bound
      resourceLimits: { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 8 },
      name: 'the archive’s second reader',
      onError: (error) => {
        // a reader that crashed is not started again: the archive's worker does its part from then on
        failed = true;
        running = null;
        onError?.(error);
      },
    }).then(
      (worker) => {
        running = worker;
      },
      () => {
        failed = true;
      },
    );
  };
  return {
    of: (path) => ({
      all: async <R extends object>(q: Sql) => {
        if (!running) {
          if (!failed) start();
          return null;
        }
        const { text, values } = compile(q, 'sqlite', bindable);
        return (await running.call('all', path, text, values as SQLInputValue[])) as R[];
      },
      start: async () => {
        if (!running && !failed) start();
        await starting;
      },
      forget: async () => {
        await running?.call('forget', path);
      },
    }),
    close: async () => {
      await starting;
      await running?.stop();
      running = null;
    },
  };
}
