/**
 * `npm run bench:watch`: the watches' deltas table, written as the Watches view's export writes it —
 * the project's counter values read a page after another through the archive's worker (the value before each
 * found through the primary key), as CSV beside its manifest — against DuckDB, the fastest converter a
 * researcher has, doing the same thing in the same run: the same rows (loaded into DuckDB first, not timed),
 * `lag()` over each item's metric, written with COPY … TO CSV. Printed: rows, seconds, rows a second, and the
 * ratio of the two times. Also: one watch run's settling (what it writes at its end) for a run that saw
 * BENCH_WATCH_SEEN items, through the worker.
 *
 * The counters: BENCH_WATCH_ITEMS items (default 50,000) × 6 metrics × 4 values each. `--store=postgres`
 * measures a team project on PostgreSQL instead (bench/lib/archive-db.ts: a throwaway durable cluster, or the
 * server BENCH_ARCHIVE_PG names), `--store=both` one after the other on the same data. A measurement: it never
 * fails. Writes bench/results/watch.json (watch-postgres.json).
 */
import { stat, writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { DuckDBInstance } from '@duckdb/node-api';
import pg from 'pg';
import { partProxy } from '../src/core/archive/part-proxy';
import { writeTable } from '../src/core/watch/tables';
import { WATCH_PART_NAME } from '../src/core/watch/tables/part';
import type { WatchTables } from '../src/core/watch/tables/watch-tables';
import { openBenchArchive, storesAsked, type BenchStore } from './lib/archive-db';
import { writeResults } from './lib/results';

const ITEMS = Number(process.env.BENCH_WATCH_ITEMS ?? 50_000);
const SEEN = Number(process.env.BENCH_WATCH_SEEN ?? 2_000);
const METRICS = ['likes', 'reposts', 'replies', 'quotes', 'views', 'bookmarks'];
const VALUES = 4;
const T = Date.UTC(2026, 10, 22);
const round = (n: number, d = 1) => Math.round(n * 10 ** d) / 10 ** d;

/** Every counter row: what months of runs leave. */
function* counterRows(): Generator<[string, string, string, number, number, number]> {
  for (let i = 0; i < ITEMS; i++) {
    const id = String(1_990_000_000_000_000_000n + BigInt(i));
    for (const metric of METRICS)
      for (let k = 0; k < VALUES; k++) {
        const at = T + k * 3_600_000;
        yield ['post', id, metric, at, (i % 997) + k * 7, at + 1_800_000];
      }
  }
}

async function measure(store: BenchStore): Promise<Record<string, unknown>> {
  const { thread, dir, path, where, settings, cleanup, connection } = await openBenchArchive(
    'skein-bench-watch-',
    {},
    store,
  );
  const watches = partProxy<WatchTables>(thread, 'current', WATCH_PART_NAME);
  try {
    // the counters, straight into the project, and the same rows as a CSV for DuckDB
    let raw = 'kind,id,metric,at,value,last_at\n';
    if (path !== null) {
      await thread.call('close', 'current');
      const db = new DatabaseSync(path);
      db.exec('BEGIN');
      const put = db.prepare(
        'INSERT INTO watch_counters (kind, id, metric, at, value, last_at, run) VALUES (?, ?, ?, ?, ?, ?, 1)',
      );
      for (const row of counterRows()) {
        put.run(...row);
        raw += `${row.join(',')}\n`;
      }
      db.exec('COMMIT');
      db.close();
      await thread.call('open', 'current', { path, name: 'bench', kind: 'live' });
    } else if (connection) {
      const client = new pg.Client({
        ...connection,
        password: connection.password ?? undefined,
        ssl: connection.tls === 'disable' ? false : { rejectUnauthorized: connection.tls !== 'require' },
      });
      await client.connect();
      let batch: unknown[] = [];
      const flush = async () => {
        await client.query(
          `INSERT INTO ${connection.schema}.watch_counters (kind, id, metric, at, value, last_at, run)
           SELECT kind, id, metric, at, value, last_at, 1 FROM json_to_recordset($1::json)
             AS x(kind text, id text, metric text, at bigint, value double precision, last_at bigint)`,
          [JSON.stringify(batch)],
        );
        batch = [];
      };
      for (const [kind, id, metric, at, value, lastAt] of counterRows()) {
        batch.push({ kind, id, metric, at, value, last_at: lastAt });
        raw += `${kind},${id},${metric},${at},${value},${lastAt}\n`;
        if (batch.length >= 20_000) await flush();
      }
      if (batch.length > 0) await flush();
      await client.query(`ANALYZE ${connection.schema}.watch_counters`);
      await client.end();
    }
    const rows = ITEMS * METRICS.length * VALUES;
    const rawCsv = join(dir, 'counters.csv');
    await writeFile(rawCsv, raw);
    raw = '';

    // Skein: the export as the Watches view runs it (pages through the worker, CSV and manifest)
    const file = join(dir, 'deltas.csv');
    const loadBefore = round(loadavg()[0] ?? 0, 2);
    const skeinStart = performance.now();
    const written = await writeTable(
      'deltas',
      file,
      {
        deltas: (after, limit) => watches.deltaPage({ after, limit }),
        attrition: (after, limit) => watches.attritionCsv({ after, limit }),
      },
      { project: 'bench', scope: 'all', exportedAt: T, app: 'bench' },
    );
    const skeinS = (performance.now() - skeinStart) / 1000;
    const skeinBytes = (await stat(file)).size;

    // DuckDB: the same rows, the same table (lag over each item's metric), COPY TO CSV
    const duck = await DuckDBInstance.create(':memory:');
    const con = await duck.connect();
    await con.run(
      `CREATE TABLE c AS SELECT * FROM read_csv('${rawCsv}', header = true, columns = {'kind': 'VARCHAR', 'id': 'VARCHAR', 'metric': 'VARCHAR', 'at': 'BIGINT', 'value': 'BIGINT', 'last_at': 'BIGINT'})`,
    );
    const duckFile = join(dir, 'deltas-duckdb.csv');
    const duckStart = performance.now();
    await con.run(
      `COPY (SELECT id, metric, epoch_ms("at") AS "at", value, lag(value) OVER w AS previous,
         value - lag(value) OVER w AS change, kind, epoch_ms(lag(last_at) OVER w) AS previous_seen_at
       FROM c WINDOW w AS (PARTITION BY kind, id, metric ORDER BY "at") ORDER BY kind, id, metric, "at")
       TO '${duckFile}' (HEADER, DELIMITER ',')`,
    );
    const duckS = (performance.now() - duckStart) / 1000;
    con.closeSync();
    duck.closeSync();
    const load = [loadBefore, round(loadavg()[0] ?? 0, 2)];

    // one run's end: what it writes in its one transaction (seen items, each with six counters)
    const watch = await watches.createWatch({
      name: 'w',
      kind: 'accounts',
      spec: '{}',
      createdAt: T,
      nextDue: T,
    });
    const runId = await watches.startRun({
      watch,
      startedAt: T,
      scheduledFor: T,
      runner: 'bench',
      token: 'b',
      journal: null,
      asked: '',
    });
    const seen = Array.from({ length: SEEN }, (_, i) => ({
      kind: 'post' as const,
      id: String(1_991_000_000_000_000_000n + BigInt(i)),
      target: 'a',
      createdAt: T,
      at: T,
      baseline: false,
    }));
    const settleStart = performance.now();
    await watches.finishRun({
      run: {
        id: runId,
        status: 'done',
        endedAt: T,
        message: null,
        calls: 0,
        credits: 0,
        newItems: 0,
        seenItems: SEEN,
        rechecked: 0,
        gone: 0,
        returned: 0,
        asked: '',
      },
      seen,
      missing: [],
      rechecked: [],
      counters: seen.flatMap((s) => METRICS.map((metric) => ({ kind: 'post', id: s.id, metric, at: T, value: 1 }))),
      gaps: { add: [], progress: [] },
      watch: { id: watch, state: '{}', nextDue: null },
    });
    const settleMs = performance.now() - settleStart;

    const result = {
      store,
      where,
      settings,
      rows: written,
      skein: {
        seconds: round(skeinS, 2),
        rowsPerSecond: Math.round(written / skeinS),
        megabytes: round(skeinBytes / 1e6),
      },
      duckdb: { seconds: round(duckS, 2), rowsPerSecond: Math.round(rows / duckS) },
      ratio: round(skeinS / duckS, 1),
      load,
      settle: { seen: SEEN, counters: SEEN * METRICS.length, ms: Math.round(settleMs) },
    };
    console.log(
      `${store}: deltas table, ${written.toLocaleString()} rows: Skein ${result.skein.seconds} s (${result.skein.rowsPerSecond.toLocaleString()} rows/s, ${result.skein.megabytes} MB); DuckDB ${result.duckdb.seconds} s (${result.duckdb.rowsPerSecond.toLocaleString()} rows/s): Skein takes ${result.ratio}× DuckDB's time (load average ${load.join(' → ')})`,
    );
    console.log(
      `a run's end with ${SEEN} items seen (${SEEN * METRICS.length} counters): ${result.settle.ms} ms in one transaction`,
    );
    console.log(`results: ${writeResults(store === 'sqlite' ? 'watch' : `watch-${store}`, result)}`);
    return result;
  } finally {
    await thread.close();
    await cleanup();
  }
}

for (const store of storesAsked(process.argv.slice(2))) await measure(store);
