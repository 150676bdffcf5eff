/**
 * Main's end of a worker: starts it, waits for its `ready` (or its failure), gives typed calls to the api
 * it serves (serve.ts), more connections to the same api for other threads, and a stop that asks first.
 */
import {
  MessageChannel,
  Worker,
  type MessagePort,
  type ResourceLimits,
  type TransferListItem,
} from 'node:worker_threads';
import { link, type Client } from './client';
import { fromWire, type Control, type Reply, type Status } from './protocol';

export interface StartOptions {
  /** the worker's module (built: out/main/<name>-worker.js; from source: its .ts, with execArgv ['--import', 'tsx']) */
  entry: URL;
  execArgv?: string[];
  resourceLimits?: ResourceLimits;
  /** the worker's setup gets it as `data` (cloned; a MessagePort in it must be in `transferList`) */
  workerData?: unknown;
  transferList?: TransferListItem[];
  /** who it is in errors: 'the archive' → "the archive stopped" */
  name: string;
  /** after `ready`: a crash, an exit nobody asked for, or an error the worker reported (a failed post) */
  onError?: (error: Error) => void;
  /** how long `stop` waits for the worker's own close before ending it (default 5 s) */
  stopTimeoutMs?: number;
}

export interface RunningWorker<Api, Ready = undefined> extends Client<Api> {
  /** what the worker's setup answered with `ready` (where its server listens, say) */
  readonly ready: Ready;
  /** another connection to the same api, for another thread: transfer the port there and `connectPort` it */
  port: () => MessagePort;
  /** asks the worker to close (its `close` runs), ends it after `stopTimeoutMs` regardless; resolves once it exited */
  stop: () => Promise<void>;
}

/** Whether `e` (or an error it was caused by) is a worker ended for passing its heap's limit (`resourceLimits`). */
export function outOfMemory(e: unknown): boolean {
  for (let c: unknown = e; c instanceof Error; c = c.cause)
    if ((c as { code?: unknown }).code === 'ERR_WORKER_OUT_OF_MEMORY') return true;
  return false;
}

/**
 * Starts the worker at `entry` and resolves once it is ready; rejects if it fails (its error, code kept),
 * crashes or exits first. Once running, a crash or an exit rejects the calls still waiting and every later one.
 */
export function startWorker<Api, Ready = undefined>(options: StartOptions): Promise<RunningWorker<Api, Ready>> {
  const { name } = options;
  return new Promise((resolve, reject) => {
    const worker = new Worker(options.entry, {
      execArgv: options.execArgv,
      resourceLimits: options.resourceLimits,
      workerData: options.workerData,
      transferList: options.transferList,
    });
    const control = (message: Control, transfer?: TransferListItem[]) => worker.postMessage(message, transfer);
    const { client, receive, end } = link<Api>((request) => worker.postMessage(request));
    let phase: 'starting' | 'running' | 'failed' = 'starting';
    let crashed = false;
    let exited = false;
    let stopping: Promise<void> | null = null;
    const fail = (error: Error) => {
      phase = 'failed';
      reject(error);
      void worker.terminate();
    };

    const running = (ready: Ready): RunningWorker<Api, Ready> => ({
      ...client,
      ready,
      port: () => {
        const { port1, port2 } = new MessageChannel();
        control({ kind: 'attach', port: port1 }, [port1]);
        return port2;
      },
      stop: () => {
        if (exited) return Promise.resolve();
        stopping ??= new Promise<void>((done) => {
          const timer = setTimeout(() => void worker.terminate(), options.stopTimeoutMs ?? 5_000);
          worker.once('exit', () => {
            clearTimeout(timer);
            done();
          });
          control({ kind: 'close' });
        });
        return stopping;
      },
    });

    worker.on('message', (message: Reply | Status) => {
      switch (message.kind) {
        case 'reply':
          receive(message);
          break;
        case 'ready':
          phase = 'running';
          resolve(running(message.ready as Ready));
          break;
        case 'failed':
          if (phase === 'starting') fail(fromWire(message.error));
          break;
        case 'report':
          options.onError?.(fromWire(message.error));
          break;
        case 'closed':
          void worker.terminate();
          break;
      }
    });
    worker.on('error', (error) => {
      if (phase === 'starting') return fail(error);
      crashed = true;
      if (phase === 'running') options.onError?.(error);
      end(new Error(`${name} stopped`, { cause: error }));
    });
    worker.once('exit', (code) => {
      exited = true;
      if (phase === 'starting') return fail(new Error(`${name} exited (code ${code}) before it was ready`));
      const stopped = new Error(stopping ? `${name} was stopped` : `${name} stopped (exit code ${code})`);
      if (phase === 'running' && !stopping && !crashed) options.onError?.(stopped);
      end(stopped);
    });
  });
}
