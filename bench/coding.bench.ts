/**
 * `npm run bench:coding`: the coding workbench's costs, measured through the archive's real worker:
 * - drawing a stratified sample (by day) of 1,000 from a project of BENCH_CODING_POSTS posts (default 100,000):
 *   the strata counted and every item ranked (SHA-256) and kept by a window in the project's SQL, in the worker,
 *   only the drawn items crossing to main; against DuckDB drawing the
 *   same kind of sample (rank by hash within each day, proportional quota) from the same (id, day) rows in a
 *   table, the fastest tool a researcher has for it; seven draws each, in wall time and in CPU time (every thread
 *   of the process: main, the worker, DuckDB's), the CPU less moved by other work on the machine;
 * - the agreement report (α nominal, κ, Fleiss, percent, a 1,000-draw bootstrap) of 5,000 items × 3 coders;
 * - the main thread's longest event-loop block while drawing (the assignment's ranking runs on main).
 * Writes bench/results/coding.json. A measurement: it never fails.
 */
import { rm } from 'node:fs/promises';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { DuckDBInstance } from '@duckdb/node-api';
import { repliesPage } from '../src/core/archive/testing/answers';
import { agreementRows } from '../src/core/coding/agreement/report';
import { createCodingService } from '../src/core/coding/service';
import { codingStore } from '../src/core/compose/coding-store';
import { CodebookDefinition } from '../src/shared/coding/codebook';
import { openBenchArchive } from './lib/archive-db';
import { writeResults } from './lib/results';
import { median } from './lib/stats';

const POSTS = Number(process.env.BENCH_CODING_POSTS ?? 100_000);
const SAMPLE = 1_000;
const PAGE = 200;
/** seven draws each (the first cold): a median of three moved with whatever else ran on the machine */
const SEEDS = ['s1', 's2', 's3', 's4', 's5', 's6', 's7'];

const ms = (t0: number) => Math.round((performance.now() - t0) * 10) / 10;
/** CPU time since `c0` of this process's threads (main, the archive's worker, DuckDB's), in ms */
const cpuMs = (c0: NodeJS.CpuUsage) => {
  const c = process.cpuUsage(c0);
  return Math.round((c.user + c.system) / 100) / 10;
};

