/**
 * `npm run bench:archive`: the research archive's budgets (issue 24), measured through the real
 * worker thread (`src/main/services/archive/worker.ts`) exactly as main uses it:
 * - ingest: posts/s of pages of 20 spec-shaped posts posted as text (budget >= 20,000/s) and the
 *   process's peak RSS, worker included (<= 300 MB);
 * - main's longest event-loop block while ingesting (<= 50 ms; `monitorEventLoopDelay` max);
 * - database size against the raw JSON it holds (<= 1.5x), WAL checkpointed;
 * - full-text search, first page (50, newest first) p95 over the archive (<= 100 ms at 1M), and the
 *   activity chart (per day) over all posts (<= 300 ms at 1M).
 * The count: BENCH_ARCHIVE_POSTS (default 200,000). Main posts pages one per turn of its loop, as
 * fast as the worker takes them, waiting for the worker every 10,000 posts so the queue stays bounded.
 * Writes bench/results/archive.json. A measurement: it never fails.
 */
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { ArchiveQuery } from '../src/shared/ipc/archive';
import { repliesPage } from '../src/main/services/archive/testing/answers';
import { startArchiveThread } from '../src/main/services/archive/thread';
import { writeResults } from './lib/results';

export const ARCHIVE_BUDGETS = {
  postsPerSecond: 20_000,
  peakRssMb: 300,
  mainBlockMs: 50,
  sizeRatio: 1.5,
  searchP95Ms: 100,
  activityMs: 300,
};

const POSTS = Number(process.env.BENCH_ARCHIVE_POSTS ?? 200_000);
const PAGE = 20;
const SYNC_EVERY = 10_000;

const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))]!;
const round = (n: number, d = 1) => Math.round(n * 10 ** d) / 10 ** d;

async function main(): Promise<void> {
  // BENCH_ARCHIVE_DB=<file>: measure search and the chart over an archive built earlier (no ingest)
  const existing = process.env.BENCH_ARCHIVE_DB;
  const dir = await mkdtemp(join(tmpdir(), 'skein-bench-archive-'));
  const path = existing ?? join(dir, 'bench.skein');
  const thread = await startArchiveThread({
    entry: new URL('../src/main/services/archive/worker.ts', import.meta.url),
    execArgv: ['--import', 'tsx'],
  });
  if (!thread.inWorker) throw new Error('the archive worker did not start');
  await thread.call('open', 'current', { path, name: 'Bench', kind: 'live' });

  // what this machine does to an idle loop (other processes, the scheduler): the floor of any block figure
  const idle = monitorEventLoopDelay({ resolution: 5 });
  idle.enable();
  for (let i = 0; i < 200; i++) await new Promise<void>((resolve) => setTimeout(resolve, 5));
  idle.disable();
  const rssBefore = process.memoryUsage().rss;
  let peakRss = rssBefore;
  const rssProbe = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 50);
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  let rawBytes = 0;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  for (let first = 0; !existing && first < POSTS; first += PAGE) {
    const record = repliesPage(first, PAGE, Date.now());
    rawBytes += Buffer.byteLength(record.text);
    thread.ingest('current', record);
    // answers reach main one at a time: main's loop turns between them, as it does in the app
    await new Promise<void>((resolve) => setImmediate(resolve));
    if ((first + PAGE) % SYNC_EVERY === 0) await thread.call('flush');
  }
  await thread.call('flush');
  const ingestS = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  // CPU seconds of the whole process (main making the pages too): the rate a core of its own would give
  const cpuS = (cpu.user + cpu.system) / 1e6;
  loop.disable();
  clearInterval(rssProbe);
  peakRss = Math.max(peakRss, process.memoryUsage().rss);

  const words = ['heron', 'river', 'archive', 'signal', 'market', 'w123', 'w999', 'storm garden', 'engine', 'pix'];
  const searchMs: number[] = [];
  for (let round_ = 0; round_ < 3; round_++) {
    for (const text of words) {
      const t = performance.now();
      await thread.call('search', 'current', ArchiveQuery.parse({ text }), 0, 50);
      searchMs.push(performance.now() - t);
    }
  }
  const filteredMs: number[] = [];
  for (const text of words.slice(0, 5)) {
    const t = performance.now();
    await thread.call('search', 'current', ArchiveQuery.parse({ text, sort: 'engagement', reply: false }), 0, 50);
    filteredMs.push(performance.now() - t);
  }
  const ta = performance.now();
  const activity = await thread.call('activity', 'current', ArchiveQuery.parse({}), 'day', 0);
  const activityMs = performance.now() - ta;
  const summary = await thread.call('summary', 'current');
  await thread.close();
  const size = (await stat(path)).size + (await stat(`${path}-wal`).catch(() => ({ size: 0 }))).size;
  const posts = existing ? summary.items : POSTS;
  await rm(dir, { recursive: true, force: true });

  const result = {
    posts,
    items: summary.items,
    ...(existing
      ? { reusedArchive: true }
      : {
          postsPerSecond: Math.round(POSTS / ingestS),
          ingestSeconds: round(ingestS),
          postsPerCpuSecond: Math.round(POSTS / cpuS),
        }),
    peakRssMb: round(peakRss / 1e6),
    rssBeforeIngestMb: round(rssBefore / 1e6),
    mainBlockMs: round(loop.max / 1e6),
    mainBlockP99Ms: round(loop.percentile(99) / 1e6),
    idleLoopBlockMs: round(idle.max / 1e6),
    rawJsonMb: round(rawBytes / 1e6),
    dbMb: round(size / 1e6),
    sizeRatio: existing ? null : round(size / rawBytes, 2),
    searchFirstPageP95Ms: round(p95(searchMs)),
    searchFirstPageMedianMs: round([...searchMs].sort((a, b) => a - b)[Math.floor(searchMs.length / 2)]!),
    searchFilteredByEngagementP95Ms: round(p95(filteredMs)),
    activityMs: round(activityMs),
    activityBuckets: activity.buckets.length,
    budgets: ARCHIVE_BUDGETS,
    loadAverage: loadavg().map((l) => round(l, 2)),
    cpus: cpus().length,
  };
  console.log(JSON.stringify(result, null, 2));
  writeResults(existing ? 'archive-search' : 'archive', result);
}

await main();
