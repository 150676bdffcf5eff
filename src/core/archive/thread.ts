/**
 * Main's end of the archive: every call crosses to the archive's worker thread (worker.ts) and
 * resolves with its answer; ingest is posted and never awaited. When no worker can start (no entry
 * given, as in unit tests, or a packaged app where it fails), the same host runs on main's thread.
 */
import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';
import { SkeinError } from '../../shared/errors';
import { ArchiveHost, type Handle, type HostMethods, type HostReply, type HostRequest, type MethodName } from './host';
import type { IngestRecord } from './ingest';

export interface ArchiveThread {
  /** true when SQLite runs in a worker, off main's event loop */
  readonly inWorker: boolean;
  call: <M extends MethodName>(method: M, ...args: Parameters<HostMethods[M]>) => Promise<ReturnType<HostMethods[M]>>;
  /** queued and written in the next batch; never waits */
  ingest: (handle: Handle, record: IngestRecord) => void;
  close: () => Promise<void>;
  /**
   * Present when the archive runs in a worker and a re-export worker's module is known: a re-export
   * then runs in a worker of its own (reexport-thread.ts) that asks the archive over `port()`.
   */
  readonly offMain?: { entry: URL; execArgv?: string[]; port: () => MessagePort };
}

export interface ArchiveThreadOptions {
  /** the worker's module (built: out/main/archive-worker.js; from source: worker.ts with tsx); absent: main's thread */
  entry?: URL;
  execArgv?: string[];
  /** the re-export's worker module (built: out/main/reexport-worker.js; from source: reexport-worker.ts), run with `execArgv` */
  reexportEntry?: URL;
  /** a failed batch or a crashed worker */
  onError?: (error: Error) => void;
}

type Pending = { resolve: (v: unknown) => void; reject: (e: Error) => void };

function replyError(reply: Extract<HostReply, { ok: false }>): Error {
  return reply.refused
    ? new SkeinError('write-failed', reply.message, { action: 'Open another project, or create a new one.' })
    : new Error(reply.message);
}

function connect(post: (m: HostRequest) => void, inWorker: boolean, close: () => Promise<void>) {
  const pending = new Map<number, Pending>();
  let next = 1;
  const thread: ArchiveThread = {
    inWorker,
    call: (method, ...args) =>
      new Promise((resolve, reject) => {
        const id = next++;
        pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
        post({ type: 'call', id, method, args });
      }),
    ingest: (handle, record) => post({ type: 'ingest', handle, record }),
    close,
  };
  const receive = (reply: HostReply, onError?: (e: Error) => void) => {
    if (reply.type === 'ingest-failed') {
      onError?.(new Error(`the archive could not record answers: ${reply.message}`));
      return;
    }
    const p = pending.get(reply.id);
    if (!p) return;
    pending.delete(reply.id);
    if (reply.ok) p.resolve(reply.value);
    else p.reject(replyError(reply));
  };
  const failAll = (e: Error) => {
    for (const p of pending.values()) p.reject(e);
    pending.clear();
  };
  return { thread, receive, failAll };
}

function inProcess(options: ArchiveThreadOptions): ArchiveThread {
  const host: ArchiveHost = new ArchiveHost((reply) => queueMicrotask(() => link.receive(reply, options.onError)));
  const link = connect(
    (m) => host.handle(m),
    false,
    async () => host.dispose(),
  );
  return link.thread;
}

/** The archive as seen from another worker: the same calls, over a port the archive's worker answers on. */
export function threadOverPort(port: MessagePort): ArchiveThread {
  const link = connect(
    (m) => port.postMessage(m),
    true,
    async () => port.close(),
  );
  port.on('message', (reply: HostReply) => link.receive(reply));
  return link.thread;
}

export async function startArchiveThread(options: ArchiveThreadOptions = {}): Promise<ArchiveThread> {
  if (!options.entry) return inProcess(options);
  let worker: Worker;
  try {
    worker = new Worker(options.entry, {
      ...(options.execArgv ? { execArgv: options.execArgv } : {}),
      // a small heap collected early: what the worker holds at once is a batch of answers (RSS budget 300 MB)
      resourceLimits: { maxOldGenerationSizeMb: 128, maxYoungGenerationSizeMb: 16 },
    });
  } catch {
    return inProcess(options);
  }
  const started = await new Promise<boolean>((resolve) => {
    worker.once('error', () => resolve(false));
    worker.once('message', (m: { type?: string }) => resolve(m.type === 'ready'));
  });
  if (!started) {
    void worker.terminate();
    return inProcess(options);
  }
  const link = connect(
    (m) => worker.postMessage(m),
    true,
    () =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(() => void worker.terminate(), 10_000);
        worker.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
        worker.postMessage({ type: 'close' });
      }),
  );
  const entry = options.reexportEntry;
  const thread: ArchiveThread = !entry
    ? link.thread
    : {
        ...link.thread,
        offMain: {
          entry,
          ...(options.execArgv ? { execArgv: options.execArgv } : {}),
          port: () => {
            const { port1, port2 } = new MessageChannel();
            worker.postMessage({ type: 'attach', port: port1 }, [port1]);
            return port2;
          },
        },
      };
  worker.on('message', (m: HostReply | { type: 'ready' } | { type: 'closed' }) => {
    if (m.type === 'reply' || m.type === 'ingest-failed') link.receive(m, options.onError);
  });
  worker.on('error', (e) => {
    options.onError?.(e);
    link.failAll(new Error('the archive stopped'));
  });
  return thread;
}
