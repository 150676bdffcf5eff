import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ArchiveProject } from '../archive/project';
import { PARTS } from '../compose/parts';
import type { CsvPage, DeltaKey } from './tables/records';
import type { WatchTables } from './tables/watch-tables';
import { writeTable } from './tables';
import { runOutcome, watchWithRun } from './testing/outcome';

const T = Date.UTC(2026, 10, 22);
let dir: string;
let project: ArchiveProject;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'skein-tables-pages-'));
  project = await ArchiveProject.open(join(dir, 'p.skein'), { name: 'p', kind: 'live', now: T }, Date.now, PARTS);
  const w = project.parts.get('watch') as WatchTables;
  // 6,001 items × 2 metrics × 3 values: more than one page of 5,000 rows, a page boundary inside an item's values
  const { watch, run } = await watchWithRun(w, T);
  const seen = Array.from({ length: 6_001 }, (_, i) => ({
    kind: 'post' as const,
    id: String(1_000_000_000_000 + i),
    target: null,
    createdAt: T,
    at: T,
    baseline: false,
  }));
  const counters = seen.flatMap((s, i) =>
    ['likes', 'views'].flatMap((metric) =>
      [0, 1, 2].map((k) => ({
        kind: 'post',
        id: s.id,
        metric,
        at: T + k * 1000,
        value: i + k * (metric === 'likes' ? 1 : 10),
      })),
    ),
  );
  await w.finishRun(runOutcome(run, watch, T, { seen, counters, watch: { id: watch, state: '{}', nextDue: null } }));
});
afterAll(() => {
  project.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the watch tables, page after page', () => {
  it('writes every row once, in order, with the value before across page boundaries', async () => {
    const w = project.parts.get('watch') as WatchTables;
    const file = join(dir, 'deltas.csv');
    const rows = await writeTable(
      'deltas',
      file,
      {
        deltas: (after, limit) => w.deltaPage({ after, limit }),
        attrition: (after, limit) => w.attritionCsv({ after, limit }),
      },
      { project: 'p', scope: 'all', exportedAt: T, app: 'test' },
    );
    expect(rows).toBe(6_001 * 2 * 3);
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n').slice(1);
    expect(lines).toHaveLength(rows);
    expect(new Set(lines).size).toBe(rows);
    // every item's second and third values carry the one before, wherever the pages were cut
    const withPrevious = lines.filter((l) => l.split(',')[4] !== '');
    expect(withPrevious).toHaveLength(6_001 * 2 * 2);
    expect(withPrevious.every((l) => ['1', '10'].includes(l.split(',')[5] ?? ''))).toBe(true);
    const manifest = JSON.parse(readFileSync(`${file}.manifest.json`, 'utf8')) as { rows: number; order: string };
    expect(manifest).toMatchObject({ rows, order: 'by kind, id, metric, then time' });
  });

  it('pages the attrition table by watch, kind and id', async () => {
    const w = project.parts.get('watch') as WatchTables;
    const file = join(dir, 'attrition.csv');
    const rows = await writeTable(
      'attrition',
      file,
      {
        deltas: (after, limit) => w.deltaPage({ after, limit }),
        attrition: (after, limit) => w.attritionCsv({ after, limit }),
      },
      { project: 'p', scope: 'all', exportedAt: T, app: 'test' },
    );
    expect(rows).toBe(6_001);
    const ids = readFileSync(file, 'utf8')
      .trimEnd()
      .split('\n')
      .slice(1)
      .map((l) => l.split(',')[0]);
    expect(ids).toEqual([...ids].sort());
    expect(new Set(ids).size).toBe(6_001);
  });
});

describe('the watch tables, written while the next page is made', () => {
  /** a source of `pages` full pages then a short one, each page answered after a turn of the event loop */
  function source(pages: number, fail?: number) {
    let asked = 0;
    let waiting = 0;
    let mostWaiting = 0;
    const deltas = async (after: DeltaKey | null, limit: number): Promise<CsvPage<DeltaKey>> => {
      const n = asked++;
      waiting++;
      mostWaiting = Math.max(mostWaiting, waiting);
      await new Promise((resolve) => setTimeout(resolve, 1));
      waiting--;
      if (n === fail) throw new Error('the project went away');
      const rows = n < pages ? limit : 3;
      const at = (after?.at ?? 0) + 1;
      return {
        text: Array.from({ length: rows }, (_, k) => `${n},${at + k}\n`).join(''),
        rows,
        last: { kind: 'post', id: String(n), metric: 'likes', at: at + rows - 1 },
      };
    };
    return { deltas, attrition: () => Promise.reject(new Error('not asked')), most: () => mostWaiting };
  }
  const about = { project: 'p', scope: 'all', exportedAt: T, app: 'test' };

  it('writes every page in order, never asking for more than one page ahead', async () => {
    const s = source(3);
    const file = join(dir, 'ahead.csv');
    expect(await writeTable('deltas', file, s, about)).toBe(3 * 5_000 + 3);
    const pages = readFileSync(file, 'utf8')
      .trimEnd()
      .split('\n')
      .slice(1)
      .map((l) => Number(l.split(',')[0]));
    expect(pages).toEqual([...pages].sort((a, b) => a - b));
    expect(new Set(pages)).toEqual(new Set([0, 1, 2, 3]));
    expect(s.most()).toBe(1);
  });

  it('leaves no file and no manifest when a page fails, the rows before it written or not', async () => {
    const file = join(dir, 'failed.csv');
    await expect(writeTable('deltas', file, source(5, 3), about)).rejects.toThrow('the project went away');
    expect(existsSync(file)).toBe(false);
    expect(existsSync(`${file}.manifest.json`)).toBe(false);
  });
});