const { dir, thread } = await openBenchArchive('skein-bench-coding-');
try {
  // a project of POSTS posts over a year (one an hour, repeating), ingested as answers
  const t0 = performance.now();
  for (let first = 0; first < POSTS; first += PAGE)
    thread.ingest('current', repliesPage(first, Math.min(PAGE, POSTS - first), Date.now()));
  await thread.call('flush');
  const summary = await thread.call('summary', 'current');
  console.log(`project: ${summary.items.toLocaleString()} posts ingested in ${ms(t0)} ms`);

  const store = codingStore(thread, 'current');
  const service = createCodingService({
    store: async () => store,
    handle: async () => 'current',
    now: Date.now,
  });
  const definition = CodebookDefinition.parse({
    fields: [
      {
        key: 'stance',
        label: 'Stance',
        type: 'category',
        categories: ['a', 'b', 'c'].map((v) => ({ value: v, label: v })),
      },
    ],
  });
  const cb = await service.saveCodebook({ name: 'Bench', definition });
  const coders = [
    await service.addCoder({ name: 'A', kind: 'person' }),
    await service.addCoder({ name: 'B', kind: 'person' }),
  ];

  const loop = monitorEventLoopDelay({ resolution: 5 });
  const draws: number[] = [];
  // CPU beside wall time: on a machine others load, the CPU a draw costs is what moves least
  const drawsCpu: number[] = [];
  const blocks: number[] = [];
  for (const seed of SEEDS) {
    loop.reset();
    loop.enable();
    const t = performance.now();
    const c0 = process.cpuUsage();
    await service.drawSample({
      codebook: cb.id,
      name: seed,
      source: { kind: 'post', text: '' },
      size: SAMPLE,
      seed,
      method: 'stratified',
      stratum: 'day',
      coders: coders.map((c) => c.id),
      overlap: 0.2,
    });
    draws.push(ms(t));
    drawsCpu.push(cpuMs(c0));
    loop.disable();
    blocks.push(Math.round(loop.max / 1e6));
  }
  const skeinDraw = median(draws);
  console.log(
    `skein: stratified sample of ${SAMPLE} from ${POSTS.toLocaleString()}: median ${skeinDraw} ms (${draws.join(', ')}); main's longest block per draw ${blocks.join(', ')} ms (the first one cold); CPU median ${median(drawsCpu)} ms (${drawsCpu.join(', ')})`,
  );

  // DuckDB: the same rows (id, day) in a table, the same kind of draw in SQL
  const rows: Array<{ id: string; group: string | null }> = [];
  for await (const chunk of store.grouped({ project: 'current', text: '', kind: 'post', sort: 'time' }, 'day', 10_000))
    rows.push(...chunk);
  const db = await DuckDBInstance.create(':memory:');
  const connection = await db.connect();
  await connection.run('CREATE TABLE t (id VARCHAR, day VARCHAR)');
  const appender = await connection.createAppender('t');
  for (const r of rows) {
    appender.appendVarchar(r.id);
    appender.appendVarchar(r.group ?? '');
    appender.endRow();
  }
  appender.closeSync();
  const duck: number[] = [];
  const duckCpu: number[] = [];
  for (const seed of SEEDS) {
    const t = performance.now();
    const c0 = process.cpuUsage();
    await connection.runAndReadAll(`
      WITH ranked AS (
        SELECT id, day, sha256('${seed}' || id) AS r,
               row_number() OVER (PARTITION BY day ORDER BY sha256('${seed}' || id)) AS rn,
               count(*) OVER (PARTITION BY day) AS n
        FROM t)
      SELECT id, day FROM ranked WHERE rn <= round(n * ${SAMPLE} / (SELECT count(*) FROM t)) ORDER BY r`);
    duck.push(ms(t));
    duckCpu.push(cpuMs(c0));
  }
  const duckDraw = median(duck);
  connection.closeSync();
  db.closeSync();
  console.log(
    `duckdb: the same draw in SQL: median ${duckDraw} ms (${duck.join(', ')}); Skein/DuckDB ${(skeinDraw / duckDraw).toFixed(2)}x; CPU median ${median(duckCpu)} ms (${duckCpu.join(', ')}), Skein/DuckDB ${(median(drawsCpu) / median(duckCpu)).toFixed(2)}x`,
  );

  // agreement: 5,000 items, 3 coders, 3 categories, agreeing most of the time
  const values = [];
  for (let u = 0; u < 5000; u++) {
    const truth = ['a', 'b', 'c'][u % 3]!;
    for (let c = 0; c < 3; c++)
      values.push({ unit: String(u), coder: c, field: 'stance', value: (u * 7 + c) % 5 === 0 ? 'b' : truth });
  }
  loop.reset();
  loop.enable();
  const ta = performance.now();
  const [row] = await agreementRows(definition, values);
  const agreementMs = ms(ta);
  loop.disable();
  const agreementBlock = Math.round(loop.max / 1e6);
  console.log(
    `agreement of 5,000 items × 3 coders with a 1,000-draw bootstrap: ${agreementMs} ms, main's longest block ${agreementBlock} ms (α ${row?.alpha.nominal?.toFixed(3)}, interval ${row?.interval?.low.toFixed(3)}–${row?.interval?.high.toFixed(3)})`,
  );

  const file = writeResults('coding', {
    posts: POSTS,
    sample: SAMPLE,
    drawMs: { skein: draws, duckdb: duck, ratio: skeinDraw / duckDraw },
    drawCpuMs: { skein: drawsCpu, duckdb: duckCpu, ratio: median(drawsCpu) / median(duckCpu) },
    mainLoopMaxMs: blocks,
    agreementMs,
    agreementMainLoopMaxMs: agreementBlock,
  });
  console.log(`wrote ${file}`);
} finally {
  await thread.close();
  await rm(dir, { recursive: true, force: true });
}
