/**
 * A project's watch tables, on either store: the SQLite store's (watches.ts) say what they are,
 * PostgreSQL's (postgres/watches.ts) fit them, and the archive's host serves every method listed here by name,
 * with the project's handle first.
 */
import type { ProjectStore } from './store';
import type { SqliteWatches } from './watches';

/** Every method of `T`, its result awaitable (a store whose calls wait on a server fits it too). */
type AwaitableMethods<T> = {
  [K in keyof T]: T[K] extends (...args: infer A) => infer R ? (...args: A) => Awaited<R> | Promise<Awaited<R>> : never;
};

/** A project's watch tables (issue 35): watches, runs, gaps, presence, counters and the one runner's row. */
export type ProjectWatches = AwaitableMethods<SqliteWatches>;

/** The watch methods the archive's host serves, each as `watch_<name>`. */
export type WatchMethod = keyof ProjectWatches;
const WATCH: Record<WatchMethod, true> = {
  createWatch: true,
  updateWatch: true,
  watches: true,
  watch: true,
  startRun: true,
  progressRun: true,
  finishRun: true,
  runs: true,
  openRuns: true,
  spent: true,
  stats: true,
  gaps: true,
  addGap: true,
  known: true,
  presenceOf: true,
  attrition: true,
  attritionPage: true,
  counters: true,
  deltas: true,
  postingHistory: true,
  accountFacts: true,
  largestPage: true,
  runner: true,
  takeRunner: true,
  heartbeat: true,
  releaseRunner: true,
  lastRunner: true,
};
export const WATCH_METHODS = Object.keys(WATCH) as WatchMethod[];

/** A project on either store, with its watch tables: what the archive's host serves. */
export interface Project extends ProjectStore {
  readonly watches: ProjectWatches;
}
