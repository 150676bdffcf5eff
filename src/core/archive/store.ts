/**
 * The one seam between the archive and where a project lives. A project is a store: the embedded SQLite file
 * (project.ts, the default) or a schema of a PostgreSQL database a team already runs (postgres/project.ts).
 * The archive's host (host.ts) serves `ArchiveApi` over whichever store a handle opened; every test of
 * store.test.ts runs against both.
 *
 * Adding to the archive (docs/archive.md, "Adding to the archive's own tables"): a table is a migration in each store's
 * schema (schema.ts, postgres/schema.ts) and, when a project's copy must carry it, an entry in `TABLES` below; a
 * method is one line here, one implementation in common.ts (in each store where they differ), one entry in
 * `SERVED` (host.ts). Other areas' tables are parts the archive hosts (parts.ts).
 */
import type {
  ActivityBucket,
  ArchiveActivity,
  ArchiveCollection,
  ArchiveProvenance,
  ArchiveQueryParsed,
  ArchiveSearchResult,
  ResearcherActivity,
} from '../../shared/ipc/archive';
import type { TableSpec } from '../db';
import type { IngestRecord } from './answer';
import type { HeldListing } from './conversation';

export type Awaitable<T> = T | Promise<T>;
export type { TableSpec };

export interface ProjectSummary {
  name: string;
  kind: 'live' | 'demo';
  items: number;
  requests: number;
  /** who recorded answers into it, most recent first (a team project's collections in progress show here) */
  researchers: ResearcherActivity[];
  /** why Skein may not write to it, in plain words (a team member with read rights only); null: writable */
  readOnly: string | null;
}

/** A project to make: its name and kind, when, and who (the name recorded with what this Skein writes; null: none given). */
export interface ProjectInit {
  name: string;
  kind: 'live' | 'demo';
  now: number;
  researcher?: string | null;
}

export interface CollectionInput {
  name: string;
  kind: string;
  manifest: unknown;
  /** in order; depth and place (JSON `{root_id, parent_id, depth}`) say where it sits in a thread (null outside one) */
  items: Array<{ kind: string; id: string; depth: number | null; place?: string | null }>;
}

/** An item the project holds: its raw JSON as last received (empty when not asked for) and when (epoch ms). */
export interface HeldItem {
  id: string;
  raw: string;
  at: number;
}

/** the items of some ids a project holds: those that read, and the ids of those whose kept JSON is damaged */
export interface KeptItems {
  held: HeldItem[];
  damaged: string[];
}

/** An answer the project holds, rebuilt from its envelope and its items. */
export interface HeldAnswer {
  at: number;
  httpStatus: number;
  text: string;
}

/** Which held answer: a first page only when received at or after `freshSince`; `baseUrl` null matches any (demo). */
export interface HeldKey {
  operation: string;
  params: string;
  cursor: string | null;
  baseUrl: string | null;
  freshSince: number;
  /** later pages too: nothing received before this (a cleared cache) */
  notBefore?: number;
}

/**
 * An item as a re-export reads it: its raw JSON as last received (that answer's), its place in a thread, when
 * the project first and last received it (epoch ms; the last is a Parquet dataset's `collected_date`), and the
 * request that last returned it (a `requests` rowid, or null).
 */
export interface RawRow {
  id: string;
  raw: string;
  place: string | null;
  firstSeen: number;
  lastSeen: number;
  request: number | null;
}

/** Items a re-export leaves out because their kept JSON no longer reads: how many, and the first of their ids. */
export interface DamagedItems {
  count: number;
  ids: string[];
}

/** A request a re-export's items came from (`requestsOf`): what was asked (never the key), when, what came. */
export interface SourceRequest {
  id: number;
  operation: string;
  /** the request's canonical params, as JSON */
  params: string;
  cursor: string | null;
  /** its page's place in its listing (0: the first page) */
  pageIndex: number;
  at: number;
  baseUrl: string;
  httpStatus: number;
  items: number;
}

/** Rows read a chunk at a time (from one snapshot of the project), then closed. */
export interface Reader<T> {
  next: (max: number) => Awaitable<T[]>;
  close: () => Awaitable<void>;
}

/** A query's items, read a chunk at a time from one snapshot of the project. */
export type RowReader = Reader<RawRow>;

/** What items are grouped by: the day, week (from Monday) or month they were made (UTC), their author, language or type. */
export type Grouping = 'day' | 'week' | 'month' | 'author' | 'lang' | 'type';

/** An item's id with its group's value (null: not grouped; '(none)': the item has no value). */
export interface GroupedRow {
  id: string;
  group: string | null;
}

