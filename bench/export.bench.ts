/**
 * `npm run bench:export`: throughput (MB/s) and peak RSS of exports of
 * 10,000, 50,000 and 100,000 posts, per format (JSON, JSONL, CSV, Parquet); `items MB/s` is the raw JSON
 * handed to the exporter per second end to end (for Parquet, whose compressed file is a fraction of it). Each run is its own child
 * process, so its peak RSS is its own. A page source makes synthetic pages of
 * 20 spec-shaped posts on the fly (nothing held), the real ExportService
 * collects them into its journal and streams the file. End to end is what a person waits for: from the
 * start of the export to the job settled with its file complete (renamed into place, fsynced). The
 * source's own time making the synthetic posts (the API or the response store in the app) is shown apart
 * (`source s`), and `CPU s` is the process's CPU time over the run (process.cpuUsage), the figure that does
 * not move with the machine's load. Prints the numbers and
 * writes bench/results/export.json. A measurement, not a test: it never fails
 * (aim: >= 100 MB/s writing, <= 150 MB peak RSS, flat as the count grows).
 */
import { fork } from 'node:child_process';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ExportFormat } from '../src/shared/ipc/export';
import { systemClock } from '../src/core/clock';
import { ExportService } from '../src/core/export/export-service';
import type { PageSource, SourcePage } from '../src/core/export/page-source';
import { writeResults } from './lib/results';

const COUNTS = (process.env.BENCH_COUNTS ?? '10000,50000,100000').split(',').map(Number);
const FORMATS: ExportFormat[] = (process.env.BENCH_FORMATS ?? 'json,jsonl,csv,parquet').split(',');
const PAGE = 20;
const AIM = { mbPerSecond: 100, peakRssMb: 150 };

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
  /** the synthetic source's own time making posts (the network or the response store in the app) */
  sourceMs: number;
  /** CPU time of the process (user + system) from start to settled */
  cpuMs: number;
  /** … of which collecting (the source's time included) */
  collectCpuMs: number;
  /** output MB per CPU second: what the run costs whatever the load */
  cpuMbPerSecond: number;
  peakRssMb: number;
  /** heap still in use after a full GC at the end: what the export kept */
  retainedHeapMb: number;
}

/** A deterministic spec-shaped post of about 1.5 KB; ids above 2^53. */
function syntheticPost(n: number): Record<string, unknown> {
  // 1_700_000_000_000_000_000n + n and 1_500_000_000_000_000_000n + n % 5000, without BigInt's cost (n < 10^8)
  const id = `17000000000${String(n).padStart(8, '0')}`;
  const author = `15000000000${String(n % 5000).padStart(8, '0')}`;
  const words = 8 + ((n * 7919) % 40);
  const text = Array.from(
    { length: words },
    (_, i) => ['research', 'data', 'skein', 'thread', 'é', '日本', 'ok', '#tag'][(n + i) % 8],
  ).join(' ');
  return {
    type: 'tweet',
    id,
    url: `https://social.invalid/u${author}/status/${id}`,
    text,
    retweetCount: n % 97,
    replyCount: n % 13,
    likeCount: n % 1000,
    quoteCount: n % 7,
    bookmarkCount: n % 5,
    viewCount: String(n * 3),
    createdAt: 'Sun Nov 22 02:13:21 +0000 2026',
    lang: 'en',
    isReply: n % 2 === 0,
    inReplyToId: n % 2 === 0 ? `17000000000${String(Math.max(0, n - 1)).padStart(8, '0')}` : null,
    conversationId: '1700000000000000000',
    displayTextRange: [0, text.length],
    entities: {
      hashtags: [{ text: 'tag', indices: [0, 4] }],
      symbols: [],
      urls: [
        {
          display_url: 'example.invalid/x',
          expanded_url: 'https://example.invalid/x',
          indices: [5, 28],
          url: 'https://t.invalid/abc',
        },
      ],
      user_mentions: [{ id_str: author, indices: [0, 6], name: 'Someone', screen_name: `user${n % 5000}` }],
    },
    quoted_tweet: null,
    author: {
      type: 'user',
      userName: `user${n % 5000}`,
      url: `https://social.invalid/user${n % 5000}`,
      id: author,
      name: `User ${n % 5000}`,
      isBlueVerified: n % 3 === 0,
      description: 'A synthetic author for the export benchmark.',
      location: null,
      followers: n % 10_000,
      following: n % 500,
      statusesCount: null,
      createdAt: 'Mon Jan 05 10:00:00 +0000 2015',
      profilePicture: `https://img.invalid/${author}.png`,
      coverPicture: null,
      canDm: false,
      pinnedTweetIds: [],
      profile_bio: null,
    },
  };
}

/** Time spent making synthetic posts inside the source (not Skein's work). */
let sourceMs = 0;

/** Bytes of the raw items' JSON handed to the exporter (the input volume, whatever the format), counted after the run. */
function rawJsonBytes(count: number): number {
  let bytes = 0;
  for (let n = 0; n < count; n++) bytes += Buffer.byteLength(JSON.stringify(syntheticPost(n)));
  return bytes;
}

