/**
 * `npm run bench:reexport`: a re-export of the whole project from the research archive,
 * exactly as the Archive view's "Export" runs it (`reexport`: the worker reads the items in chunks, the
 * export's writer makes the file), per format (BENCH_FORMATS, default parquet,csv,jsonl).
 *
 * The budget's figure is a person's view: how long exporting N posts takes against the data's size, i.e.
 * **MB of the items' raw JSON per second of wall time** (click to file complete). A Parquet file is a
 * compressed fraction of that JSON, so its own bytes per second would say little. Also printed: the
 * process's CPU time (main and the worker together, `process.cpuUsage`), raw MB per CPU second (what the
 * load on the machine does not move), the file's size and the peak RSS, and main's event loop while it
 * runs: its longest block and p99 (budget: <= 50 ms, so the window never stalls), beside an idle loop in a
 * process of its own over the same time (lib/loop-probe.ts, the machine's share) and an idle loop of main
 * before the re-exports (the floor).
 *
 * The archive: BENCH_ARCHIVE_POSTS posts (default 200,000) ingested first as the archive bench does, or
 * BENCH_ARCHIVE_DB=<file> to re-export an archive built earlier (BENCH_KEEP_DB=<file> keeps the one
 * built). The export is written in a worker of its own as in the app; BENCH_ON_MAIN=1 writes it on main's
 * thread instead (the comparison). A measurement: it never fails.
 */
import { copyFile, readdir, rm, stat } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { fork } from 'node:child_process';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { ArchiveQuery } from '../src/shared/ipc/archive';
import { reexport } from '../src/core/export/from-archive';
import { archiveSource } from '../src/core/compose/archive-reader';
import { repliesPage } from '../src/core/archive/testing/answers';
import { openBenchArchive, storesAsked } from './lib/archive-db';
import { writeResults } from './lib/results';
import { benchFile, workerEntry } from './lib/runtime';

const POSTS = Number(process.env.BENCH_ARCHIVE_POSTS ?? 200_000);
const FORMATS = (process.env.BENCH_FORMATS ?? 'parquet,csv,jsonl').split(',');
const PAGE = 20;
const ON_MAIN = process.env.BENCH_ON_MAIN === '1';
const BUDGET_MB_PER_S = 50;
const BUDGET_BLOCK_MS = 50;
const round = (n: number, d = 1) => Math.round(n * 10 ** d) / 10 ** d;

async function sizeOf(path: string): Promise<number> {
  const s = await stat(path).catch(() => null);
  if (!s) return 0;
  if (!s.isDirectory()) return s.size;
  let total = 0;
  for (const name of await readdir(path)) total += await sizeOf(join(path, name));
  return total;
}

