/**
 * `npm run bench:goals`: every data-work goal measured in one run and printed as one table (bench/lib/goals.ts):
 * exports of 100,000 and 1,000,000 posts, the watches' deltas table on both stores, the coding draw, hydration of
 * 100,000 and 1,000,000 ids, a team project of 1,000,000 posts, then `npm run bench` and its scroll and data sections
 * with the renderer slowed 2.5×. Each bench runs alone, one after the other, as its own command would; the load
 * average is printed before each, and a bench that starts at a load of 2 or more on this machine's cores is said to
 * be saturated (its figures are not a result). Takes about 40 minutes on a 2-core machine; `npm run build` first.
 *
 *   npm run bench:goals                         everything
 *   npm run bench:goals -- --only=export,coding  some benches: export, watch, coding, hydrate, team, app, slowed
 *   npm run bench:goals -- --read                no run: the table from what the last run kept (bench/results/goals)
 *
 * A measurement: it exits 0 whether goals are met or not (1 only when a bench could not run).
 */
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { formatGoals, goalRows, type ResultFiles } from './lib/goals';
import { RESULTS } from './lib/results';
import { REPO } from './lib/runtime';

/** Each bench's files are copied here as it ends: a later bench may write the same file (`npm run bench` runs the export bench again). */
const KEPT = join(RESULTS, 'goals');
const SATURATED = 2;
/** Before each bench, the load is let fall below this (the previous bench's browser or server winding down), for at most SETTLE_S. */
const QUIET = 1.5;
const SETTLE_S = 180;

interface Step {
  name: string;
  /** the results files it writes (bench/results/<file>.json), each kept as bench/results/goals/<name>.json */
  keep: Array<{ file: string; as: string }>;
  argv: string[];
  env?: Record<string, string>;
}

/** as `npm run bench:<name>` runs it */
const bench = (file: string, ...args: string[]) => [
  join(REPO, 'scripts', 'bench.mjs'),
  `bench/${file}.bench.ts`,
  ...args,
];
const app = (...args: string[]) => [join(REPO, 'node_modules', 'tsx', 'dist', 'cli.mjs'), 'bench/run.ts', ...args];
const same = (...files: string[]) => files.map((file) => ({ file, as: file }));

const STEPS: Step[] = [
  { name: 'export', keep: same('export'), argv: bench('export'), env: { BENCH_COUNTS: '100000,1000000' } },
  { name: 'watch', keep: same('watch', 'watch-postgres'), argv: bench('watch', '--store=both') },
  { name: 'coding', keep: same('coding'), argv: bench('coding') },
  { name: 'hydrate', keep: same('hydrate'), argv: bench('hydrate'), env: { BENCH_COUNTS: '100000,1000000' } },
  {
    name: 'team',
    keep: same('archive-postgres'),
    argv: bench('archive', '--store=postgres'),
    env: { BENCH_ARCHIVE_POSTS: '1000000' },
  },
  { name: 'app', keep: [{ file: 'report', as: 'report' }], argv: app() },
  {
    name: 'slowed',
    keep: [{ file: 'report', as: 'report-slowed' }],
    argv: app('--only=baseline,scroll,data', '--cpu-slowdown=2.5'),
  },
];

/** set by Ctrl+C or a kill: the bench running is stopped with it, and no other starts */
let stopped: NodeJS.Signals | null = null;

function run(step: Step): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, step.argv, {
      stdio: 'inherit',
      cwd: REPO,
      env: { ...process.env, ...step.env },
    });
    const pass = (signal: NodeJS.Signals) => {
      stopped = signal;
      child.kill(signal);
    };
    process.on('SIGINT', pass).on('SIGTERM', pass);
    child.on('close', (code, signal) => {
      process.off('SIGINT', pass).off('SIGTERM', pass);
      resolve(code ?? (signal ? 1 : 0));
    });
  });
}

async function settle(): Promise<number> {
  const until = Date.now() + SETTLE_S * 1000;
  while ((loadavg()[0] ?? 0) >= QUIET && Date.now() < until) await new Promise((r) => setTimeout(r, 5000));
  return loadavg()[0] ?? 0;
}

function readResults(names: readonly string[]): ResultFiles {
  const files: ResultFiles = {};
  for (const name of names) {
    const path = join(KEPT, `${name}.json`);
    if (existsSync(path)) files[name] = JSON.parse(readFileSync(path, 'utf8')) as unknown;
  }
  return files;
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const only = argv
    .find((a) => a.startsWith('--only='))
    ?.slice('--only='.length)
    .split(',');
  const steps = STEPS.filter((s) => !only || only.includes(s.name));
  const unknown = only?.filter((o) => !STEPS.some((s) => s.name === o)) ?? [];
  if (unknown.length > 0) {
    console.error(`bench:goals: no bench named ${unknown.join(', ')} (${STEPS.map((s) => s.name).join(', ')})`);
    process.exit(1);
  }
  const saturated: string[] = [];
  let failed = 0;
  if (!argv.includes('--read')) {
    for (const step of steps) {
      const load = await settle();
      const note = load >= SATURATED ? ' — saturated: its figures are not a result' : '';
      if (note) saturated.push(step.name);
      console.log(
        `\n[bench:goals ${new Date().toISOString()}] ${step.name}, load ${load.toFixed(2)} on ${cpus().length} cores${note}`,
      );
      // what an earlier run kept of this bench is not this run's figure
      for (const { as } of step.keep) rmSync(join(KEPT, `${as}.json`), { force: true });
      const code = await run(step);
      if (stopped) {
        console.error(`[bench:goals] stopped (${stopped}) during ${step.name}`);
        process.exit(1);
      }
      if (code !== 0) {
        failed++;
        console.error(`[bench:goals] ${step.name} could not run (exit ${code})`);
      } else {
        mkdirSync(KEPT, { recursive: true });
        for (const { file, as } of step.keep) {
          const from = join(RESULTS, `${file}.json`);
          if (existsSync(from)) copyFileSync(from, join(KEPT, `${as}.json`));
        }
      }
    }
  }
  const files = readResults(steps.flatMap((s) => s.keep.map((k) => k.as)));
  console.log(`\n${formatGoals(goalRows(files))}`);
  if (saturated.length > 0) console.log(`started at a load of ${SATURATED} or more: ${saturated.join(', ')}`);
  console.log(
    `load average at the end: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  process.exit(failed > 0 ? 1 : 0);
}

await main();
