/**
 * A sandbox in its own process, for benches: the measuring client must not
 * share the server's event loop. Sends {baseUrl, examples, generationMs} to
 * the parent over IPC once listening; answers 'cpu' with its CPU time so far
 * (load-independent cost per request); stops when the parent disconnects.
 */
import { startSandbox } from '../../src/sandbox';

const size = process.env.SANDBOX_SIZE === 'small' ? 'small' : 'default';
const started = performance.now();
const sandbox = await startSandbox({ size });
process.send?.({ baseUrl: sandbox.baseUrl, examples: sandbox.examples, startMs: performance.now() - started });
process.on('message', (m) => {
  if (m === 'cpu') process.send?.({ cpu: process.cpuUsage() });
});
process.on('disconnect', () => void sandbox.close().then(() => process.exit(0)));
