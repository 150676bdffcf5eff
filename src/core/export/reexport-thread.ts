/**
 * A re-export in a worker thread of its own: reading the items' JSON and encoding them
 * (CSV rows, Parquet, a network) take seconds of CPU that would otherwise block main's event loop.
 * The worker (core/compose/reexport-worker.ts) asks the archive's worker for the items over a port of its own and
 * writes the file; main only waits for its answer. One short-lived worker per re-export.
 */
import type { MessagePort, ResourceLimits } from 'node:worker_threads';
import { SkeinError } from '../../shared/errors';
import { outOfMemory, startWorker } from '../workers';
import { removeStaleTempsOf } from '../files/atomic-file';
import { reexportFiles, type ReexportInput } from './reexport';

export type ReexportJob = Omit<ReexportInput, 'signal'>;

/** What the re-export's worker answers (reexport-worker.ts serves it). */
export interface ReexportApi {
  /** writes the job's files: the items written and the files (data first, manifest last) */
  write: (job: ReexportJob) => Promise<{ items: number; files: string[]; damaged: number }>;
  /** stops the write under way (an AbortSignal cannot cross threads); posted */
  abort: () => void;
}

/**
 * A streaming format's writer holds a chunk of items and a row group at a time, so its heap is bounded: left to
 * size itself, V8 let a re-export of 200,000 posts grow the process to 400-450 MB on garbage; held to this, 350-380
 * MB, in the same wall time (a smaller young generation cut more memory for 10 % more time; BENCHMARKS.md). A
 * network's graph grows with the export, so its writer is not held to it.
 */
export const STREAMING_HEAP: ResourceLimits = { maxYoungGenerationSizeMb: 64, maxOldGenerationSizeMb: 256 };

export async function reexportInWorker(
  offMain: { entry: URL; execArgv?: string[]; port: () => MessagePort },
  input: ReexportInput,
  heap?: ResourceLimits,
): Promise<{ items: number; files: string[]; damaged: number }> {
  const { signal, ...job } = input;
  signal?.throwIfAborted();
  const port = offMain.port();
  const worker = await startWorker<ReexportApi>({
    entry: offMain.entry,
    execArgv: offMain.execArgv,
    workerData: { port },
    transferList: [port],
    resourceLimits: heap,
    name: 'the re-export',
  }).catch(tooBig(heap));
  const abort = () => worker.post('abort');
  signal?.addEventListener('abort', abort, { once: true });
  if (signal?.aborted) abort();
  try {
    return await worker.call('write', job).catch(async (e: unknown) => {
      // a worker stopped mid-write (its heap's limit, a crash) could not clear what it had staged: a hidden temp
      // file as big as the export so far, which would otherwise stay until the next export to the same path
      await removeStaleTempsOf(reexportFiles(job));
      return tooBig(heap)(e);
    });
  } finally {
    signal?.removeEventListener('abort', abort);
    void worker.stop();
  }
}

/** A worker ended at its heap's limit, said in plain words (the file was not written), with what to do next. */
export const tooBig =
  (
    heap: ResourceLimits | undefined,
    action = 'Export a smaller selection (a collection or a search), then retry; if it happens again, please report it.',
  ) =>
  (e: unknown): never => {
    if (!outOfMemory(e)) throw e;
    const mb = (heap?.maxOldGenerationSizeMb ?? 0) + (heap?.maxYoungGenerationSizeMb ?? 0);
    throw new SkeinError(
      'internal',
      `The export needed more memory than Skein gives one export (${mb ? `${mb} MB` : 'its limit'}) and was stopped; no file was written.`,
      { action },
    );
  };
