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
    attach(message.port);
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

/**
 * A re-export's own worker (reexport-worker.ts) reads the project here, its replies on its port. A reader
 * it leaves open (the worker crashed or was stopped) is closed when its port closes: an open reader holds
 * the project's read snapshot, and with it the write-ahead log's checkpoint.
 */
function attach(port: MessagePort): void {
  const opening = new Set<number>();
  const open = new Set<unknown>();
  port.on('message', (m: HostRequest) => {
    if (m.type === 'call' && m.method === 'readOpen') opening.add(m.id);
    if (m.type === 'call' && m.method === 'readClose') open.delete(m.args[0]);
    host.handle(m, (reply) => {
      if (reply.type === 'reply' && opening.delete(reply.id) && reply.ok) open.add(reply.value);
      port.postMessage(reply);
    });
  });
  port.once('close', () => {
    for (const reader of open)
      host.handle({ type: 'call', id: 0, method: 'readClose', args: [reader] }, () => undefined);
  });
}
