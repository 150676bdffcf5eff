/**
 * 7. The sandbox's requests/second and the export's MB/s and peak RSS come
 * from their own benches (`bench/sandbox.bench.ts`, `bench/export.bench.ts`),
 * run here as child processes exactly as `npm run bench:sandbox` /
 * `bench:export` would; their JSON results are read back from bench/results.
 * They are aims of those features, not budgets of this issue: reported as info.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { info, skipped, type Metric } from './budgets';
import { round } from './stats';

export const BENCH_DIR = join(import.meta.dirname, '..');
export const RESULTS_DIR = join(BENCH_DIR, 'results');
/** runs a dataset bench as `npm run bench:<name>` does: as built, without tsx's loader in its memory */
export const BENCH_RUNNER = join(BENCH_DIR, '..', 'scripts', 'bench.mjs');

function runBench(file: string, timeoutMs: number): Promise<{ code: number | null; ms: number; tail: string }> {
  return new Promise((resolve) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, [BENCH_RUNNER, join(BENCH_DIR, file)], {
      stdio: ['ignore', 'pipe', 'pipe'],
      cwd: join(BENCH_DIR, '..'),
    });
    let tail = '';
    const keep = (chunk: Buffer) => {
      const text = chunk.toString();
      process.stdout.write(text.replace(/^(?=.)/gm, `    [${file}] `));
      tail = (tail + text).slice(-2000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const timer = setTimeout(() => child.kill('SIGTERM'), timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, ms: performance.now() - t0, tail });
    });
  });
}

function readFresh(name: string, since: number): Record<string, unknown> | null {
  const file = join(RESULTS_DIR, `${name}.json`);
  if (!existsSync(file) || statSync(file).mtimeMs < since) return null;
  return JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
}

interface SandboxJson {
  throughput?: Record<string, { requestsPerSecond: number; serverCapacityPerCore?: number }>;
  aims?: { requestsPerSecond?: number };
}

interface ExportJson {
  aim?: { ofDuckDb?: number; peakRssMb?: number };
  results?: Array<{
    count: number;
    format: string;
    bytes: number;
    itemsMbPerSecond: number;
    peakRssMb: number;
  }>;
  duckdb?: Array<{ count: number; target: string; itemsMbPerSecond: number }>;
}

/** the DuckDB conversion each format is compared with (bench/export.bench.ts) */
const DUCK_TARGET: Record<string, string> = { json: 'json', jsonl: 'json', csv: 'csv', parquet: 'parquet' };

export async function measureChildren(opts: {
  timeoutMs: number;
}): Promise<{ metrics: Metric[]; detail: Record<string, unknown> }> {
  const metrics: Metric[] = [];
  const detail: Record<string, unknown> = {};

  const s0 = Date.now();
  const s = existsSync(join(BENCH_DIR, 'sandbox.bench.ts')) ? await runBench('sandbox.bench.ts', opts.timeoutMs) : null;
  const sandbox = readFresh('sandbox', s0) as SandboxJson | null;
  if (!sandbox)
    metrics.push(
      skipped(
        'sandbox.rps',
        'sandbox',
        'sandbox requests/second',
        'req/s',
        undefined,
        s ? `bench:sandbox ended ${s.code}: no fresh results` : 'bench/sandbox.bench.ts not found',
      ),
    );
  else {
    detail.sandbox = sandbox;
    for (const [name, t] of Object.entries(sandbox.throughput ?? {})) {
      if (typeof t !== 'object' || !t || !('requestsPerSecond' in t)) continue;
      metrics.push(
        info(
          `sandbox.${name}.rps`,
          'sandbox',
          `sandbox 20-post page (${name}), requests/second`,
          t.requestsPerSecond,
          'req/s',
          `aim ≥ ${sandbox.aims?.requestsPerSecond ?? '?'}; ${t.serverCapacityPerCore ?? '?'} req/s per free core (server CPU)`,
        ),
      );
    }
  }

  const e0 = Date.now();
  const e = existsSync(join(BENCH_DIR, 'export.bench.ts')) ? await runBench('export.bench.ts', opts.timeoutMs) : null;
  const exp = readFresh('export', e0) as ExportJson | null;
  if (!exp)
    metrics.push(
      skipped(
        'export.mbps',
        'export',
        'export MB/s and peak RSS',
        'MB/s',
        undefined,
        e ? `bench:export ended ${e.code}: no fresh results` : 'bench/export.bench.ts not found',
      ),
    );
  else {
    detail.export = exp;
    for (const r of exp.results ?? []) {
      if (r.count !== 100_000) continue;
      const duck = exp.duckdb?.find((d) => d.count === r.count && d.target === DUCK_TARGET[r.format]);
      const ratio = duck ? round(r.itemsMbPerSecond / duck.itemsMbPerSecond, 2) : '?';
      metrics.push(
        info(
          `export.100k.${r.format}`,
          'export',
          `export 100k posts as ${r.format}: MB of posts per second (DuckDB's, the ratio)`,
          r.itemsMbPerSecond,
          'MB/s',
          `${round(r.bytes / 1e6, 1)} MB written; DuckDB ${duck?.itemsMbPerSecond ?? '?'} MB/s, ratio ${ratio}; peak RSS ${r.peakRssMb} MB (aims ≥ ${exp.aim?.ofDuckDb ?? '?'} of DuckDB's, ≤ ${exp.aim?.peakRssMb ?? '?'} MB)`,
        ),
      );
    }
    const peak = Math.max(0, ...(exp.results ?? []).map((r) => r.peakRssMb));
    metrics.push(info('export.peakRss', 'export', 'export peak RSS, largest of every count and format', peak, 'MB'));
  }
  detail.runs = {
    sandbox: s && { code: s.code, s: round(s.ms / 1000, 1) },
    export: e && { code: e.code, s: round(e.ms / 1000, 1) },
  };
  return { metrics, detail };
}