async function main(): Promise<void> {
  // BENCH_ON_MAIN=1: the writer on main's thread, as before re-exports had a worker of their own (the comparison)
  // --store=postgres: the same re-exports read from a team project (bench/lib/archive-db.ts)
  const store = storesAsked(process.argv.slice(2))[0] ?? 'sqlite';
  const { existing, dir, path, where, thread, cleanup } = await openBenchArchive(
    'skein-bench-reexport-',
    ON_MAIN ? {} : { reexportEntry: workerEntry('reexport').entry },
    store,
  );
  const t0 = performance.now();
  for (let first = 0; !existing && first < POSTS; first += PAGE) {
    thread.ingest('current', repliesPage(first, PAGE, Date.now()));
    await new Promise<void>((resolve) => setImmediate(resolve));
    if ((first + PAGE) % 10_000 === 0) await thread.call('flush');
  }
  await thread.call('flush');
  if (!existing) console.log(`ingested ${POSTS} posts in ${round((performance.now() - t0) / 1000)} s`);
  const keep = process.env.BENCH_KEEP_DB;
  if (keep && !existing && path) {
    // the project is open in WAL mode: what the flush committed is in its -wal file until a checkpoint, so the
    // copy takes both (the file alone read as damaged)
    await copyFile(path, keep);
    await rm(`${keep}-wal`, { force: true });
    await copyFile(`${path}-wal`, `${keep}-wal`).catch((e: NodeJS.ErrnoException) => {
      if (e.code !== 'ENOENT') throw e;
    });
  }

  // what this machine does to an idle loop (other processes, the scheduler): the floor of any block figure
  const idle = monitorEventLoopDelay({ resolution: 5 });
  idle.enable();
  for (let i = 0; i < 200; i++) await new Promise<void>((resolve) => setTimeout(resolve, 5));
  idle.disable();
  const results = [];
  for (const format of FORMATS) {
    // a loop that only waits, in a process of its own, over the same time: the machine's share of any block
    const control = fork(benchFile('lib/loop-probe.ts'), {
      execArgv: ['--import', 'tsx'],
    });
    await new Promise((resolve) => control.once('message', resolve));
    const loop = monitorEventLoopDelay({ resolution: 5 });
    loop.enable();
    const target = join(dir, `all.${format}`);
    // the process's high-water mark so far (KiB): a figure above it after the run was reached during it
    const rss0 = process.resourceUsage().maxRSS;
    let peakRss = process.memoryUsage().rss;
    const probe = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 50);
    const load = loadavg()[0] ?? 0;
    const cpu0 = process.cpuUsage();
    const t = performance.now();
    const { items } = await reexport(archiveSource(thread), {
      handle: 'current',
      query: ArchiveQuery.parse({}),
      format,
      target,
      context: { appName: 'Skein', appVersion: 'bench', mode: 'live', baseUrl: 'https://api.example' },
      now: Date.now(),
      title: 'Bench',
      project: { name: 'Bench', location: where },
    });
    const wallS = (performance.now() - t) / 1000;
    const cpu = process.cpuUsage(cpu0);
    clearInterval(probe);
    const rss1 = process.resourceUsage().maxRSS;
    // the kernel's high-water mark catches a peak between two samples, but only when this run set it: one
    // left by the ingest or an earlier format is not this re-export's
    if (rss1 > rss0) peakRss = Math.max(peakRss, rss1 * 1024);
    loop.disable();
    const controlLoop = await new Promise<{ maxMs: number; p99Ms: number }>((resolve) => {
      control.once('message', resolve);
      control.send('stop');
    });
    const cpuS = (cpu.user + cpu.system) / 1e6;
    const fileBytes = await sizeOf(target);
    // the items' raw JSON: what the person exported (the bench's posts all have about the same size)
    const raw = items * RAW_BYTES_PER_POST;
    const r = {
      format,
      items,
      rawJsonMb: round(raw / 1e6),
      fileMb: round(fileBytes / 1e6),
      wallS: round(wallS, 2),
      cpuS: round(cpuS, 2),
      rawMbPerS: round(raw / 1e6 / wallS),
      rawMbPerCpuS: round(raw / 1e6 / cpuS),
      fileMbPerS: round(fileBytes / 1e6 / wallS),
      peakRssMb: round(peakRss / 1e6),
      loadAverage: round(load, 2),
      mainLoopBlockMaxMs: round(loop.max / 1e6),
      mainLoopBlockP99Ms: round(loop.percentile(99) / 1e6),
      controlLoopBlockMaxMs: round(controlLoop.maxMs),
      controlLoopBlockP99Ms: round(controlLoop.p99Ms),
    };
    results.push(r);
    console.log(JSON.stringify(r));
    await rm(target, { recursive: true, force: true });
  }
  await thread.close();
  await cleanup();
  const file = writeResults(store === 'sqlite' ? 'reexport' : `reexport-${store}`, {
    posts: existing ? null : POSTS,
    store,
    writer: ON_MAIN ? 'main' : 'worker',
    budgetRawMbPerS: BUDGET_MB_PER_S,
    budgetMainLoopBlockMs: BUDGET_BLOCK_MS,
    idleLoopBlockMs: round(idle.max / 1e6),
    cpus: cpus().length,
    results,
  });
  console.log(
    `budget: >= ${BUDGET_MB_PER_S} MB of raw JSON per second (wall), main's loop blocked <= ${BUDGET_BLOCK_MS} ms; idle loop ${round(idle.max / 1e6)} ms; results: ${file}`,
  );
}

/** The raw JSON of one post of `repliesPage`, on average. */
const RAW_BYTES_PER_POST = (() => {
  const posts = (JSON.parse(repliesPage(0, 1000, 0).text) as { replies: unknown[] }).replies;
  return posts.reduce<number>((n, p) => n + Buffer.byteLength(JSON.stringify(p)), 0) / posts.length;
})();

await main();
