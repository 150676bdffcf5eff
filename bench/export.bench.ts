/**
 * `npm run bench:export`: every format measured as what it processes — **MB of posts per second** (the raw JSON
 * of the posts handed to the exporter, per wall second from the start of the export to its file complete),
 * with the MB it wrote beside it — and its peak RSS, for exports of 10,000, 50,000 and 100,000 posts (JSON,
 * JSONL, CSV, Parquet). Beside each, **DuckDB** (@duckdb/node-api) converting the same posts, written once as
 * a JSONL file, to the same kind of file (`COPY (SELECT * FROM read_json(…)) TO … (FORMAT json | csv |
 * parquet)`): the fastest converter a researcher has, on the same data in the same run, and the ratio. DuckDB runs
 * right before each of Skein's runs, so that each ratio is of two runs on the machine as it was then: a VM of this
 * kind drifts (the same run's source took 0.53 s and, minutes later, 0.90 s), and a ratio of runs minutes apart
 * moved with it. `BENCH_REPEAT=n` makes n such pairs of each format and prints their median ratio.
 *
 * Each run is its own child process, so its peak RSS is its own. A page source makes synthetic pages of 20
 * spec-shaped posts on the fly (nothing held), each as an answer's body text, and does to it what Skein's
 * client does (parse it once, hold its ids against the view's paging guard, take each item's text out of it for
 * the journal); the real ExportService
 * collects them into its journal and writes the file as the app does: a Parquet file's rows in a worker of their
 * own (out/main/live-worker.js), a CSV's on the export's thread (`BENCH_LIVE=main`: every file there); how
 * long main's event loop was held at most (and its p99) is printed with each run. Each child holds its young
 * generations as the app does (`BENCH_YOUNG=free`: V8's own sizing, to compare). The source's own time making the posts and the body
 * (the API in the app) is shown apart (`source s`), and Skein's figure is also printed net of it ("net of the
 * source": DuckDB's time does not hold the making of its input either; the client's parse of each body stays in
 * both); `CPU s` is the process's CPU time over the run (process.cpuUsage), the figure that does not move with the
 * machine's load; DuckDB's CPU time is its process's too. Prints the numbers and writes bench/results/export.json.
 * `BENCH_IN_WORKER=young,old` (MB) runs each export in a worker thread held to those heap limits, the design a
 * bounded export would take (its peak RSS is the process's, every thread's).
 * After each count's runs, **the floor**: the least Skein's design does with the same answers, on one thread and
 * nothing else (the source making them, the client's parse, each item's received text taken out; then those texts
 * written once), as MB of posts per second and as a share of DuckDB's figures in the same run: how much of the aim
 * is left for everything else an export does (its paging guards, de-duplication, journal, rows and file).
 * A measurement, not a test: it never fails (aim: every format at least half DuckDB's MB of posts per second, at
 * most 150 MB peak RSS, flat as the count grows).
 */
import { closeSync, createWriteStream, openSync, writeSync } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Worker, isMainThread, parentPort } from 'node:worker_threads';
import { join } from 'node:path';
import type { ExportFormat } from '../src/shared/ipc/export';
import { systemClock } from '../src/core/clock';
import { ExportService } from '../src/core/export/export-service';
import { liveInWorker, writeFromJournalInWorker } from '../src/core/export/live-thread';
import type { PageSource, SourcePage } from '../src/core/walk';
import { PagingViews } from '../src/core/api/paging';
import { receivedTexts } from '../src/shared/api/spans';
import { writeResults } from './lib/results';
import { median } from './lib/stats';
import { syntheticPost } from './lib/synthetic-post';
import {
  OWN_EXEC_ARGV,
  RUNS_AS,
  YOUNG_GENERATION,
  runOwnChild,
  workerEntry,
  youngGenerationAsTheApp,
} from './lib/runtime';

const COUNTS = (process.env.BENCH_COUNTS ?? '10000,50000,100000').split(',').map(Number);
const FORMATS: ExportFormat[] = (process.env.BENCH_FORMATS ?? 'json,jsonl,csv,parquet').split(',');
const PAGE = 20;
/** each run's child may force a collection, to read what the export kept */
const GC = ['--expose-gc'];
/** every export capped at its first page and resumed: its file written from the journal at the end, as a resumed job's is */
const RESUMED = process.env.BENCH_RESUMED === '1';
const AIM = { ofDuckDb: 0.5, peakRssMb: 150 };
/** pairs (DuckDB, then Skein) of each format and count */
const REPEAT = Math.max(1, Math.floor(Number(process.env.BENCH_REPEAT ?? 1)) || 1);
/** The DuckDB conversion each format is compared with. */
const DUCK_TARGET: Record<string, 'json' | 'csv' | 'parquet'> = {
  json: 'json',
  jsonl: 'json',
  csv: 'csv',
  parquet: 'parquet',
};

