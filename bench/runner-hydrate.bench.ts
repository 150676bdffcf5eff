/**
 * `npm run bench:hydrate:runner`: a hydration as a server runs it, `skein run` of a job file of post ids (the built
 * runner, out/main/skein.js: `npm run build` first), against the unpaced sandbox answering any id (`anyIds`, 10%
 * not found) in this process. For each count (default 100,000 and 1,000,000 ids) it prints the runner's ids/s
 * end to end (its start, the job file read, the batches at `--rate 100`, the file written) and the runner
 * process's peak RSS (VmHWM, read from /proc while it runs: Linux only). Budget: <= 300 MB, flat in the count.
 * BENCH_RUNNER: another build's runner (a worktree's out/main/skein.js), to compare in the same minutes;
 * BENCH_RUNNER_ARGS: extra arguments (`--memory 512`).
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createCore } from '../src/core';
import { testCoreDeps } from '../src/core/testing/core-deps';
import { startSandbox, type Sandbox } from '../src/sandbox';
import { writeResults } from './lib/results';
import { REPO } from './lib/runtime';

const COUNTS = (process.env.BENCH_COUNTS ?? '100000,1000000').split(',').map(Number);
const RUNNER = resolve(process.env.BENCH_RUNNER ?? join(REPO, 'out', 'main', 'skein.js'));
const EXTRA = (process.env.BENCH_RUNNER_ARGS ?? '').split(' ').filter(Boolean);
const AIM = { peakRssMb: 300 };

/** Post ids as a shared dataset has them: 19 digits, above 2^53. */
function idAt(i: number): string {
  return String(1_600_000_000_000_000_000n + BigInt(i) * 7919n);
}

/** the process's high-water mark of resident memory, in kB (0 once it is gone) */
function highWater(pid: number): number {
  try {
    const m = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

interface Run {
  count: number;
  code: number | null;
  seconds: number;
  idsPerSecond: number;
  peakRssMb: number;
  lastLine: string;
}

async function hydrate(baseUrl: string, count: number, sandboxes: Sandbox[]): Promise<Run> {
  const dir = await mkdtemp(join(tmpdir(), 'skein-bench-runner-'));
  try {
    const project = join(dir, 'study.skein');
    // the runner works on a project that exists: made as the app makes one
    // (in the runner's data folder, its hourly budget raised as a person would: a million ids cost more than the default)
    const maker = createCore(
      testCoreDeps(join(dir, 'runner'), sandboxes, {
        apiBaseUrl: baseUrl,
        apiKey: 'k',
        projectPath: project,
        workers: undefined,
        watches: { start: false },
        confirm: async () => true,
      }),
    );
    await maker.projects.handleFor('current');
    await maker.handlers.settings.update({ creditsPerHour: 1e12 }, { senderId: 0 });
    await maker.dispose();
    const jobFile = join(dir, 'ids.skein-job.json');
    const list: string[] = [];
    for (let i = 0; i < count; i++) list.push(idAt(i));
    await writeFile(
      jobFile,
      JSON.stringify({
        skein_job: 1,
        kind: 'hydrate',
        id: randomUUID(),
        name: 'Posts to read back',
        created_by: 'Skein bench',
        created_at: new Date().toISOString(),
        job: {
          view: { kind: 'postsByIds', operation: 'postsByIds', params: {}, title: 'Posts to read back' },
          format: 'jsonl',
          scope: 'all',
        },
        ids: { entity: 'posts', list },
        destination: { path: 'out.jsonl' },
      }),
    );
    const args = ['run', jobFile, '--project', project, '--data-dir', join(dir, 'runner')];
    const t0 = performance.now();
    const child = spawn(process.execPath, [RUNNER, ...args, '--api-base-url', baseUrl, '--rate', '100', ...EXTRA], {
      env: { ...process.env, SKEIN_API_KEY: 'k' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let peak = 0;
    let last = '';
    const keep = (chunk: Buffer) => {
      const lines = chunk.toString().trim().split('\n');
      last = lines.at(-1) ?? last;
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    // BENCH_TRACE=1: the runner's standard error shown as it runs
    if (process.env.BENCH_TRACE) child.stderr.pipe(process.stderr);
    const sampler = setInterval(() => (peak = Math.max(peak, highWater(child.pid ?? 0))), 50);
    const code = await new Promise<number | null>((done) => child.once('exit', done));
    clearInterval(sampler);
    const seconds = (performance.now() - t0) / 1000;
    return {
      count,
      code,
      seconds: Math.round(seconds * 10) / 10,
      idsPerSecond: Math.round(count / seconds),
      peakRssMb: Math.round(peak / 1024),
      lastLine: last,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  if (!existsSync(RUNNER)) {
    console.log(`No runner at ${RUNNER}: npm run build first.`);
    process.exitCode = 1;
    return;
  }
  const loadBefore = loadavg()[0] ?? 0;
  const sandboxes: Sandbox[] = [];
  const sandbox = await startSandbox({ size: 'small', anyIds: { notFoundPercent: 10 } });
  sandboxes.push(sandbox);
  const runs: Run[] = [];
  try {
    for (const count of COUNTS) {
      const r = await hydrate(sandbox.baseUrl, count, sandboxes);
      runs.push(r);
      console.log(
        `skein run, a hydration of ${count.toLocaleString('en-US')} ids: exit ${r.code}, ${r.idsPerSecond} ids/s end to end (${r.seconds} s), peak RSS ${r.peakRssMb} MB — ${r.lastLine}`,
      );
    }
  } finally {
    for (const s of sandboxes) await s.close();
  }
  const file = writeResults('runner-hydrate', {
    aim: AIM,
    runner: RUNNER,
    extra: EXTRA,
    loadBefore,
    loadAfter: loadavg()[0] ?? 0,
    runs,
  });
  console.log(
    `aim: <= ${AIM.peakRssMb} MB peak RSS, flat; load ${loadBefore.toFixed(2)} → ${(loadavg()[0] ?? 0).toFixed(2)}; written ${file}`,
  );
}

await main();
