/**
 * Run as its own process (V8's flags are the process's): allocates for a while the way a long export does (a page
 * in hand survives each scavenge, the rest is garbage), with the young generation held or not (`held` / `free`),
 * then starts a worker held to a 16 MB young generation; prints the largest young generation main had, and the
 * worker's when it began, as JSON.
 */
import { Worker } from 'node:worker_threads';
import { holdYoungGeneration, youngGenerationSize } from '../young-generation';

const held = process.argv[2] === 'held';
const release = held ? holdYoungGeneration({ mainMb: 16, workersMb: 8 }) : () => undefined;

let largest = 0;
let page: Array<{ id: string; text: string; n: number }> = [];
for (let round = 0; round < 400; round++) {
  for (let i = 0; i < 20_000; i++) {
    page.push({ id: `${round}-${i}`, text: 'x'.repeat(40 + (i % 50)), n: i });
    if (page.length > 6_000) page = [];
  }
  largest = Math.max(largest, youngGenerationSize());
  // a turn of the loop, as an export's page gives it: the collections' observer runs there
  await new Promise((resolve) => setImmediate(resolve));
}

const workerAtStart = await new Promise<number>((resolve, reject) => {
  const worker = new Worker(
    `const { parentPort } = require('node:worker_threads');
     const v8 = require('node:v8');
     parentPort.postMessage(v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size);`,
    { eval: true, resourceLimits: { maxYoungGenerationSizeMb: 16 } },
  );
  worker.once('message', (size: number) => {
    resolve(size);
    void worker.terminate();
  });
  worker.once('error', reject);
});
release();
process.stdout.write(JSON.stringify({ largest, workerAtStart }));
