/**
 * A re-export in a worker thread of its own (issue 24 #7): reading the items' JSON and encoding them
 * (CSV rows, Parquet, a network) take seconds of CPU that would otherwise block main's event loop.
 * The worker (reexport-worker.ts) asks the archive's worker for the items over a port of its own and
 * writes the file; main only waits for its answer. One short-lived worker per re-export.
 */
import { Worker, type MessagePort } from 'node:worker_threads';
import { SkeinError, type SkeinErrorData } from '../../shared/errors';
import type { ReexportInput } from './reexport';

export type ReexportJob = Omit<ReexportInput, 'signal'>;
export type ReexportAnswer =
  { type: 'done'; items: number; files: string[] } | { type: 'failed'; error: SkeinErrorData | { message: string } };

function failure(error: SkeinErrorData | { message: string }): Error {
  return 'code' in error ? SkeinError.from(error) : new Error(error.message);
}

export async function reexportInWorker(
  offMain: { entry: URL; execArgv?: string[]; port: () => MessagePort },
  input: ReexportInput,
): Promise<{ items: number; files: string[] }> {
  const { signal, ...job } = input;
  signal?.throwIfAborted();
  const port = offMain.port();
  const worker = new Worker(offMain.entry, {
    ...(offMain.execArgv ? { execArgv: offMain.execArgv } : {}),
    workerData: { port, job: job satisfies ReexportJob },
    transferList: [port],
  });
  const abort = () => worker.postMessage({ type: 'abort' });
  signal?.addEventListener('abort', abort, { once: true });
  try {
    return await new Promise((resolve, reject) => {
      worker.once('message', (answer: ReexportAnswer) =>
        answer.type === 'done' ? resolve({ items: answer.items, files: answer.files }) : reject(failure(answer.error)),
      );
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`the re-export stopped (exit code ${code})`)));
    });
  } finally {
    signal?.removeEventListener('abort', abort);
    void worker.terminate();
  }
}
