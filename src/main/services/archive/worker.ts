/**
 * The archive in a worker thread (see thread.ts): node:sqlite is synchronous, so every ingest,
 * search, chart and re-export runs here, never on main's event loop.
 */
import { parentPort, type MessagePort } from 'node:worker_threads';
import { ArchiveHost, type HostReply, type HostRequest } from './host';

if (!parentPort) throw new Error('archive/worker.ts runs as a worker thread');
const channel = parentPort;
const host = new ArchiveHost((reply: HostReply) => channel.postMessage(reply));
channel.on('message', (message: HostRequest | { type: 'close' } | { type: 'attach'; port: MessagePort }) => {
  if (message.type === 'attach') {
    // a re-export's own worker (reexport-worker.ts) reads the project here, its replies on its port
    const port = message.port;
    port.on('message', (m: HostRequest) => host.handle(m, (reply) => port.postMessage(reply)));
    return;
  }
  if (message.type === 'close') {
    host.dispose();
    channel.postMessage({ type: 'closed' });
    channel.close();
    return;
  }
  host.handle(message);
});
channel.postMessage({ type: 'ready' });
