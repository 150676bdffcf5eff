/**
 * `skein run`'s job runs in a worker thread whose heap is held to a limit. On the main thread V8 sizes a long
 * job's heap by what it allocates, not by what it keeps: a hydration of a million ids peaked at 350–400 MB there
 * while 35 MB stayed live after each full collection. Near a limit V8 collects instead of growing, so the job's
 * heap stays flat in its size (the export service alone, bench/hydrate.bench.ts with BENCH_IN_WORKER=16,256:
 * 226 MB at 100,000 ids, 250 MB at 1,000,000, at the same rate; the whole runner, bench:hydrate:runner: 485 → 248
 * MB and 602 → 308–323 MB). The old generation's limit is the one that bounds it (a young one alone left 316 / 348
 * MB); a job that needs more ends like a kill, resumable, and says how to give it more.
 */
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';

/** the job's heap, old generation, by default (MB); `--memory` sets it */
export const JOB_MEMORY_MB = 256;
/** the young generation: small, so that short-lived pages are collected often rather than kept around */
const YOUNG_MB = 16;

interface FromMain<O> {
  skeinJob: O;
}

/** In the job's thread: the options the main thread ran it with; elsewhere null. */
export function jobOfThisThread<O>(): O | null {
  if (isMainThread) return null;
  const data = workerData as Partial<FromMain<O>> | null;
  return data?.skeinJob ?? null;
}

/** In the job's thread: aborted when the main thread is told to stop (SIGTERM, Ctrl+C: only it receives them). */
export function stopFromMain(): AbortSignal {
  const stop = new AbortController();
  parentPort?.once('message', () => stop.abort());
  // the port must not keep the thread alive once the job is done
  parentPort?.unref();
  return stop.signal;
}

/** In the job's thread: the job's exit code, for the main thread to exit with. */
export function reportExitCode(code: number): void {
  parentPort?.postMessage({ code });
}

/**
 * On the main thread: runs the job in a thread of its own (`entry`, the runner's module, started with the options
 * as its data) and resolves with its exit code. `stop` is passed on. A thread that ends without a code (out of its
 * memory, a crash) is said on `err`, in words that say how to go on: the job's journal is kept as after a kill.
 */
export function runJobInThread<O extends { memoryMb: number }>(
  entry: URL,
  options: O,
  stop: AbortSignal,
  err: (line: string) => void,
): Promise<number> {
  return new Promise((resolve) => {
    const worker = new Worker(entry, {
      workerData: { skeinJob: options } satisfies FromMain<O>,
      resourceLimits: { maxYoungGenerationSizeMb: YOUNG_MB, maxOldGenerationSizeMb: options.memoryMb },
    });
    let code: number | null = null;
    const onStop = () => worker.postMessage('stop');
    stop.addEventListener('abort', onStop, { once: true });
    worker.on('message', (message: { code: number }) => {
      code = message.code;
    });
    worker.once('error', (error: Error & { code?: string }) => {
      err(
        error.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? `Stopped: the job needed more memory than it may use (${options.memoryMb} MB). Run the same command again with --memory ${options.memoryMb * 2}: it goes on where it stopped, and no page is paid for twice.`
          : `Stopped: ${error.message.replace(/\.$/, '')}. Run the same command again to go on where it stopped (no page is paid for twice).`,
      );
      code = 1;
    });
    worker.once('exit', () => {
      stop.removeEventListener('abort', onStop);
      resolve(code ?? 1);
    });
  });
}
