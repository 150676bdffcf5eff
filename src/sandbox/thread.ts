/**
 * Starts the demo sandbox (worker.ts) in a worker thread, so building its world and answering its
 * requests never block main's event loop. The app reaches it over loopback HTTP as before; nothing else
 * changes. Imports no sandbox code itself: fastify and faker load in the worker only.
 */
import type { DemoExamples } from '../shared/ipc/app';
import { startWorker } from '../core/workers';
import type { SandboxOptions } from './server';

/** Where the worker's sandbox listens: its `ready` answer. */
export interface SandboxReady {
  baseUrl: string;
  port: number;
  examples: DemoExamples;
}

export interface SandboxThread extends SandboxReady {
  close: () => Promise<void>;
}

export interface ThreadOptions {
  /** the worker's module (built: out/main/sandbox-worker.js; from source: worker.ts with tsx) */
  entry: URL;
  /** e.g. ['--import', 'tsx'] to run the TypeScript entry */
  execArgv?: string[];
  /** where a crash of the worker after start goes */
  onError?: (error: Error) => void;
}

/** Options that cross the thread boundary (no functions: the worker uses its own clock). */
export type ThreadSandboxOptions = Omit<SandboxOptions, 'now'>;

/** The worker answers no calls: it serves HTTP, and closes its server when stopped (within 5 s, or it is ended). */
export type SandboxApi = Record<never, never>;

export async function startSandboxInWorker(
  options: ThreadSandboxOptions,
  thread: ThreadOptions,
): Promise<SandboxThread> {
  const worker = await startWorker<SandboxApi, SandboxReady>({
    entry: thread.entry,
    execArgv: thread.execArgv,
    workerData: options,
    name: 'the sandbox worker',
    onError: thread.onError,
  });
  return { ...worker.ready, close: worker.stop };
}
