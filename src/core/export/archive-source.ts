/**
 * The research archive as an export's source (a re-export): the calls it makes, by name, as the archive's
 * thread answers them — a query's items read in chunks, and the posts a network looks its replies' parents
 * up in. Declared here; core/index.ts hands in the archive's thread, and a re-export's own worker its view
 * of that thread over a port (both through core/compose/archive-reader.ts).
 */
import type { MessagePort } from 'node:worker_threads';
import type { ArchiveQueryParsed } from '../../shared/ipc/archive';

/** Which project: the one live answers go to, or the demo one. */
export type ArchiveHandle = 'current' | 'demo';

/**
 * A kept item as the archive reads it back: its id, its raw JSON as last received, its place in a thread, when
 * the project first and last received it, and the request that last returned it (`ArchiveRequest.id`).
 */
export interface ArchiveRow {
  id: string;
  raw: string;
  place: string | null;
  firstSeen: number;
  lastSeen: number;
  request: number | null;
}

/** A request of the project a re-export's items came from (never the key): the manifest lists them. */
export interface ArchiveRequest {
  id: number;
  operation: string;
  /** canonical params, as JSON */
  params: string;
  cursor: string | null;
  pageIndex: number;
  at: number;
  baseUrl: string;
  httpStatus: number;
  items: number;
}

/**
 * What a re-export asks of the archive: a query's items read in chunks (a reader opened, read, closed) and the
 * posts a network looks its replies' parents up in. Plain methods, so whatever reaches the archive (its
 * thread's calls, the same over a port) fits by wiring, never by import: core/compose/archive-reader.ts.
 */
export interface ArchiveReader {
  readOpen: (handle: ArchiveHandle, query: ArchiveQueryParsed) => Promise<number>;
  readNext: (reader: number, max: number) => Promise<ArchiveRow[]>;
  readClose: (reader: number) => Promise<void>;
  /** a query's items whose kept JSON no longer reads (damaged in the project): left out, counted, the first named */
  damagedItems: (
    handle: ArchiveHandle,
    query: ArchiveQueryParsed,
    listed: number,
  ) => Promise<{ count: number; ids: string[] }>;
  /** the requests a query's items were last returned by, oldest first: a reader, closed by `readClose` */
  requestsOpen: (handle: ArchiveHandle, query: ArchiveQueryParsed) => Promise<number>;
  requestsNext: (reader: number, max: number) => Promise<ArchiveRequest[]>;
  /** the posts of these ids the project holds, with their raw JSON */
  heldPosts: (handle: ArchiveHandle, ids: string[]) => Promise<Array<{ raw: string }>>;
}

export interface ArchiveSource extends ArchiveReader {
  /**
   * Present when the archive runs in a worker that a re-export's worker can reach: the re-export is then
   * written in a worker of its own (reexport-thread.ts), which asks the archive over `port()`.
   */
  readonly offMain?: { entry: URL; execArgv?: string[]; port: () => MessagePort };
}
