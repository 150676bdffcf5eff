/**
 * 8. The research archive: `bench/archive.bench.ts` run as a child process (its peak RSS
 * is its own), its JSON read back and held against the archive's budgets (BENCHMARKS.md).
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { budget, info, skipped, type Metric } from './budgets';
import { BENCH_DIR, BENCH_RUNNER, RESULTS_DIR } from './children';

interface ArchiveJson {
  posts: number;
  postsPerSecond: number;
  peakRssMb: number;
  mainBlockMs: number;
  mainBlockP99Ms?: number;
  postsPerCpuSecond?: number;
  mainCpuMsPerPage?: number;
  idleLoopBlockMs?: number;
  controlLoopBlockMs?: number;
  rssBeforeIngestMb?: number;
  sizeRatio: number;
  searchFirstPageP95Ms: number;
  activityMs: number;
}

export async function measureArchive(options: { timeoutMs: number; posts?: number }): Promise<{
  metrics: Metric[];
  detail: unknown;
}> {
  const since = Date.now();
  const code = await new Promise<number | null>((resolve) => {
    const child = spawn(process.execPath, [BENCH_RUNNER, join(BENCH_DIR, 'archive.bench.ts')], {
      stdio: ['ignore', 'inherit', 'inherit'],
      cwd: join(BENCH_DIR, '..'),
      env: { ...process.env, ...(options.posts ? { BENCH_ARCHIVE_POSTS: String(options.posts) } : {}) },
    });
    const timer = setTimeout(() => child.kill('SIGTERM'), options.timeoutMs);
    child.on('close', (c) => {
      clearTimeout(timer);
      resolve(c);
    });
  });
  const file = join(RESULTS_DIR, 'archive.json');
  if (code !== 0 || !existsSync(file) || statSync(file).mtimeMs < since)
    return {
      metrics: [skipped('archive.ingest', 'archive', 'archive bench', '', undefined, `exit code ${code}`)],
      detail: null,
    };
  const r = JSON.parse(readFileSync(file, 'utf8')) as ArchiveJson;
  const at = `at ${r.posts.toLocaleString('en-US')} posts`;
  const rate: Metric = {
    id: 'archive.ingest.postsPerSecond',
    section: 'archive',
    name: `ingest, posts per second (budget ≥ 20,000) ${at}`,
    value: r.postsPerSecond,
    unit: 'posts/s',
    status: r.postsPerSecond >= 20_000 ? 'pass' : 'fail',
  };
  return {
    metrics: [
      rate,
      budget('archive.ingest.peakRss', 'archive', `peak RSS while ingesting ${at}`, r.peakRssMb, 'MB', 300),
      budget(
        'archive.mainBlock',
        'archive',
        `main's longest event-loop block while ingesting ${at}`,
        r.mainBlockMs,
        'ms',
        50,
      ),
      budget('archive.size', 'archive', `database size / raw JSON ${at}`, r.sizeRatio, '×', 1.5),
      budget(
        'archive.search.p95',
        'archive',
        `full-text search, first page p95 ${at} (budget set at 1M)`,
        r.searchFirstPageP95Ms,
        'ms',
        100,
      ),
      budget(
        'archive.activity',
        'archive',
        `activity chart over all posts ${at} (budget set at 1M)`,
        r.activityMs,
        'ms',
        300,
      ),
      info('archive.posts', 'archive', 'posts in the measured archive', r.posts, 'posts'),
      info(
        'archive.ingest.perCpuSecond',
        'archive',
        "ingest, posts per CPU second of the archive's worker and main (what an uncontended core gives)",
        r.postsPerCpuSecond ?? null,
        'posts/s',
      ),
      info(
        'archive.idleBlock',
        'archive',
        "an idle loop's longest block on this machine (the floor)",
        r.idleLoopBlockMs ?? null,
        'ms',
      ),
      info(
        'archive.mainCpuPerPage',
        'archive',
        "main's own CPU per page of 20 posts handed to the archive",
        r.mainCpuMsPerPage ?? null,
        'ms',
      ),
      info(
        'archive.controlBlock',
        'archive',
        "an idle loop's longest block in another process over the same time (the machine's share)",
        r.controlLoopBlockMs ?? null,
        'ms',
      ),
      info('archive.mainBlockP99', 'archive', "main's loop delay p99 while ingesting", r.mainBlockP99Ms ?? null, 'ms'),
      info(
        'archive.rssBefore',
        'archive',
        'RSS before ingesting (worker and loaders started)',
        r.rssBeforeIngestMb ?? null,
        'MB',
      ),
    ],
    detail: r,
  };
}
