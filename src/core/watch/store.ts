/**
 * What the watch area asks of the project it runs in (a port: core/compose reaches the project's watch tables
 * in the archive's worker, tests give a project of their own). Its methods are the watch tables' own
 * (tables/watch-tables.ts), each a call that may cross a thread, so a new one is written there once.
 */
import type { WatchTables } from './tables/watch-tables';

/** Every method of `T`, its result a promise. */
type Calls<T> = {
  [K in keyof T]: T[K] extends (...args: infer A) => infer R ? (...args: A) => Promise<Awaited<R>> : never;
};

export type WatchStore = Calls<WatchTables> & {
  /** the answers the client has received so far are written to the project (before a run journals its page) */
  flush: () => Promise<void>;
};

/** The project the watches of the mode in use live in: where (for the run journals beside it) and its store. */
export interface WatchProject {
  /** main's id of the project file (changes when another project is opened) */
  id: string;
  name: string;
  /** the project file's path (run journals are kept in a folder beside it) */
  location: string;
  kind: 'live' | 'demo';
  store: WatchStore;
  /**
   * keeps these posts as a named collection of this project (the archive's, fitted in core/compose: the watch
   * area names none of its tables), in this order; its id. A collection kept with the very same manifest is
   * that one, opened again (its ids are not read).
   */
  keepCollection: (c: { name: string; manifest: unknown; ids: AsyncIterable<string[]> }) => Promise<number>;
  /** small notes kept in the project by key (how a watch's media keeping went); absent: none are kept */
  notes?: { read: (key: string) => Promise<string | null>; write: (key: string, value: string) => Promise<void> };
}
