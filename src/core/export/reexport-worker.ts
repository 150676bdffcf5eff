/**
 * The re-export's worker thread (see reexport-thread.ts): reads the items from the archive's worker
 * over the port it was given and writes the export here, off main's event loop; answers once.
 */
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { SkeinError } from '../../shared/errors';
import { writeReexport } from './reexport';
import type { ReexportAnswer, ReexportJob } from './reexport-thread';
import { threadOverPort } from '../archive/thread';

if (!parentPort) throw new Error('archive/reexport-worker.ts runs as a worker thread');
const channel = parentPort;
const { port, job } = workerData as { port: MessagePort; job: ReexportJob };
const archive = threadOverPort(port);
const controller = new AbortController();
channel.on('message', (m: { type: 'abort' }) => {
  if (m.type === 'abort') controller.abort();
});
const answer = (a: ReexportAnswer) => channel.postMessage(a);
try {
  const { items, files } = await writeReexport(archive, { ...job, signal: controller.signal });
  answer({ type: 'done', items, files });
} catch (e) {
  answer({
    type: 'failed',
    error: e instanceof SkeinError ? e.toData() : { message: e instanceof Error ? e.message : String(e) },
  });
} finally {
  await archive.close();
  channel.close();
}
