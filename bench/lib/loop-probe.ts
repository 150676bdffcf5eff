/**
 * A control for the archive bench: a process whose loop does nothing but wait, measured over the
 * same time as main's. Its longest block is what the machine (other processes, the scheduler) did
 * to any loop meanwhile; main's beyond it is main's own. Sends `{ maxMs, p99Ms }` when asked.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';

const send = process.send?.bind(process);
if (!send) throw new Error('loop-probe.ts runs as a child process with an IPC channel');
const loop = monitorEventLoopDelay({ resolution: 5 });
loop.enable();
process.on('message', () => {
  loop.disable();
  send({ maxMs: loop.max / 1e6, p99Ms: loop.percentile(99) / 1e6 });
  process.disconnect();
});
send('ready');
