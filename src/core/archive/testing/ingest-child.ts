/**
 * A child process for the crash test: ingests batches of pages through the archive's worker
 * thread into `path`, printing `committed <n>` once batch n is written, forever, until killed.
 * Usage: node --import tsx ingest-child.ts <path> <pages per batch>
 */
import { startArchiveThread } from '../thread';
import { repliesPage } from './answers';

const [path, perBatchText] = process.argv.slice(2) as [string, string];
const perBatch = Number(perBatchText);
const thread = await startArchiveThread({
  entry: new URL('../worker.ts', import.meta.url),
  execArgv: ['--import', 'tsx'],
});
await thread.call('open', 'current', { path, name: 'Crash', kind: 'live' });
for (let batch = 0; ; batch++) {
  for (let p = 0; p < perBatch; p++) thread.ingest('current', repliesPage((batch * perBatch + p) * 20, 20, Date.now()));
  await thread.call('flush');
  process.stdout.write(`committed ${batch} ${thread.inWorker ? 'worker' : 'main'}\n`);
}
