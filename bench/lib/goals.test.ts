import { describe, expect, it } from 'vitest';
import { formatGoals, goalRows } from './goals';

const exportFile = (skein: number, duck: number, rss: number) => ({
  results: ['json', 'jsonl', 'csv', 'parquet'].flatMap((format) =>
    [100_000, 1_000_000].map((count) => ({ count, format, itemsMbPerSecond: skein, peakRssMb: rss })),
  ),
  // index by index, the DuckDB run made right before each of Skein's
  duckdb: ['json', 'json', 'csv', 'parquet'].flatMap((target) =>
    [100_000, 1_000_000].map((count) => ({ count, target, itemsMbPerSecond: duck, peakRssMb: 350 })),
  ),
});

describe('goalRows', () => {
  it('says which goals a run met, with DuckDB and the ratio beside each figure', () => {
    const rows = goalRows({
      export: exportFile(60, 100, 140),
      watch: { skein: { seconds: 1.3 }, duckdb: { seconds: 1 } },
      'watch-postgres': { skein: { seconds: 2.5 }, duckdb: { seconds: 1 } },
      coding: { drawMs: { skein: [150, 140, 160], duckdb: [70, 80, 90], ratio: 1.9 } },
      hydrate: {
        runs: [
          { count: 100_000, peakRssMb: 220 },
          { count: 1_000_000, peakRssMb: 310 },
        ],
      },
    });
    const row = (work: string) => rows.find((r) => r.work.startsWith(work));
    expect(row('export 100,000')).toMatchObject({ ratio: '0.60 / 0.60 / 0.60 / 0.60', met: true });
    expect(row('  their peak RSS')).toMatchObject({
      skein: '140 / 140 / 140 / 140',
      duckdb: '350 / 350 / 350 / 350',
      met: true,
    });
    expect(row('watch deltas')).toMatchObject({ ratio: '1.3× / 2.5×', met: false });
    expect(row('stratified sample')).toMatchObject({ skein: '150.0', duckdb: '80.0', met: true });
    expect(row('hydrate')).toMatchObject({ skein: '220 / 310', met: false });
    // no results file: not run, never a pass
    expect(row('team project')?.met).toBeNull();
    expect(row('npm run bench')?.met).toBeNull();
  });

  it('pairs each export with the DuckDB run of its own format, and one failing format fails the line', () => {
    const file = exportFile(60, 100, 100);
    file.results = file.results.map((r) => (r.format === 'parquet' ? { ...r, itemsMbPerSecond: 30 } : r));
    file.duckdb = file.duckdb.map((d) => (d.target === 'csv' ? { ...d, itemsMbPerSecond: 200 } : d));
    // JSON and JSON Lines are both compared with DuckDB writing JSON: each with the DuckDB run before it
    file.duckdb[2] = { ...file.duckdb[2]!, itemsMbPerSecond: 120 };
    const line = goalRows({ export: file }).find((r) => r.work.startsWith('export 100,000'));
    expect(line).toMatchObject({ ratio: '0.60 / 0.50 / 0.30 / 0.30', duckdb: '100 / 120 / 200 / 100', met: false });
  });

  it('says under the table how much of DuckDB’s figure the least work reaches, format by format', () => {
    const file = {
      ...exportFile(60, 100, 100),
      floor: [{ count: 1_000_000, itemsMbPerSecond: 130, writtenMbPerSecond: 105 }],
    };
    file.duckdb = file.duckdb.map((d) => (d.target === 'csv' ? { ...d, itemsMbPerSecond: 200 } : d));
    const text = formatGoals(goalRows({ export: file }));
    expect(text).toMatch(
      /^export 1,000,000: the floor .* is 1\.30 \/ 1\.30 \/ 0\.65 \/ 1\.30 of DuckDB's; with the texts written once, 1\.05 \/ 1\.05 \/ 0\.53 \/ 1\.05$/m,
    );
    // no floor at 100,000 in this file: nothing said of it
    expect(text).not.toMatch(/^export 100,000: the floor/m);
  });

  it('reads the app bench’s budgets and its page arriving', () => {
    const report = {
      metrics: [
        { id: 'data.renderer.arrival.p95', value: 5.4, status: 'fail' },
        { id: 'data.renderer.floor.p95', value: 3.9, status: 'info' },
        { id: 'scroll.fast.p95', value: 16.7, status: 'pass' },
      ],
    };
    const rows = goalRows({ report });
    expect(rows.find((r) => r.work.startsWith('a page arriving'))).toMatchObject({ skein: '5.40', met: false });
    expect(rows.find((r) => r.work.startsWith('npm run bench:'))).toMatchObject({ skein: '1 of 2', met: false });
    expect(formatGoals(rows)).toMatch(/^0 met, 2 not met, 9 not run$/m);
    // which budgets failed, under the table
    expect(formatGoals(rows)).toMatch(/^npm run bench failed data\.renderer\.arrival\.p95$/m);
    // and the browser's own floor under that budget
    expect(formatGoals(rows)).toMatch(/^a page arriving: the browser alone spends 3\.90 ms \(p95\)/m);
  });

  it('takes hostile or partial files as not run rather than throwing', () => {
    const rows = goalRows({ export: { results: 'x' }, coding: null, hydrate: [], report: { metrics: {} } });
    expect(rows.every((r) => r.met === null)).toBe(true);
  });
});
