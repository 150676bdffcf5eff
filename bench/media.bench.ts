/**
 * `npm run bench:media`: keeping 1,000 demo media files (photos at their original size, videos at their best
 * bitrate, GIFs) from the sandbox, the way "Keep media…" does (core/media/keep.ts: the safe fetch, hashing as the
 * bytes arrive, one row per fetch in the project's media tables), against curl fetching the same URLs with the
 * same parallelism and sha256sum hashing what it wrote — what a researcher would script by hand.
 *
 * The sandbox runs in a process of its own; a loop that only waits, in another (lib/loop-probe.ts), says what the
 * machine did to any loop meanwhile. Printed: files, MB, MB/s and files/s for each, the ratio, the peak RSS of
 * this process, and main's longest block (budget 50 ms) beside the probe's. Here the media tables are a SQLite
 * file on this thread (in the app they are in the archive's worker), so the block is an upper bound.
 * A measurement, not a test: it prints the figures and writes bench/results/media.json.
 */
import { spawnSync } from 'node:child_process';
import { fork } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { migrateParts, sqliteExecutor } from '../src/core/db';
import { DEFAULT_FETCH_POLICY } from '../src/core/media/fetch';
import { keepMedia } from '../src/core/media/keep';
import type { Candidate } from '../src/core/media/plan';
import { MEDIA_PART } from '../src/core/media/tables/part';
import { DatabaseSync } from 'node:sqlite';
import { writeResults } from './lib/results';
import { benchFile } from './lib/runtime';

const FILES = Number(process.env.BENCH_MEDIA_FILES ?? 1000);
const CONCURRENCY = 4;
const BUDGET_BLOCK_MS = 50;

interface Ready {
  baseUrl: string;
}

const sandbox = fork(benchFile('lib/sandbox-server.ts'), {
  execArgv: ['--import', 'tsx'],
  env: { ...process.env, SANDBOX_SIZE: 'small' },
  stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
});
const { baseUrl } = await new Promise<Ready>((resolve, reject) => {
  sandbox.once('message', (m) => resolve(m as Ready));
  sandbox.once('exit', (code) => reject(new Error(`sandbox process exited (${code})`)));
});

/** the demo's kinds in the demo's shares (6 photos, 2 videos, 2 GIFs in 10), as keeping would choose them */
function candidate(i: number): Candidate {
  const id = String(1_700_000_000_000_000_000n + BigInt(i));
  const postId = String(1_800_000_000_000_000_000n + BigInt(i));
  const r = i % 10;
  if (r < 6)
    return { postId, mediaKey: `3_${id}`, kind: 'photo', url: `${baseUrl}/media/img-${id}.png?name=orig`, bytes: null };
  if (r < 8)
    return { postId, mediaKey: `7_${id}`, kind: 'video', url: `${baseUrl}/media/vid-${id}-2176000.mp4`, bytes: null };
  return { postId, mediaKey: `16_${id}`, kind: 'animated_gif', url: `${baseUrl}/media/gif-${id}-0.mp4`, bytes: null };
}
const candidates = Array.from({ length: FILES }, (_, i) => candidate(i));
const dir = await mkdtemp(join(tmpdir(), 'skein-bench-media-'));

async function skein(): Promise<{
  ms: number;
  bytes: number;
  files: number;
  failed: number;
  blockMs: number;
  rssMb: number;
}> {
  const file = new DatabaseSync(join(dir, 'media.sqlite'));
  // as a project file is opened (archive/schema.ts): WAL, normal sync
  file.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL');
  const db = sqliteExecutor(file);
  await migrateParts(db, [MEDIA_PART], 0);
  const store = MEDIA_PART.open(db, { now: Date.now });
  const policy = { ...DEFAULT_FETCH_POLICY, trustedOrigins: [new URL(baseUrl).origin] };
  let peakRss = process.memoryUsage().rss;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 50);
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  const t0 = performance.now();
  const r = await keepMedia(candidates, {
    store,
    folder: join(dir, 'skein'),
    policy,
    now: Date.now,
    concurrency: CONCURRENCY,
  });
  const ms = performance.now() - t0;
  loop.disable();
  clearInterval(sampler);
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
  return {
    ms,
    bytes: r.storedBytes,
    files: r.kept,
    failed: r.failed,
    blockMs: loop.max / 1e6,
    rssMb: peakRss / 2 ** 20,
  };
}

