/**
 * A re-export in a worker thread of its own: reading the items' JSON and encoding them
 * (CSV rows, Parquet, a network) take seconds of CPU that would otherwise block main's event loop.
 * The worker (core/compose/reexport-worker.ts) asks the archive's worker for the items over a port of its own and
 * writes the file; main only waits for its answer. One short-lived worker per re-export.
 */
import type { MessagePort } from 'node:worker_threads';
import { startWorker } from '../workers';
import type { ReexportInput } from './reexport';

export type ReexportJob = Omit<ReexportInput, 'signal'>;

/** What the re-export's worker answers (reexport-worker.ts serves it). */
export interface ReexportApi {
  /** writes the job's files: the items written and the files (data first, manifest last) */
  write: (job: ReexportJob) => Promise<{ items: number; files: string[] }>;
  /** stops the write under way (an AbortSignal cannot cross threads); posted */
  abort: () => void;
}

export async function reexportInWorker(
  offMain: { entry: URL; execArgv?: string[]; port: () => MessagePort },
  input: ReexportInput,
): Promise<{ items: number; files: string[] }> {
  const { signal, ...job } = input;
  signal?.throwIfAborted();
  const port = offMain.port();
  const worker = await startWorker<ReexportApi>({
    entry: offMain.entry,
    execArgv: offMain.execArgv,
    workerData: { port },
    transferList: [port],
    name: 'the re-export',
  });
  const abort = () => worker.post('abort');
  signal?.addEventListener('abort', abort, { once: true });
  if (signal?.aborted) abort();
  try {
    return await worker.call('write', job);
  } finally {
    signal?.removeEventListener('abort', abort);
    void worker.stop();
  }
}
