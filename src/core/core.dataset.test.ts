/**
 * A partitioned Parquet dataset from either store (a project too large for one file): the Archive view's
 * "Parquet dataset" of a project on SQLite or on PostgreSQL is a folder split by the UTC date each item was
 * collected (`collected_date=YYYY-MM-DD/`, Hive style), which DuckDB reads as one table, the date typed, every
 * id exact.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ArchiveQuery } from '../shared/ipc/archive';
import { ArchiveHost } from './archive/host';
import { repliesPage } from './archive/testing/answers';
import { STORES } from './archive/testing/stores';
import { archiveReader } from './compose/archive-reader';
import { writeReexport } from './export/reexport';
import { duckdb } from './testing/duckdb';
import { inProcess } from './workers';

const day = (d: number, hour = 9) => Date.UTC(2026, 10, 20 + d, hour);

describe.each(STORES)('a Parquet dataset from a project on $name', (s) => {
  beforeAll(() => s.setup(), 120_000);
  afterAll(() => s.teardown());
  const run = s.skip ? describe.skip : describe;

  run(`(${s.skip ?? 'running'})`, () => {
    it('is one folder per collected date, read by DuckDB as one table', { timeout: 60_000 }, async () => {
      const dir = mkdtempSync(join(tmpdir(), 'skein-dataset-'));
      const host = new ArchiveHost(() => undefined);
      try {
        await host.api.open('current', s.fresh());
        // three days of collecting, 60 posts a day; on day 2 the first day's posts are seen again (unchanged)
        for (let d = 0; d < 3; d++)
          for (let p = 0; p < 3; p++) host.api.ingest('current', repliesPage((d * 3 + p) * 20, 20, day(d, 9 + p)));
        host.api.ingest('current', repliesPage(0, 20, day(2, 23)));
        await host.api.flush();
        const target = join(dir, 'project.parquet');
        const written = await writeReexport(archiveReader(inProcess(host.api)), {
          handle: 'current',
          query: ArchiveQuery.parse({}),
          format: 'parquet',
          options: { parquetLayout: 'dataset' },
          target,
          context: { appName: 'Skein', appVersion: 'test', mode: 'live', baseUrl: 'https://api.example' },
          now: day(3),
          title: 'the whole project',
          project: { name: 'Test', location: 'test' },
        });
        expect(written.items).toBe(180);
        expect(readdirSync(target).sort()).toEqual([
          'collected_date=2026-11-20',
          'collected_date=2026-11-21',
          'collected_date=2026-11-22',
        ]);
        const rows = await duckdb(
          `SELECT typeof(collected_date) AS type, CAST(collected_date AS VARCHAR) AS day, count(*) AS n,
             count(DISTINCT id) AS ids, min(retrieved_at) AS first
           FROM read_parquet('${target}/**/*.parquet', hive_partitioning = true) GROUP BY ALL ORDER BY day`,
        );
        // the first day's posts were last received on day 2: a row says when its JSON was received
        expect(rows.map((r) => [r.type, r.day, r.n, r.ids])).toEqual([
          ['DATE', '2026-11-20', 40n, 40n],
          ['DATE', '2026-11-21', 60n, 60n],
          ['DATE', '2026-11-22', 80n, 80n],
        ]);
        const ids = await duckdb(
          `SELECT id FROM read_parquet('${target}/**/*.parquet', hive_partitioning = true) ORDER BY id`,
        );
        expect(ids.map((r) => r.id)).toEqual(Array.from({ length: 180 }, (_, n) => String(1_000_000_000 + n)).sort());
        const manifest = JSON.parse(readFileSync(`${target}.manifest.json`, 'utf8')) as {
          parquet: { partitioned: boolean; layout: string; how_to_read: Record<string, string> };
        };
        expect(manifest.parquet.partitioned).toBe(true);
        expect(manifest.parquet.layout).toContain('collected_date=YYYY-MM-DD');
        expect(Object.keys(manifest.parquet.how_to_read).sort()).toEqual([
          'R (arrow)',
          'R (data.table)',
          'duckdb',
          'loaders',
          'pandas',
          'polars',
          'spark',
        ]);
        expect(manifest.parquet.how_to_read.duckdb).toContain('hive_partitioning = true');
      } finally {
        await host.dispose();
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
});
