/**
 * What coding asks of a project: its own tables' calls (tables/tables.ts, each a promise: it runs in the
 * archive's worker) and the few reads of the archive's items it needs. The composition fits it over the
 * archive's thread (compose/coding-store.ts), so this area names no archive code and a new table method is a
 * new call here without an edit.
 */
import type { ArchiveCollection, ArchiveQueryParsed } from '../../shared/ipc/archive';
import type { Stratum } from '../../shared/coding/records';
import type { CodingTables } from './tables/tables';

/** Every method of `T`, its answer a promise (each call crosses a thread). */
type Calls<T> = {
  [K in keyof T]: T[K] extends (...args: infer A) => infer R ? (...args: A) => Promise<Awaited<R>> : never;
};

type ItemRef = { kind: 'post' | 'user'; id: string };

/** The archive's items as coding reads them: a sample's source, the items a view shows, an account. */
export interface ProjectItems {
  /** how many items a query holds, and per value of a grouping (the largest `limit` of them, and how many) */
  groupCounts: (
    q: ArchiveQueryParsed,
    by: Stratum | null,
    limit: number,
  ) => Promise<{ total: number; groups: Array<{ value: string; count: number }>; groupCount: number }>;
  /** a query's items with their group's value (null: no grouping), `chunk` at a time */
  grouped: (
    q: ArchiveQueryParsed,
    by: Stratum | null,
    chunk: number,
  ) => AsyncIterable<Array<{ id: string; group: string | null }>>;
  /**
   * a sample's draw in the project: the lowest-ranked items of each group (db/rank.ts's rank, by `prefix`), as
   * many as its quota among those ranked within its bound (null: any), with their ranks; and every item the
   * project could not rank (rank null)
   */
  lowestRanked: (
    q: ArchiveQueryParsed,
    by: Stratum | null,
    prefix: string,
    quotas: ReadonlyArray<readonly [value: string, quota: number, bound: string | null]>,
  ) => Promise<Array<{ id: string; group: string | null; rank: string | null }>>;
  /** items as the views show them (cards), in the order asked; null where the project holds none, or holds it damaged */
  itemCards: (refs: ItemRef[]) => Promise<Array<ItemRef & { item: unknown; damaged?: true }>>;
  /** which of these ids the project holds, with their raw JSON if asked */
  heldItems: (
    kind: 'post' | 'user',
    ids: string[],
    withRaw: boolean,
  ) => Promise<Array<{ id: string; raw: string; at: number }>>;
  /** which of these ids the project holds, in one read: those that read (raw JSON if asked) and those kept damaged */
  keptItems: (
    kind: 'post' | 'user',
    ids: string[],
    withRaw: boolean,
  ) => Promise<{ held: Array<{ id: string; raw: string; at: number }>; damaged: string[] }>;
  /** an account's id and handle as the project knows them */
  accountOf: (ref: { userId?: string; handle?: string }) => Promise<{ userId: string | null; handle: string | null }>;
  /** the project's collections (a share package can be of one), newest first */
  collections: () => Promise<ArchiveCollection[]>;
  /** the project's own fields (a share package's citation) */
  meta: (key: string) => Promise<string | null>;
  setMeta: (key: string, value: string) => Promise<void>;
}

/** A project as coding reaches it: its coding tables and the archive's items. */
export type CodingStore = Calls<CodingTables> & ProjectItems;

export type Handle = 'current' | 'demo';

/** The coding store of a project (by handle: the mode's, or the one an export reads). */
export type StoreOf = (handle: Handle) => Promise<CodingStore>;
