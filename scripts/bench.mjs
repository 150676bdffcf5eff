#!/usr/bin/env node
/**
 * `npm run bench:<name>` (node scripts/bench.mjs bench/<name>.bench.ts [args]): runs a dataset bench as the app
 * runs Skein — its module and the Skein code it imports bundled into one JavaScript file in .tmp/bench (esbuild;
 * the packages stay where npm put them), on plain Node, its workers from `out/main` (`npm run build` first) — so
 * that a peak RSS is Skein's, not tsx's loader's as well (bench/lib/runtime.ts). `BENCH_FROM_SOURCE=1` runs the
 * TypeScript under tsx instead, as `npx tsx bench/<name>.bench.ts` does (a profile then names the sources).
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const [file, ...args] = process.argv.slice(2);
if (!file || !existsSync(file)) {
  console.error('usage: node scripts/bench.mjs bench/<name>.bench.ts [args…]');
  process.exit(2);
}

/** the newest change to Skein's own sources (tests left out), in ms */
function newestSource(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name))
      newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

function run(argv) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, argv, { stdio: 'inherit', cwd: repo });
    const pass = (signal) => child.kill(signal);
    process.on('SIGINT', pass).on('SIGTERM', pass);
    child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

if (process.env.BENCH_FROM_SOURCE === '1') process.exit(await run(['--import', 'tsx', file, ...args]));

const built = join(repo, 'out', 'main', 'archive-worker.js');
if (!existsSync(built) || statSync(built).mtimeMs < newestSource(join(repo, 'src'))) {
  console.error(
    `The bench runs Skein as built, and ${relative(repo, join(repo, 'out'))}/ is ${existsSync(built) ? 'older than src/' : 'missing'}: run \`npm run build\` first (or BENCH_FROM_SOURCE=1 to run the sources under tsx).`,
  );
  process.exit(1);
}
const { build } = await import('esbuild');
// in .tmp (which lint, format and git pass over); the bench finds its own files from the repository's root
const bundle = join(repo, '.tmp', 'bench', `${basename(file, '.ts')}.mjs`);
await build({
  entryPoints: [file],
  outfile: bundle,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  packages: 'external',
  logLevel: 'warning',
});
try {
  process.exitCode = await run([bundle, ...args]);
} finally {
  rmSync(bundle, { force: true });
}
