/**
 * A second reader of project files, on a thread of its own: a query over one part of a project's items runs there
 * while the archive's worker runs the same query over the rest. A sample's draw ranks every item by SHA-256
 * (rank.ts), work for the CPU alone that one thread did while DuckDB spreads the same draw over two. The reader
 * holds a read-only connection per file, each with the rank function, and never writes an answer.
 *
 * It also checkpoints the files the archive's worker writes: it copies what the write-ahead log holds into the file
 * itself. Done by the writer after its commits, that waited on the disk (the file's pages written where they lie,
 * then synced): of 200,000 posts' ingest, its commits took 3.6–4.4 s with it and 2.0–2.1 s without, and the
 * ingest ran at 20,000–20,900 posts/s against 23,400–24,400 with the checkpoints here (bench:archive, alternated).
 * A checkpoint opens the file for the copy alone (`mode=rw`: a file gone since is not made again, empty) and lets
 * it go at once, so the writer's close stays the last and leaves no log behind.
 *
 * The thread runs the archive worker's own module, told by its `workerData` to serve this instead: the module's
 * address is the one thing known alike from source and built, so no shell names another worker.
 */
import { DatabaseSync, type SQLInputValue } from 'node:sqlite';
import { pathToFileURL } from 'node:url';
import { serveWorker, startWorker, type RunningWorker } from '../../workers';
import { bindable } from '../executor';
import { registerSampleRank } from '../rank';
import { compile, type Sql } from '../sql';

/** What the reader's thread answers: a statement's rows (a read-only connection), a checkpoint, a file let go. */
interface SideApi {
  all: (path: string, text: string, values: SQLInputValue[]) => unknown[];
  checkpoint: (path: string) => void;
  forget: (path: string) => void;
}

/**
 * Copies what the file's write-ahead log holds into it, without waiting for its writer (PASSIVE: the frames not
 * yet copied stay for the next one). Another checkpoint under way (the writer's own, at its bound) is left to end.
 */
function checkpoint(path: string): void {
  const url = pathToFileURL(path);
  url.searchParams.set('mode', 'rw');
  const db = new DatabaseSync(url);
  try {
    db.prepare('PRAGMA wal_checkpoint(PASSIVE)').get();
  } finally {
    db.close();
  }
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
        checkpoint,
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
  /**
   * the file's write-ahead log copied into it there, after its writer's commit: true once done; false while the
   * reader is not running (it starts on this ask) or when it failed: the writer checkpoints the file itself then
   */
  checkpoint: () => Promise<boolean>;
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
      checkpoint: async () => {
        if (!running) {
          if (!failed) start();
          return false;
        }
        await running.call('checkpoint', path);
        return true;
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
