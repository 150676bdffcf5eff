/**
 * How the bench runs Skein's code. `npm run bench:*` (scripts/bench.mjs) runs a bench as the app runs Skein:
 * bundled JavaScript on plain Node, its worker threads from the built `out/main/*-worker.js`. Under tsx, as before
 * (`BENCH_FROM_SOURCE=1`, or `npx tsx bench/x.bench.ts` for a profile with source names), every process and worker
 * also held tsx's loader: some 35 MB in each peak RSS, and 17 MB more in the archive's worker, none of them the app's.
 */
import { fork } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { holdYoungGeneration } from '../../src/core/workers/young-generation';

/** true when this module runs from its TypeScript source (under tsx), false in the bench's bundle */
const FROM_SOURCE = import.meta.url.endsWith('.ts');

/** how this run runs Skein's code, for the bench's own lines */
export const RUNS_AS = FROM_SOURCE ? 'from source, under tsx' : 'as built, on plain Node';

/** the repository's root (the folder of package.json), wherever the bench's module runs from */
export const REPO = ((): string => {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const up = dirname(dir);
    if (up === dir) throw new Error('the bench runs outside the repository');
    dir = up;
  }
  return dir;
})();

/** a file of the bench (`lib/loop-probe.ts`), wherever the bench's module runs from */
export const benchFile = (name: string): string => join(REPO, 'bench', name);

/** the Node options a process or worker of the bench's own module needs (its bundle needs none) */
export const OWN_EXEC_ARGV: string[] = FROM_SOURCE ? ['--import', 'tsx'] : [];

/** a worker of the app: its TypeScript source under tsx, or the file `npm run build` made of it */
export function workerEntry(name: 'archive' | 'reexport' | 'live'): { entry: URL; execArgv: string[] } {
  return FROM_SOURCE
    ? {
        entry: pathToFileURL(join(REPO, 'src', 'core', 'compose', `${name}-worker.ts`)),
        execArgv: ['--import', 'tsx'],
      }
    : { entry: pathToFileURL(join(REPO, 'out', 'main', `${name}-worker.js`)), execArgv: [] };
}

/**
 * Runs the bench's own module (`moduleUrl`: its `import.meta.url`) again in a child process with `args`, so a run's
 * peak RSS is its own; answers the first message the child sends, and fails when it exits without one.
 */
export function runOwnChild<T>(moduleUrl: string, args: string[], execArgv: string[] = []): Promise<T> {
  return new Promise((resolve, reject) => {
    const proc = fork(fileURLToPath(moduleUrl), args, {
      execArgv: [...OWN_EXEC_ARGV, ...execArgv],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    let answered = false;
    proc.once('message', (m) => {
      answered = true;
      resolve(m as T);
    });
    proc.once('error', reject);
    // 'close', not 'exit': by then every message the child sent has arrived
    proc.once('close', (code) => {
      if (!answered) reject(new Error(`bench child exited (${code}) without its result`));
    });
  });
}

/** how the bench's processes size their young generations, for the bench's lines */
export const YOUNG_GENERATION =
  process.env.BENCH_YOUNG === 'free'
    ? 'young generation V8’s own (BENCH_YOUNG=free)'
    : 'young generation held as in the app';

/**
 * Holds this process's young generations as the app's shells do (`holdYoungGeneration`), before it starts a
 * worker; `BENCH_YOUNG=free` leaves V8's own sizing, to compare.
 */
export function youngGenerationAsTheApp(): void {
  if (process.env.BENCH_YOUNG !== 'free') holdYoungGeneration();
}
