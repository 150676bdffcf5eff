/**
 * The export's file worker (compose/live-worker.ts) that ends its own thread as a crash or its heap's limit would:
 * when it is sent its third page, or when a file it wrote is about to be put in place (its hidden temp file
 * whole beside the target) — for the tests of what main makes of a worker lost mid-collection or mid-write.
 */
import fs from 'node:fs/promises';
import { syncBuiltinESMExports } from 'node:module';
import { parentPort } from 'node:worker_threads';
import type { Request } from '../../workers/protocol';

let pages = 0;
parentPort?.on('message', (message: Partial<Request>) => {
  if (message.method === 'add' && ++pages === 3) process.exit(1);
});
// every writer's `rename` (the atomic file's last step), as it imported it
fs.rename = () => process.exit(1);
syncBuiltinESMExports();
await import('../../compose/live-worker');
