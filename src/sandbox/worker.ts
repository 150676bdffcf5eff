/**
 * The demo sandbox in a worker thread (see thread.ts): building the world
 * takes 0.3–1.5 s of CPU, and answering pages more; on main's event loop that
 * stalled every window and every IPC reply. Started with the options as
 * `workerData`; answers `ready` with where it listens, `close` closes it.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { startSandbox, type SandboxOptions } from './server';
import type { WorkerMessage } from './thread';

if (!parentPort) throw new Error('sandbox/worker.ts runs as a worker thread');
const channel = parentPort;
const send = (message: WorkerMessage) => channel.postMessage(message);

try {
  const sandbox = await startSandbox(workerData as SandboxOptions);
  channel.on('message', (message: { type?: string }) => {
    if (message?.type !== 'close') return;
    void sandbox.close().finally(() => {
      send({ type: 'closed' });
      channel.close();
    });
  });
  send({ type: 'ready', baseUrl: sandbox.baseUrl, port: sandbox.port, examples: sandbox.examples });
} catch (error) {
  send({ type: 'failed', message: error instanceof Error ? error.message : String(error) });
  channel.close();
}
