/**
 * A child process for the crash test: ingests batches of pages through the archive's worker thread into the
 * project `init` names (a file or a team's schema: an `OpenInit` as JSON), printing `committed <n>` once batch n
 * is written, forever, until killed. Pages are numbered from `first` (two children write apart).
 * Usage: node --import tsx ingest-child.ts <init json> <pages per batch> [first]
 */
import type { OpenInit } from '../host';
import { startArchiveThread } from '../thread';
import { repliesPage } from './answers';

const [initText, perBatchText, firstText] = process.argv.slice(2) as [string, string, string | undefined];
const init = JSON.parse(initText) as OpenInit;
const perBatch = Number(perBatchText);
const first = Number(firstText ?? 0);
const thread = await startArchiveThread({
  entry: new URL('../../compose/archive-worker.ts', import.meta.url),
  execArgv: ['--import', 'tsx'],
});
await thread.call('open', 'current', init);
for (let batch = 0; ; batch++) {
  for (let p = 0; p < perBatch; p++)
    thread.ingest('current', repliesPage(first + (batch * perBatch + p) * 20, 20, Date.now()));
  await thread.call('flush');
  process.stdout.write(`committed ${batch} ${thread.inWorker ? 'worker' : 'main'}\n`);
}
