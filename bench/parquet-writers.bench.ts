/**
 * `npm run bench:parquet-writers`: whether DuckDB would write Skein's Parquet files faster than the pure-JS writer
 * Skein uses (hyparquet-writer, parquet/part.ts). The export bench's posts (100,000 by default, `BENCH_COUNT`) are
 * made into Skein's own post rows and cells once, in memory; then each writer, in a child process of its own, takes
 * them to a Parquet file:
 *
 * - `hyparquet`: `PartFile`, as an export writes it (row groups of 2,500 rows, snappy);
 * - `duckdb-appender`: DuckDB's appender, a value at a time, into an in-memory table, then `COPY … (FORMAT parquet)`;
 * - `duckdb-csv`: Skein's CSV lines of the same rows into a file, then DuckDB's `read_csv` with the columns' types
 *   into `COPY … (FORMAT parquet)`.
 *
 * DuckDB runs with one thread and a 256 MB memory limit (the export's file worker's share of a 2-core machine), and
 * again with two threads and 512 MB. Each line is the wall time from the rows to the file closed and the child's
 * peak RSS (the posts held in memory are in every figure alike). Prints the numbers and writes
 * bench/results/parquet-writers.json. A measurement, not a test.
 */
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance, DuckDBTimestampTZValue, type DuckDBAppender } from '@duckdb/node-api';
import { columnType, type ColumnType } from '../src/core/formats/column-types';
import { TABLES } from '../src/core/formats/csv/rows';
import type { Cell } from '../src/core/formats/csv/table';
import { csvTableText, csvWriteOptions, tableHeader } from '../src/core/formats/csv/write';
import { pageProvenance } from '../src/core/formats/format';
import { parquetCells, PartFile } from '../src/core/formats/parquet/part';
import { writeResults } from './lib/results';
import { runOwnChild } from './lib/runtime';
import { syntheticPost } from './lib/synthetic-post';

const COUNT = Number(process.env.BENCH_COUNT ?? 100_000);
const WRITERS = ['hyparquet', 'duckdb-appender', 'duckdb-csv'] as const;
type Writer = (typeof WRITERS)[number];
const DUCKDB_SETTINGS = [
  { threads: '1', memory_limit: '256MB' },
  { threads: '2', memory_limit: '512MB' },
];
const SQL_TYPE: Record<ColumnType, string> = {
  STRING: 'VARCHAR',
  INT64: 'BIGINT',
  BOOLEAN: 'BOOLEAN',
  TIMESTAMP: 'TIMESTAMPTZ',
};

interface Run {
  writer: Writer;
  threads: string;
  ms: number;
  /** DuckDB's own step (the COPY; with the CSV, its read too), ms */
  duckdbMs: number | null;
  peakRssMb: number;
}

const posts = () => Array.from({ length: COUNT }, (_, n) => syntheticPost(n));
const table = TABLES.post[0]!;
const names = tableHeader(table);
const types = names.map(columnType);
const from = pageProvenance('userTimeline', 1, new Date().toISOString(), 'cursor');

function appendCell(app: DuckDBAppender, type: ColumnType, v: Cell): void {
  if (v === null) return app.appendNull();
  switch (type) {
    case 'STRING':
      return app.appendVarchar(String(v));
    case 'INT64':
      // as PartFile takes them: a safe integer, or a count the API sent as digits
      if (typeof v === 'number' && Number.isSafeInteger(v)) return app.appendBigInt(BigInt(v));
      return typeof v === 'string' && /^-?\d{1,18}$/.test(v) ? app.appendBigInt(BigInt(v)) : app.appendNull();
    case 'BOOLEAN':
      return typeof v === 'boolean' ? app.appendBoolean(v) : app.appendNull();
    case 'TIMESTAMP': {
      const ms = Date.parse(String(v));
      return Number.isFinite(ms)
        ? app.appendTimestampTZ(new DuckDBTimestampTZValue(BigInt(ms) * 1000n))
        : app.appendNull();
    }
  }
}