/** A query's items with their groups, read a chunk at a time. */
export type GroupedReader = Reader<GroupedRow>;

/**
 * A group's share of a sample's draw: its value (as `groupCounts` names it), how many to keep, and the rank its
 * lowest are expected under (null: none) — items ranked above it may be left out, so a group with fewer under
 * it than its quota gives fewer.
 */
export type Quota = readonly [value: string, quota: number, bound: string | null];

/** An item a sample's draw picked, with its rank (db/rank.ts; null where the store could not rank it). */
export interface RankedRow extends GroupedRow {
  rank: string | null;
}

/** How many items a query holds, and per group: the largest `groups` first, and how many groups there are. */
export interface GroupCounts {
  total: number;
  groups: Array<{ value: string; count: number }>;
  groupCount: number;
}

/** A row of a table being copied: its columns by name (numbers, strings, nulls). */
export type TableRow = Record<string, number | string | null>;

/**
 * What a project's copy carries, table by table, in this order (a row's references are copied before it): the
 * key each table is read in order of, and its columns. Both stores have these tables with these columns; each
 * store rebuilds its own full-text index from the items it is given.
 */
export const TABLES = [
  { name: 'meta', key: ['key'], columns: ['key', 'value'] },
  {
    name: 'items',
    key: ['rowid'],
    columns: [
      'rowid',
      'kind',
      'id',
      'raw',
      'first_seen',
      'last_seen',
      'version_since',
      'created_at',
      'author_handle',
      'lang',
      'flags',
      'engagement',
    ],
  },
  { name: 'item_versions', key: ['rowid'], columns: ['rowid', 'item', 'raw', 'seen_from', 'seen_to'] },
  {
    name: 'requests',
    key: ['rowid'],
    columns: [
      'rowid',
      'operation',
      'params',
      'cursor',
      'page_index',
      'at',
      'base_url',
      'http_status',
      'next_cursor',
      'envelope',
      'item_count',
      'stopped',
      'researcher',
    ],
  },
  { name: 'request_items', key: ['request', 'position'], columns: ['request', 'position', 'item'] },
  {
    name: 'collections',
    key: ['rowid'],
    columns: ['rowid', 'name', 'kind', 'created_at', 'manifest', 'researcher'],
  },
  {
    name: 'collection_items',
    key: ['collection', 'position'],
    columns: ['collection', 'position', 'item', 'depth', 'place'],
  },
] as const satisfies readonly TableSpec[];

/** a table a copy carries: the archive's own or a part's */
export type TableName = string;

/** One consistent view of a project for a copy: every table counted and read as of one moment. */
export interface Snapshot {
  count: (table: TableName) => Awaitable<number>;
  /** rows after `after` (the previous page's last key; null: from the start), in key order */
  rows: (table: TableSpec, after: TableRow | null, limit: number) => Awaitable<TableRow[]>;
  close: () => Awaitable<void>;
}

/** A copy being written into an empty project, all of it in one transaction: whole, or not at all. */
export interface Loader {
  add: (table: TableSpec, rows: readonly TableRow[]) => Awaitable<void>;
  count: (table: TableName) => Awaitable<number>;
  commit: () => Awaitable<void>;
  rollback: () => Awaitable<void>;
}

