/**
 * The archive as another worker thread sees it: the same calls as main's, over a port the archive's worker answers
 * on. Apart from thread.ts, so that such a worker loads the archive's client alone, not its host.
 */
import type { MessagePort } from 'node:worker_threads';
import { connectPort, type Client } from '../workers';
import type { IngestRecord } from './answer';
import type { ArchiveApi, Handle } from './host';

export interface ArchiveThread {
  /** true when SQLite runs in a worker, off main's event loop */
  readonly inWorker: boolean;
  call: Client<ArchiveApi>['call'];
  /** queued and written in the next batch; never waits */
  ingest: (handle: Handle, record: IngestRecord) => void;
  close: () => Promise<void>;
  /**
   * Present when the archive runs in a worker and a re-export worker's module is known: a re-export
   * then runs in a worker of its own (reexport-thread.ts) that asks the archive over `port()`.
   */
  readonly offMain?: { entry: URL; execArgv?: string[]; port: () => MessagePort };
}

/** an `ArchiveThread` over a client of the archive's api */
export function thread(client: Client<ArchiveApi>, inWorker: boolean, close: () => Promise<void>): ArchiveThread {
  return { inWorker, call: client.call, ingest: (handle, record) => client.post('ingest', handle, record), close };
}

/** The archive as seen from another worker: the same calls, over a port the archive's worker answers on. */
export function threadOverPort(port: MessagePort): ArchiveThread {
  const client = connectPort<ArchiveApi>(port);
  return thread(client, true, client.close);
}