interface DuckResult {
  target: 'json' | 'csv' | 'parquet';
  count: number;
  ms: number;
  bytes: number;
  cpuMs: number;
  itemsMbPerSecond: number;
  peakRssMb: number;
}

interface FloorResult {
  count: number;
  /** the synthetic source making the answers, as in Skein's runs */
  sourceMs: number;
  /** JSON.parse of each answer's body, as the client does */
  parseMs: number;
  /** each item's received text taken out of its answer */
  textsMs: number;
  /** those texts written once, a page at a time */
  writeMs: number;
  /** MB of posts per second for the source, the parse and the texts */
  itemsMbPerSecond: number;
  /** … and the texts written once */
  writtenMbPerSecond: number;
}

interface RunResult {
  count: number;
  format: ExportFormat;
  items: number;
  bytes: number;
  collectMs: number;
  writeMs: number;
  writeMbPerSecond: number;
  totalMbPerSecond: number;
  /** the raw items' JSON (what a Parquet file's compressed size says nothing about) per second, end to end */
  itemsMbPerSecond: number;
  /**
   * the same, net of the source's own time making the posts and their body (the service's work in the app, on
   * another machine): DuckDB's figure does not hold the making of its input either
   */
  netItemsMbPerSecond: number;
  /** the synthetic source's own time making posts (the network or the response store in the app) */
  sourceMs: number;
  /** CPU time of the process (user + system) from start to settled */
  cpuMs: number;
  /** … of which collecting (the source's time included) */
  collectCpuMs: number;
  /** output MB per CPU second: what the run costs whatever the load */
  cpuMbPerSecond: number;
  peakRssMb: number;
  /** the longest main's event loop was held while the export ran (every window's reply waits on it), and its p99 */
  loopMaxMs: number;
  loopP99Ms: number;
  /** heap still in use after a full GC at the end: what the export kept */
  retainedHeapMb: number;
  /** the most seen over the run (sampled every 50 ms): this thread's V8 heap as reserved, and memory outside it */
  peak: { heapTotalMb: number; externalMb: number; arrayBuffersMb: number };
}

/** Time spent making synthetic posts inside the source (not Skein's work). */
let sourceMs = 0;

/** Bytes of the raw items' JSON handed to the exporter (the input volume, whatever the format), counted after the run. */
function rawJsonBytes(count: number): number {
  let bytes = 0;
  for (let n = 0; n < count; n++) bytes += Buffer.byteLength(JSON.stringify(syntheticPost(n)));
  return bytes;
}

/** The answer's body for the page of posts from `start`, as the service sends it: the service's work, not Skein's. */
function answerBody(start: number, count: number): { text: string; end: number; more: boolean } {
  const end = Math.min(count, start + PAGE);
  const more = end < count;
  const posts = [];
  for (let n = start; n < end; n++) posts.push(syntheticPost(n));
  return {
    text: JSON.stringify({ tweets: posts, has_next_page: more, next_cursor: more ? String(end) : '' }),
    end,
    more,
  };
}

function syntheticSource(count: number): PageSource {
  const views = new PagingViews();
  return {
    async fetchPage({ cursor, deduplicates }): Promise<SourcePage> {
      // an answer arrives as the network's event, a turn of the event loop, as fetch's does in the app
      await new Promise<void>((resolve) => setImmediate(resolve));
      const t = performance.now();
      const { text, end, more } = answerBody(cursor === null ? 0 : Number(cursor), count);
      sourceMs += performance.now() - t;
      // what the client does with an answer: parse it once, apply it to the walk's paging view, and take each
      // item's text out of it
      const parsed = (JSON.parse(text) as { tweets: Array<{ id: string }> }).tweets;
      const decision = views.apply(
        'export:bench',
        { cursor, ids: parsed.map((p) => p.id), hasNextPage: more, nextCursor: more ? String(end) : '' },
        // as the client: a walk that de-duplicates its own items leaves the view its cursors only
        { ids: deduplicates !== true },
      );
      const rawItems = parsed.filter((_, i) => decision.keep[i]);
      return {
        rawItems,
        rawTexts: receivedTexts(text, ['tweets'], parsed, rawItems),
        dropped: [],
        duplicatesRemoved: decision.duplicatesRemoved,
        received: parsed.length,
        notFound: [],
        paging: { hasNextPage: more, nextCursor: more ? String(end) : null, stop: null },
        fetchedAt: Date.now(),
        httpStatus: 200,
        credits: 15 * rawItems.length,
        fromCache: false,
        attempts: 1,
      };
    },
  };
}

