/**
 * Main's end of the archive: every call crosses to the archive's worker thread (serve.ts) and
 * resolves with its answer; ingest is posted and never awaited. When no worker can start (no entry
 * given, as in unit tests, or a packaged app where it fails), the same host runs on main's thread.
 */
import type { AnyPart } from '../db';
import { inProcess, startWorker, type RunningWorker } from '../workers';
import { ArchiveHost, type ArchiveApi } from './host';
import { thread, type ArchiveThread } from './over-port';

export type { ArchiveThread } from './over-port';

export interface ArchiveThreadOptions {
  /** the worker's module (built: out/main/archive-worker.js; from source: compose/archive-worker.ts with tsx); absent: main's thread */
  entry?: URL;
  execArgv?: string[];
  /** the re-export's worker module (built: out/main/reexport-worker.js; from source: reexport-worker.ts), run with `execArgv` */
  reexportEntry?: URL;
  /** a failed batch or a crashed worker */
  onError?: (error: Error) => void;
  /** the parts every project hosts, when the archive runs on main's thread (the worker's entry has its own) */
  parts?: readonly AnyPart[];
}

function onMainThread(options: ArchiveThreadOptions): ArchiveThread {
  const host = new ArchiveHost((error) => options.onError?.(error), options.parts);
  return thread(inProcess(host.api), false, () => host.dispose());
}

export async function startArchiveThread(options: ArchiveThreadOptions = {}): Promise<ArchiveThread> {
  if (!options.entry) return onMainThread(options);
  let worker: RunningWorker<ArchiveApi>;
  try {
    worker = await startWorker<ArchiveApi>({
      entry: options.entry,
      execArgv: options.execArgv,
      // a small heap collected early: what the worker holds at once is a batch of answers (RSS budget 300 MB)
      resourceLimits: { maxOldGenerationSizeMb: 128, maxYoungGenerationSizeMb: 16 },
      name: 'the archive',
      onError: options.onError,
      stopTimeoutMs: 10_000,
    });
  } catch {
    return onMainThread(options);
  }
  const reexport = options.reexportEntry;
  return {
    ...thread(worker, true, worker.stop),
    offMain: reexport ? { entry: reexport, execArgv: options.execArgv, port: worker.port } : undefined,
  };
}
