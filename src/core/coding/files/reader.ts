/**
 * Reading a REFI-QDA file another person made. bounded.ts refuses what is out of bounds before parsing; what is
 * left can still cost a parser far more memory than its bytes, so when the shell gives an entry the file is read
 * in a short-lived worker thread with a heap of its own: a file that defeats the bounds ends that worker, and
 * the person is told, while main (every window's IPC) goes on.
 */
import { outOfMemory, startWorker, type Client } from '../../workers';
import { UnsafeFile } from './bounded';
import { readQdc, readQdpx, type ReadProject } from './refi-project';

/** What the reading worker serves (compose/files-worker.ts), and what reading on this thread gives too. */
export interface RefiReader {
  qdpx: (zip: Uint8Array, now: number) => Promise<ReadProject>;
  qdc: (text: string) => Promise<ReturnType<typeof readQdc>>;
}

/** on this thread: where no worker can start (tests, a shell that gives no entry) */
export const readOnThisThread: RefiReader = {
  qdpx: async (zip, now) => readQdpx(zip, now),
  qdc: async (text) => readQdc(text),
};

/** a file's parse gets this much heap: ten times the largest XML bounded.ts lets through, and no more */
const HEAP = { maxOldGenerationSizeMb: 640, maxYoungGenerationSizeMb: 32 };

export function readInWorker(entry: URL, execArgv?: string[], heap = HEAP): RefiReader {
  async function inWorker<T>(call: (worker: Client<RefiReader>) => Promise<T>): Promise<T> {
    let worker: Awaited<ReturnType<typeof startWorker<RefiReader>>> | null = null;
    try {
      worker = await startWorker<RefiReader>({ entry, execArgv, resourceLimits: heap, name: 'the file reader' });
      return await call(worker);
    } catch (e) {
      if (outOfMemory(e)) throw new UnsafeFile('reading it took more memory than Skein gives one file');
      throw e;
    } finally {
      void worker?.stop();
    }
  }
  return {
    qdpx: (zip, now) => inWorker((w) => w.call('qdpx', zip, now)),
    qdc: (text) => inWorker((w) => w.call('qdc', text)),
  };
}