async function child(count: number, format: ExportFormat): Promise<RunResult> {
  const dir = await mkdtemp(join(tmpdir(), 'skein-bench-export-'));
  try {
    let collectEnd = 0;
    let collectCpu = 0;
    const service = new ExportService({
      source: syntheticSource(count),
      stateDir: join(dir, 'state'),
      clock: systemClock,
      // as in the app: a Parquet file written in a worker of its own while collecting, a CSV or Parquet file from the journal;
      // BENCH_LIVE=main: on this thread
      ...(process.env.BENCH_LIVE === 'main'
        ? {}
        : {
            openLive: liveInWorker(workerEntry('live')),
            writeFromJournal: writeFromJournalInWorker(workerEntry('live')),
          }),
      context: () => ({ appName: 'Skein', appVersion: 'bench', mode: 'demo', baseUrl: 'http://127.0.0.1:1' }),
      // the person confirming a resume without the first run's cap (BENCH_RESUMED)
      confirm: async () => true,
      onUpdate: (job) => {
        if (counting && job.status === 'writing' && collectEnd === 0) {
          collectEnd = performance.now();
          const c = process.cpuUsage(cpu0);
          collectCpu = (c.user + c.system) / 1000;
        }
      },
    });
    const target = join(dir, `posts.${format}`);
    // BENCH_RESUMED=1: capped at its first page, then resumed, so its file is written from the journal at the end
    let counting = !RESUMED;
    const peak = { heapTotalMb: 0, externalMb: 0, arrayBuffersMb: 0 };
    const sampler = setInterval(() => {
      const m = process.memoryUsage();
      peak.heapTotalMb = Math.max(peak.heapTotalMb, Math.round(m.heapTotal / 1e6));
      peak.externalMb = Math.max(peak.externalMb, Math.round(m.external / 1e6));
      peak.arrayBuffersMb = Math.max(peak.arrayBuffersMb, Math.round(m.arrayBuffers / 1e6));
    }, 50);
    const loop = monitorEventLoopDelay({ resolution: 5 });
    loop.enable();
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const job = await service.start({
      view: { kind: 'timeline', operation: 'userTimeline', params: { userId: '1500000000000000000' } },
      format,
      scope: 'all',
      targetPath: target,
      ...(RESUMED ? { caps: { maxPages: 1 } } : {}),
    });
    if (RESUMED) {
      await service.settled(job.id);
      counting = true;
      await service.resume(job.id, {});
    }
    const done = await service.settled(job.id);
    const t1 = performance.now();
    // the export's peak, read before the bench's own work below (making every post again to weigh them) adds its own
    const peakRssMb = Math.round(process.resourceUsage().maxRSS / 1024);
    clearInterval(sampler);
    loop.disable();
    const cpu = process.cpuUsage(cpu0);
    const cpuMs = (cpu.user + cpu.system) / 1000;
    if (done.status !== 'complete') throw new Error(`export ended ${done.status}: ${done.error?.message ?? ''}`);
    let bytes = 0;
    for (const f of done.files) bytes += (await stat(f)).size;
    const writeMs = t1 - collectEnd;
    const postsMb = rawJsonBytes(count) / 1e6;
    return {
      count,
      format,
      items: done.progress.items,
      bytes,
      collectMs: Math.round(collectEnd - t0),
      writeMs: Math.round(writeMs),
      writeMbPerSecond: Math.round(bytes / 1e6 / (writeMs / 1000)),
      totalMbPerSecond: Math.round(bytes / 1e6 / ((t1 - t0) / 1000)),
      itemsMbPerSecond: Math.round(postsMb / ((t1 - t0) / 1000)),
      netItemsMbPerSecond: Math.round(postsMb / ((t1 - t0 - sourceMs) / 1000)),
      sourceMs: Math.round(sourceMs),
      cpuMs: Math.round(cpuMs),
      collectCpuMs: Math.round(collectCpu),
      cpuMbPerSecond: Math.round(bytes / 1e6 / (cpuMs / 1000)),
      peakRssMb,
      loopMaxMs: Math.round(loop.max / 1e6),
      loopP99Ms: Math.round(loop.percentile(99) / 1e6),
      retainedHeapMb: retainedHeapMb(),
      peak,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * BENCH_IN_WORKER=young,old (MB): the child exports in a worker thread with those `resourceLimits` (the synthetic
 * source with it), to measure what a heap bounded by design would hold the process to; its peak RSS is the whole
 * process's, every thread's.
 */
const IN_WORKER = process.env.BENCH_IN_WORKER;

function inWorker(limits: string, argv: string[]): Promise<RunResult> {
  const [young, old] = limits.split(',').map(Number);
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL(import.meta.url), {
      argv: ['--child', ...argv],
      execArgv: OWN_EXEC_ARGV,
      resourceLimits: { maxYoungGenerationSizeMb: young, ...(old ? { maxOldGenerationSizeMb: old } : {}) },
    });
    let result: RunResult | undefined;
    worker.on('message', (m: RunResult) => {
      // the process's peak, both threads: getrusage's, read in the worker as its job ended
      result = m;
    });
    worker.once('error', reject);
    worker.once('exit', () =>
      result ? resolve(result) : reject(new Error('the export worker ended without a result')),
    );
  });
}

