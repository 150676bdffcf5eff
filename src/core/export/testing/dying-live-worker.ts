/**
 * The live file's worker (compose/live-worker.ts) that ends its own thread when it is sent its third page, as a
 * crash or its heap's limit would: for the tests of what main makes of a worker lost mid-collection.
 */
import { parentPort } from 'node:worker_threads';
import type { Request } from '../../workers/protocol';

let pages = 0;
parentPort?.on('message', (message: Partial<Request>) => {
  if (message.method === 'add' && ++pages === 3) process.exit(1);
});
await import('../../compose/live-worker');