/** Everything the archive does with a project, on either store. */
export interface ProjectStore {
  /** where it is, for messages: a file's path, or the database and schema (never a password) */
  readonly location: string;
  /** answers that could not be kept (rolled back alone) */
  readonly skipped: number;
  /** why the project may not be written to, in plain words; null while it may */
  readonly readOnly: string | null;
  /**
   * A batch parsed ahead, while the one before it is still being written (a store whose writes wait on a
   * server): what it returns is handed back to `ingest` with the same records. Absent: `ingest` parses.
   */
  prepare?: (records: readonly IngestRecord[]) => unknown;
  /** every record in one transaction; a record that cannot be kept is rolled back alone, never its batch */
  ingest: (records: readonly IngestRecord[], prepared?: unknown) => Awaitable<void>;
  summary: () => Awaitable<ProjectSummary>;
  rename: (name: string) => Awaitable<void>;
  search: (q: ArchiveQueryParsed, offset: number, limit: number) => Awaitable<ArchiveSearchResult>;
  activity: (q: ArchiveQueryParsed, bucket: ActivityBucket, utcOffsetMinutes: number) => Awaitable<ArchiveActivity>;
  provenance: (kind: string, id: string) => Awaitable<ArchiveProvenance | null>;
  held: (key: HeldKey) => Awaitable<HeldAnswer | null>;
  /** whether this answer (the same request, received at the same moment) is written already */
  written: (record: Pick<IngestRecord, 'operation' | 'params' | 'cursor' | 'at'>) => Awaitable<boolean>;
  /** an answer a paging guard stopped on: kept as received, never served again */
  forget: (key: { operation: string; params: string; cursor: string | null }) => Awaitable<void>;
  /** a new, empty collection; its items come in `appendCollection` chunks (an export may hold millions) */
  createCollection: (c: { name: string; kind: string; manifest: unknown }) => Awaitable<number>;
  /** items of a collection, in order from `start`; an item the project does not hold is left out; how many were kept */
  appendCollection: (id: number, start: number, items: CollectionInput['items']) => Awaitable<number>;
  collections: () => Awaitable<ArchiveCollection[]>;
  /** the newest collection of `kind` whose manifest is exactly `manifest` (null: none), to open again, not make twice */
  collectionWith: (kind: string, manifest: unknown) => Awaitable<number | null>;
  /** a search kept as a collection of the items it finds now (kind `search`, its query in the manifest) */
  saveSearch: (q: ArchiveQueryParsed, name: string) => Awaitable<ArchiveCollection>;
  /** a saved search takes in the items its search finds now that it lacks (after those it holds); how many */
  refreshSearch: (collection: number) => Awaitable<{ added: number; collection: ArchiveCollection }>;
  /**
   * a query's raw items (a collection in its order, with each item's thread position): what a re-export writes;
   * only those whose kept JSON reads as an object (`damaged` counts the others)
   */
  reader: (q: ArchiveQueryParsed) => Awaitable<RowReader>;
  /** a query's items whose kept JSON no longer reads as an object (damaged in the project): how many, the first ids */
  damaged: (q: ArchiveQueryParsed, listed: number) => Awaitable<DamagedItems>;
  /**
   * the requests a query's items were last returned by (`RawRow.request`), oldest first: a re-export's sources,
   * read a chunk at a time (a million posts draw on some 50,000 of them)
   */
  requests: (q: ArchiveQueryParsed) => Awaitable<Reader<SourceRequest>>;
  /** the reply listings of a post the project holds, one per order (what an export's estimate reads; no call) */
  conversation: (rootId: string) => Awaitable<HeldListing[]>;
  /** which of these ids it holds as items of `kind`, with their raw JSON if asked (a hydration's "already held") */
  heldItems: (kind: 'post' | 'user', ids: readonly string[], withRaw: boolean) => Awaitable<HeldItem[]>;
  /** which of these ids it holds as items of `kind`, in one read: as `heldItems`, and those whose kept JSON is damaged */
  keptItems: (kind: 'post' | 'user', ids: readonly string[], withRaw: boolean) => Awaitable<KeptItems>;
  /** how many items a query holds, and per group (the largest `limit` groups listed) */
  groupCounts: (q: ArchiveQueryParsed, by: Grouping | null, limit: number) => Awaitable<GroupCounts>;
  /** a query's items with their group's value (null: no grouping), read a chunk at a time */
  grouped: (q: ArchiveQueryParsed, by: Grouping | null) => Awaitable<GroupedReader>;
  /**
   * A sample's draw: the lowest-ranked items of each group (ranked by `prefix`, db/rank.ts), as many as its quota
   * within its bound (not grouped: the one quota is the whole query's), each with its rank; besides, every item
   * the store could not rank (rank null), for the caller to rank.
   */
  lowestRanked: (
    q: ArchiveQueryParsed,
    by: Grouping | null,
    prefix: string,
    quotas: ReadonlyArray<Quota>,
  ) => Awaitable<RankedRow[]>;
  /** an account's id and handle as the project knows them (the newest user item, else a post's author) */
  accountOf: (ref: { userId?: string; handle?: string }) => Awaitable<{ userId: string | null; handle: string | null }>;
  /** one of the project's own fields (null: not set), and setting one */
  meta: (key: string) => Awaitable<string | null>;
  setMeta: (key: string, value: string) => Awaitable<void>;
  /** a consistent view to copy from (writes go on meanwhile) */
  snapshot: () => Awaitable<Snapshot>;
  /** a copy into this project, which must hold nothing yet */
  loader: () => Awaitable<Loader>;
  /** the tables a copy carries, the parts' among them (parts.ts) */
  readonly tables: readonly TableSpec[];
  /** the parts it hosts, opened: their methods by part name */
  readonly parts: ReadonlyMap<string, object>;
  /** true when the error is one a later attempt may not meet (the server went away, a deadlock): the batch is kept */
  transient: (error: unknown) => boolean;
  close: () => Awaitable<void>;
}