/** The posts as DuckDB reads them: the same raw JSON, one post a line. */
async function writeInput(path: string, count: number): Promise<number> {
  const out = createWriteStream(path);
  let bytes = 0;
  let chunk = '';
  for (let n = 0; n < count; n++) {
    const line = `${JSON.stringify(syntheticPost(n))}\n`;
    bytes += Buffer.byteLength(line) - 1;
    chunk += line;
    if (chunk.length > 1 << 20) {
      if (!out.write(chunk)) await new Promise<void>((r) => out.once('drain', () => r()));
      chunk = '';
    }
  }
  out.end(chunk);
  await new Promise<void>((r) => out.once('finish', () => r()));
  return bytes;
}

/** DuckDB converting the JSONL of the posts to one kind of file: its wall time, CPU and peak RSS. */
async function duckChild(input: string, count: number, target: DuckResult['target']): Promise<DuckResult> {
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const dir = await mkdtemp(join(tmpdir(), 'skein-bench-duckdb-'));
  try {
    const out = join(dir, `posts.${target}`);
    const db = await DuckDBInstance.create(':memory:');
    const connection = await db.connect();
    const format = target === 'parquet' ? 'FORMAT parquet' : target === 'csv' ? 'FORMAT csv, HEADER' : 'FORMAT json';
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    await connection.run(
      `COPY (SELECT * FROM read_json('${input}', format = 'newline_delimited')) TO '${out}' (${format})`,
    );
    const ms = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    // DuckDB's peak, as Skein's is read: before the bench weighs the posts again
    const peakRssMb = Math.round(process.resourceUsage().maxRSS / 1024);
    connection.closeSync();
    db.closeSync();
    return {
      target,
      count,
      ms: Math.round(ms),
      bytes: (await stat(out)).size,
      cpuMs: Math.round((cpu.user + cpu.system) / 1000),
      itemsMbPerSecond: Math.round(rawJsonBytes(count) / 1e6 / (ms / 1000)),
      peakRssMb,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * The least Skein's design does with the same answers, on one thread and nothing else: the source making each
 * answer's body (as in Skein's runs), the client's parse of it, each item's received text taken out of it, and,
 * timed apart, those texts written once a page at a time (what a journal or a JSON file must write at least).
 * No paging guard, de-duplication, record, row or file format: a floor under Skein's figure, not a design.
 */
async function floorChild(count: number): Promise<FloorResult> {
  const dir = await mkdtemp(join(tmpdir(), 'skein-bench-floor-'));
  const fd = openSync(join(dir, 'items'), 'w');
  let source = 0;
  let parse = 0;
  let texts = 0;
  let write = 0;
  try {
    for (let start = 0; start < count; start += PAGE) {
      let t = performance.now();
      const { text } = answerBody(start, count);
      let now = performance.now();
      source += now - t;
      t = now;
      const parsed = (JSON.parse(text) as { tweets: unknown[] }).tweets;
      now = performance.now();
      parse += now - t;
      t = now;
      const kept = receivedTexts(text, ['tweets'], parsed, parsed);
      now = performance.now();
      texts += now - t;
      t = now;
      writeSync(fd, `${kept.join('\n')}\n`);
      write += performance.now() - t;
    }
  } finally {
    closeSync(fd);
    await rm(dir, { recursive: true, force: true });
  }
  const postsMb = rawJsonBytes(count) / 1e6;
  const least = source + parse + texts;
  return {
    count,
    sourceMs: Math.round(source),
    parseMs: Math.round(parse),
    textsMs: Math.round(texts),
    writeMs: Math.round(write),
    itemsMbPerSecond: Math.round(postsMb / (least / 1000)),
    writtenMbPerSecond: Math.round(postsMb / ((least + write) / 1000)),
  };
}

/** The floor's figures as ratios to DuckDB's runs of the same count in this run (each target's median). */
function floorLine(floor: FloorResult, duck: readonly DuckResult[]): string {
  const targets = (['json', 'csv', 'parquet'] as const).filter((t) =>
    duck.some((d) => d.count === floor.count && d.target === t),
  );
  const of = (mbs: number) =>
    targets
      .map((t) =>
        (
          mbs / median(duck.filter((d) => d.count === floor.count && d.target === t).map((d) => d.itemsMbPerSecond))
        ).toFixed(2),
      )
      .join(' / ');
  const s = (ms: number) => (ms / 1000).toFixed(2);
  return `the floor on one thread (the source making the answers ${s(floor.sourceMs)} s, parsing them ${s(floor.parseMs)} s, taking out each item's text ${s(floor.textsMs)} s): ${floor.itemsMbPerSecond} MB of posts/s; with the items' text written once (${s(floor.writeMs)} s): ${floor.writtenMbPerSecond}${targets.length > 0 ? `. Of DuckDB's ${targets.join(' / ')} in this run: ${of(floor.itemsMbPerSecond)}; written once: ${of(floor.writtenMbPerSecond)}` : ''}`;
}

function retainedHeapMb(): number {
  (globalThis as { gc?: () => void }).gc?.();
  return Math.round(process.memoryUsage().heapUsed / 1e6);
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args[0] === '--child') {
    if (isMainThread) youngGenerationAsTheApp();
    if (isMainThread && IN_WORKER) {
      process.send?.(await inWorker(IN_WORKER, args.slice(1)));
      return;
    }
    const result = await child(Number(args[1]), args[2] as ExportFormat);
    if (!isMainThread) {
      parentPort?.postMessage(result);
      return;
    }
    // run by hand (a profile: node --cpu-prof --import tsx bench/export.bench.ts --child 50000 parquet): printed
    if (process.send) process.send(result);
    else console.log(result);
    return;
  }
  if (args[0] === '--duckdb') {
    process.send?.(await duckChild(String(args[1]), Number(args[2]), args[3] as DuckResult['target']));
    return;
  }
  if (args[0] === '--floor') {
    process.send?.(await floorChild(Number(args[1])));
    return;
  }
  if (args[0] === '--baseline') {
    // the same modules loaded, nothing exported: the floor under every peak below
    process.send?.({ peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024), retainedHeapMb: retainedHeapMb() });
    return;
  }
  const loadBefore = loadavg()[0] ?? 0;
  const baseline = await runOwnChild<{ peakRssMb: number; retainedHeapMb: number }>(
    import.meta.url,
    ['--baseline'],
    GC,
  );
  console.log(
    `baseline (Skein's modules loaded ${RUNS_AS}, ${YOUNG_GENERATION}, no export): peak RSS ${baseline.peakRssMb} MB, heap ${baseline.retainedHeapMb} MB`,
  );
  console.log(
    `load average before: ${loadBefore.toFixed(1)} on ${cpus().length} cores (other work on the machine slows every number)\n`,
  );
  const results: RunResult[] = [];
  const duck: DuckResult[] = [];
  const floors: FloorResult[] = [];
  const inputDir = await mkdtemp(join(tmpdir(), 'skein-bench-input-'));
  try {
    for (const count of COUNTS) {
      const input = join(inputDir, `posts-${count}.jsonl`);
      const postsMb = (await writeInput(input, count)) / 1e6;
      console.log(`\n${count.toLocaleString('en-US')} posts: ${postsMb.toFixed(1)} MB of posts (their raw JSON)`);
      console.log(
        'format   Skein MB of posts/s  written MB  peak RSS MB  CPU s  | DuckDB MB of posts/s  written MB  peak RSS MB  CPU s  | Skein/DuckDB  net of the source',
      );
      const medians: string[] = [];
      for (const format of FORMATS) {
        const ratios: number[] = [];
        const nets: number[] = [];
        for (let pair = 0; pair < REPEAT; pair++) {
          const target = DUCK_TARGET[format] ?? 'json';
          const d = await runOwnChild<DuckResult>(import.meta.url, ['--duckdb', input, String(count), target], GC);
          duck.push(d);
          const r = await runOwnChild<RunResult>(import.meta.url, ['--child', String(count), format], GC);
          results.push(r);
          ratios.push(r.itemsMbPerSecond / d.itemsMbPerSecond);
          nets.push(r.netItemsMbPerSecond / d.itemsMbPerSecond);
          const net = `${r.netItemsMbPerSecond} MB/s, ${(r.netItemsMbPerSecond / d.itemsMbPerSecond).toFixed(2)}`;
          console.log(
            `${format.padEnd(8)} ${String(r.itemsMbPerSecond).padStart(19)}  ${(r.bytes / 1e6).toFixed(1).padStart(10)}  ${String(r.peakRssMb).padStart(11)}  ${(r.cpuMs / 1000).toFixed(1).padStart(5)}  | ${String(d.itemsMbPerSecond).padStart(20)}  ${(d.bytes / 1e6).toFixed(1).padStart(10)}  ${String(d.peakRssMb).padStart(11)}  ${(d.cpuMs / 1000).toFixed(1).padStart(5)}  | ${(r.itemsMbPerSecond / d.itemsMbPerSecond).toFixed(2).padStart(12)}  ${net}`,
          );
        }
        if (REPEAT > 1)
          medians.push(
            `${format}: ${median(ratios).toFixed(2)} (${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}), net of the source ${median(nets).toFixed(2)}`,
          );
      }
      if (medians.length > 0)
        console.log(`Skein/DuckDB, the median of ${REPEAT} pairs (least–most): ${medians.join('; ')}`);
      const f = await runOwnChild<FloorResult>(import.meta.url, ['--floor', String(count)], GC);
      floors.push(f);
      console.log(floorLine(f, duck));
    }
  } finally {
    await rm(inputDir, { recursive: true, force: true });
  }
  console.log(
    `\nSkein, every run (collect s: pages into the journal; write s: the file; source s: making the synthetic posts; main held ms: the longest its event loop was held, and the p99 — every window's reply waits on it). ${process.env.BENCH_LIVE === 'main' ? "The file written on the export's thread (BENCH_LIVE=main)" : "A Parquet file written in a worker of its own, a CSV on the export's thread, as in the app"}${IN_WORKER ? `; the export in a worker held to ${IN_WORKER} MB of young and old generation (BENCH_IN_WORKER)` : ''}:`,
  );
  console.log(
    'posts    format  collect s  write s  source s  CPU s (collect)  heap after GC MB  main held ms (p99)  most heap / external / array buffers MB',
  );
  for (const r of results) {
    console.log(
      `${String(r.count).padEnd(8)} ${r.format.padEnd(7)} ${(r.collectMs / 1000).toFixed(2).padStart(9)}  ${(r.writeMs / 1000).toFixed(2).padStart(7)}  ${(r.sourceMs / 1000).toFixed(2).padStart(8)}  ${(r.cpuMs / 1000).toFixed(2).padStart(5)} (${(r.collectCpuMs / 1000).toFixed(2)})  ${String(r.retainedHeapMb).padStart(16)}  ${String(r.loopMaxMs).padStart(12)} (${r.loopP99Ms})  ${`${r.peak.heapTotalMb} / ${r.peak.externalMb} / ${r.peak.arrayBuffersMb}`.padStart(19)}`,
    );
  }
  const file = writeResults('export', {
    aim: AIM,
    pageSize: PAGE,
    baseline,
    loadAverage: { before: loadBefore, after: loadavg()[0] ?? 0 },
    results,
    duckdb: duck,
    floor: floors,
  });
  console.log(
    `\nload average after: ${(loadavg()[0] ?? 0).toFixed(1)}. aim: every format >= ${AIM.ofDuckDb} of DuckDB's MB of posts per second, <= ${AIM.peakRssMb} MB peak RSS, flat as the count grows`,
  );
  console.log(`results: ${file}`);
}

await main();