function syntheticSource(count: number): PageSource {
  return {
    async fetchPage({ cursor }): Promise<SourcePage> {
      const start = cursor === null ? 0 : Number(cursor);
      const end = Math.min(count, start + PAGE);
      const t = performance.now();
      const rawItems = [];
      for (let n = start; n < end; n++) rawItems.push(syntheticPost(n));
      sourceMs += performance.now() - t;
      const more = end < count;
      return {
        rawItems,
        dropped: [],
        duplicatesRemoved: 0,
        received: rawItems.length,
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
      context: () => ({ appName: 'Skein', appVersion: 'bench', mode: 'demo', baseUrl: 'http://127.0.0.1:1' }),
      onUpdate: (job) => {
        if (job.status === 'writing' && collectEnd === 0) {
          collectEnd = performance.now();
          const c = process.cpuUsage(cpu0);
          collectCpu = (c.user + c.system) / 1000;
        }
      },
    });
    const target = join(dir, `posts.${format}`);
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const job = await service.start({
      view: { kind: 'timeline', operation: 'userTimeline', params: { userId: '1500000000000000000' } },
      format,
      scope: 'all',
      targetPath: target,
    });
    const done = await service.settled(job.id);
    const t1 = performance.now();
    const cpu = process.cpuUsage(cpu0);
    const cpuMs = (cpu.user + cpu.system) / 1000;
    if (done.status !== 'complete') throw new Error(`export ended ${done.status}: ${done.error?.message ?? ''}`);
    let bytes = 0;
    for (const f of done.files) bytes += (await stat(f)).size;
    const writeMs = t1 - collectEnd;
    return {
      count,
      format,
      items: done.progress.items,
      bytes,
      collectMs: Math.round(collectEnd - t0),
      writeMs: Math.round(writeMs),
      writeMbPerSecond: Math.round(bytes / 1e6 / (writeMs / 1000)),
      totalMbPerSecond: Math.round(bytes / 1e6 / ((t1 - t0) / 1000)),
      itemsMbPerSecond: Math.round(rawJsonBytes(count) / 1e6 / ((t1 - t0) / 1000)),
      sourceMs: Math.round(sourceMs),
      cpuMs: Math.round(cpuMs),
      collectCpuMs: Math.round(collectCpu),
      cpuMbPerSecond: Math.round(bytes / 1e6 / (cpuMs / 1000)),
      peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
      retainedHeapMb: retainedHeapMb(),
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function retainedHeapMb(): number {
  (globalThis as { gc?: () => void }).gc?.();
  return Math.round(process.memoryUsage().heapUsed / 1e6);
}

function runChild<T>(args: string[]): Promise<T> {
  return new Promise((resolve, reject) => {
    const proc = fork(fileURLToPath(import.meta.url), args, {
      execArgv: ['--import', 'tsx', '--expose-gc'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    proc.once('message', (m) => resolve(m as T));
    proc.once('error', reject);
    proc.once('exit', (code) => code !== 0 && reject(new Error(`bench child exited ${code}`)));
  });
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args[0] === '--child') {
    process.send?.(await child(Number(args[1]), args[2] as ExportFormat));
    return;
  }
  if (args[0] === '--baseline') {
    // the same modules loaded, nothing exported: the floor under every peak below
    process.send?.({ peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024), retainedHeapMb: retainedHeapMb() });
    return;
  }
  const loadBefore = loadavg()[0] ?? 0;
  const baseline = await runChild<{ peakRssMb: number; retainedHeapMb: number }>(['--baseline']);
  console.log(
    `baseline (node + tsx + modules, no export): peak RSS ${baseline.peakRssMb} MB, heap ${baseline.retainedHeapMb} MB`,
  );
  console.log(
    `load average before: ${loadBefore.toFixed(1)} on ${cpus().length} cores (other work on the machine slows every number)\n`,
  );
  const results: RunResult[] = [];
  console.log(
    'posts    format  file MB  collect s  write s  write MB/s  end-to-end MB/s  items MB/s  source s  CPU s (collect)  MB per CPU s  peak RSS MB  heap after GC MB',
  );
  for (const count of COUNTS) {
    for (const format of FORMATS) {
      const r = await runChild<RunResult>(['--child', String(count), format]);
      results.push(r);
      console.log(
        `${String(count).padEnd(8)} ${format.padEnd(7)} ${(r.bytes / 1e6).toFixed(1).padStart(7)}  ${(r.collectMs / 1000).toFixed(2).padStart(9)}  ${(r.writeMs / 1000).toFixed(2).padStart(7)}  ${String(r.writeMbPerSecond).padStart(10)}  ${String(r.totalMbPerSecond).padStart(15)}  ${String(r.itemsMbPerSecond).padStart(10)}  ${(r.sourceMs / 1000).toFixed(2).padStart(8)}  ${(r.cpuMs / 1000).toFixed(2).padStart(5)} (${(r.collectCpuMs / 1000).toFixed(2)})  ${String(r.cpuMbPerSecond).padStart(12)}  ${String(r.peakRssMb).padStart(11)}  ${String(r.retainedHeapMb).padStart(16)}`,
      );
    }
  }
  const file = writeResults('export', {
    aim: AIM,
    pageSize: PAGE,
    baseline,
    loadAverage: { before: loadBefore, after: loadavg()[0] ?? 0 },
    results,
  });
  console.log(`\naim: >= ${AIM.mbPerSecond} MB/s writing, <= ${AIM.peakRssMb} MB peak RSS, flat as the count grows`);
  console.log(`results: ${file}`);
}

await main();