async function child(writer: Writer, threads: string, memoryLimit: string, dir: string): Promise<Run> {
  const items = posts();
  const rowsOf = (raw: unknown) => table.rows(raw, null, { params: {}, index: 0 });
  const cellsOf = parquetCells(table, names);
  const t0 = performance.now();
  let duckdbMs: number | null = null;
  if (writer === 'hyparquet') {
    const out = createWriteStream(join(dir, 'hyparquet.parquet'));
    const sink = {
      write: (c: string | Uint8Array) => new Promise<void>((r) => out.write(c, () => r())),
      get bytes() {
        return out.bytesWritten;
      },
    };
    const file = new PartFile(sink, { names, kv: [], createdBy: 'bench' });
    for (const raw of items) for (const row of rowsOf(raw)) await file.add(cellsOf(row, from));
    await file.finish();
    await new Promise<void>((r) => out.end(() => r()));
  } else {
    const db = await DuckDBInstance.create(':memory:', {
      threads,
      memory_limit: memoryLimit,
      temp_directory: join(dir, 'spill'),
    });
    const con = await db.connect();
    let source: string;
    if (writer === 'duckdb-appender') {
      await con.run(`CREATE TABLE t (${names.map((n, i) => `"${n}" ${SQL_TYPE[types[i]!]}`).join(', ')})`);
      const app = await con.createAppender('t');
      for (const raw of items)
        for (const row of rowsOf(raw)) {
          const cells = cellsOf(row, from);
          for (let i = 0; i < names.length; i++) appendCell(app, types[i]!, cells[i] ?? null);
          app.endRow();
        }
      app.closeSync();
      source = 't';
    } else {
      const csv = join(dir, 'rows.csv');
      const text = csvTableText(table, csvWriteOptions({ csvFlavour: 'analysis' }), 'exact', {});
      const out = createWriteStream(csv);
      let chunk = text.header;
      items.forEach((raw, i) => {
        chunk += text.lines(raw, null, i, from);
        if (chunk.length > 65_536) {
          out.write(chunk);
          chunk = '';
        }
      });
      out.write(chunk);
      await new Promise<void>((r) => out.end(() => r()));
      const columns = names.map((n, i) => `'${n}': '${SQL_TYPE[types[i]!]}'`).join(', ');
      source = `(SELECT * FROM read_csv('${csv}', header = true, columns = {${columns}}))`;
    }
    const t1 = performance.now();
    await con.run(`COPY ${source} TO '${join(dir, `${writer}.parquet`)}' (FORMAT parquet, COMPRESSION snappy)`);
    duckdbMs = Math.round(performance.now() - t1);
    con.closeSync();
    db.closeSync();
  }
  return {
    writer,
    threads: writer === 'hyparquet' ? '1' : threads,
    ms: Math.round(performance.now() - t0),
    duckdbMs,
    peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
  };
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args[0] === '--child') {
    const [writer, threads, memoryLimit, dir] = args.slice(1) as [Writer, string, string, string];
    process.send?.(await child(writer, threads, memoryLimit, dir));
    return;
  }
  const dir = await mkdtemp(join(tmpdir(), 'skein-bench-parquet-'));
  console.log(
    `${COUNT.toLocaleString('en')} posts, Skein's post rows; load average before: ${loadavg()[0]!.toFixed(1)}`,
  );
  console.log("writer            threads  ms (DuckDB's step)  peak RSS MB");
  const runs: Run[] = [];
  try {
    for (const writer of WRITERS)
      for (const s of writer === 'hyparquet' ? DUCKDB_SETTINGS.slice(0, 1) : DUCKDB_SETTINGS) {
        const run = await runOwnChild<Run>(import.meta.url, ['--child', writer, s.threads, s.memory_limit, dir]);
        runs.push(run);
        const step = run.duckdbMs === null ? '' : ` (${run.duckdbMs})`;
        console.log(
          `${writer.padEnd(18)}${run.threads.padStart(7)}  ${`${run.ms}${step}`.padEnd(18)} ${run.peakRssMb}`,
        );
      }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  console.log(`load average after: ${loadavg()[0]!.toFixed(1)}`);
  console.log(`results: ${writeResults('parquet-writers', { count: COUNT, runs })}`);
}

await main();
