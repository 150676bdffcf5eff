/**
 * The demo sandbox in a worker thread (see thread.ts): building the world
 * takes 0.3–1.5 s of CPU, and answering pages more; on main's event loop that
 * stalled every window and every IPC reply. Started with the options as
 * `workerData`; ready with where it listens, closes its server when stopped.
 */
import { serveWorker } from '../core/workers';
import { startSandbox, type SandboxOptions } from './server';
import type { SandboxApi, SandboxReady } from './thread';

serveWorker<SandboxApi, SandboxReady>(async ({ data }) => {
  const sandbox = await startSandbox(data as SandboxOptions);
  return {
    api: {},
    ready: { baseUrl: sandbox.baseUrl, port: sandbox.port, examples: sandbox.examples },
    close: () => sandbox.close(),
  };
});
