/**
 * Starts the demo sandbox (worker.ts) in a worker thread, so building its
 * world and answering its requests never block main's event loop. The app
 * reaches it over loopback HTTP as before; nothing else changes. Imports no
 * sandbox code itself: fastify and faker load in the worker only.
 */
import { Worker } from 'node:worker_threads';
import type { DemoExamples } from '../shared/ipc/app';
import type { SandboxOptions } from './server';

export type WorkerMessage =
  | { type: 'ready'; baseUrl: string; port: number; examples: DemoExamples }
  | { type: 'failed'; message: string }
  | { type: 'closed' };

export interface SandboxThread {
  baseUrl: string;
  port: number;
  examples: DemoExamples;
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

export function startSandboxInWorker(options: ThreadSandboxOptions, thread: ThreadOptions): Promise<SandboxThread> {
  const worker = new Worker(thread.entry, {
    workerData: options,
    execArgv: thread.execArgv,
  });
  return new Promise((resolve, reject) => {
    let started = false;
    worker.on('error', (error) => (started ? thread.onError?.(error) : reject(error)));
    worker.once('exit', (code) => {
      if (!started) reject(new Error(`the sandbox worker exited (code ${code}) before it listened`));
    });
    worker.on('message', (message: WorkerMessage) => {
      if (message.type === 'failed') {
        reject(new Error(message.message));
        void worker.terminate();
      } else if (message.type === 'ready') {
        started = true;
        resolve({
          baseUrl: message.baseUrl,
          port: message.port,
          examples: message.examples,
          close: () => closeWorker(worker),
        });
      }
    });
  });
}

/** Asks the worker to close its server, then ends it; ends it anyway after 5 s. */
function closeWorker(worker: Worker): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => void worker.terminate(), 5_000);
    worker.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    worker.on('message', (message: WorkerMessage) => {
      if (message.type === 'closed') void worker.terminate();
    });
    worker.postMessage({ type: 'close' });
  });
}
