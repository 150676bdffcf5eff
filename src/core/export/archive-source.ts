/**
 * The research archive as an export's source (a re-export): the calls it makes, by name, as the archive's
 * thread answers them — a query's items read in chunks, and the posts a network looks its replies' parents
 * up in. Declared here; core/index.ts hands in the archive's thread, and a re-export's own worker its view
 * of that thread over a port (reexport-worker.ts).
 */
import type { MessagePort } from 'node:worker_threads';
import type { ArchiveQueryParsed } from '../../shared/ipc/archive';

/** Which project: the one live answers go to, or the demo one. */
export type ArchiveHandle = 'current' | 'demo';

/** A kept item as the archive reads it back: its id, its raw JSON as last received, its place in a thread. */
export interface ArchiveRow {
  id: string;
  raw: string;
  place: string | null;
}

/** The archive's calls a re-export makes: name → (arguments) → answer. */
interface ArchiveMethods {
  readOpen: (handle: ArchiveHandle, query: ArchiveQueryParsed) => number;
  readNext: (reader: number, max: number) => ArchiveRow[];
  readClose: (reader: number) => void;
  heldItems: (handle: ArchiveHandle, kind: 'post', ids: string[], withRaw: true) => Array<{ raw: string }>;
}

/** The archive's thread as a re-export calls it: by name, answered asynchronously. */
export interface ArchiveCalls {
  call: <M extends keyof ArchiveMethods>(
    method: M,
    ...args: Parameters<ArchiveMethods[M]>
  ) => Promise<ReturnType<ArchiveMethods[M]>>;
}

export interface ArchiveSource extends ArchiveCalls {
  /**
   * Present when the archive runs in a worker that a re-export's worker can reach: the re-export is then
   * written in a worker of its own (reexport-thread.ts), which asks the archive over `port()`.
   */
  readonly offMain?: { entry: URL; execArgv?: string[]; port: () => MessagePort };
}