/** curl, the same URLs and parallelism, then sha256sum over what it wrote */
async function curl(): Promise<{ ms: number; bytes: number; files: number } | null> {
  if (spawnSync('curl', ['--version']).status !== 0 || spawnSync('sha256sum', ['--version']).status !== 0) return null;
  const out = join(dir, 'curl');
  const config = candidates.map((c, i) => `url = "${c.url}"\noutput = "${join(out, String(i))}"`).join('\n');
  await writeFile(join(dir, 'curl.config'), `${config}\n`);
  const t0 = performance.now();
  const got = spawnSync(
    'curl',
    ['-s', '--fail', '--create-dirs', '-Z', '--parallel-max', String(CONCURRENCY), '-K', join(dir, 'curl.config')],
    { encoding: 'utf8' },
  );
  const sums = spawnSync('sh', ['-c', `cd '${out}' && ls | xargs sha256sum | wc -l && du -sb . | cut -f1`], {
    encoding: 'utf8',
  });
  const ms = performance.now() - t0;
  if (got.status !== 0) throw new Error(`curl failed: ${got.stderr}`);
  const [files, bytes] = sums.stdout.trim().split('\n').map(Number);
  return { ms, bytes: bytes ?? 0, files: files ?? 0 };
}

const probe = fork(benchFile('lib/loop-probe.ts'), { execArgv: ['--import', 'tsx'] });
await new Promise((resolve) => probe.once('message', resolve));
const load0 = loadavg()[0] ?? 0;
const s = await skein();
const machine = await new Promise<{ maxMs: number; p99Ms: number }>((resolve) => {
  probe.once('message', (m) => resolve(m as { maxMs: number; p99Ms: number }));
  probe.send('stop');
});
const c = await curl();
sandbox.disconnect();
await rm(dir, { recursive: true, force: true });

const mb = (b: number) => b / 1e6;
const mbps = (b: number, ms: number) => mb(b) / (ms / 1000);
console.log(`load before: ${load0.toFixed(2)} (2 cores: above 2 the figures are saturated, indicative only)`);
console.log(
  `Skein keeps ${s.files} files (${s.failed} failed), ${mb(s.bytes).toFixed(1)} MB in ${(s.ms / 1000).toFixed(2)} s: ` +
    `${mbps(s.bytes, s.ms).toFixed(1)} MB/s, ${((s.files / s.ms) * 1000).toFixed(0)} files/s; peak RSS ${s.rssMb.toFixed(0)} MB`,
);
console.log(
  `main's longest block ${s.blockMs.toFixed(1)} ms (budget ${BUDGET_BLOCK_MS}); a waiting loop's meanwhile ${machine.maxMs.toFixed(1)} ms`,
);
if (c)
  console.log(
    `curl -Z + sha256sum: ${c.files} files, ${mb(c.bytes).toFixed(1)} MB in ${(c.ms / 1000).toFixed(2)} s: ` +
      `${mbps(c.bytes, c.ms).toFixed(1)} MB/s; Skein/curl ${(mbps(s.bytes, s.ms) / mbps(c.bytes, c.ms)).toFixed(2)}`,
  );
else console.log('curl or sha256sum is not installed: no baseline');
const file = writeResults('media', {
  load: load0,
  files: FILES,
  concurrency: CONCURRENCY,
  skein: s,
  machineBlockMs: machine.maxMs,
  curl: c,
});
console.log(`results: ${file}`);
