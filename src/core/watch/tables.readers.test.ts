/**
 * The deltas and attrition tables open exactly in pandas and R, with the very lines their manifest
 * gives: 19-digit ids stay text, counts stay numbers, an empty cell is a missing value, a reason with commas,
 * quotes, a line break and non-Latin text comes back as it was. python3-pandas and r-base-core come from
 * Debian (.ci/run installs them); without them this test says why and skips, but never in CI.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ArchiveProject } from '../archive/project';
import { PARTS } from '../compose/parts';
import { runOutcome } from './testing/outcome';
import type { WatchTables } from './tables/watch-tables';
import type { RunOutcome } from './tables/records';
import { ATTRITION_COLUMNS, DELTA_COLUMNS, writeTable } from './tables';

function find(candidates: string[][], probe: string[]): string[] | null {
  for (const c of candidates) {
    try {
      execFileSync(c[0] as string, [...c.slice(1), ...probe], { stdio: 'pipe' });
      return c;
    } catch {
      /* next */
    }
  }
  return null;
}
const python = find([['/usr/bin/python3'], ['python3']], ['-c', 'import pandas']);
const rscript = find([['Rscript']], ['-e', 'invisible(read.csv)']);
const missing = [
  python ? null : 'python3 with pandas (Debian: python3-pandas)',
  rscript ? null : 'Rscript (Debian: r-base-core)',
]
  .filter(Boolean)
  .join(' and ');
if (missing && process.env.CI) throw new Error(`the table readers test needs ${missing}, which .ci/run installs`);

const A = '1234567890123456789';
const B = '9007199254740993001';
const U = '1681323444488110139';
const HOUR = 3_600_000;
const T = Date.UTC(2026, 10, 22, 6, 0, 0);

let dir: string;
let project: ArchiveProject;
let watch: number;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'skein-tables-'));
  project = await ArchiveProject.open(join(dir, 'p.skein'), { name: 'p', kind: 'live', now: T }, Date.now, PARTS);
  const w = project.parts.get('watch') as WatchTables;
  watch = await w.createWatch({ name: 'w', kind: 'accounts', spec: '{}', createdAt: T, nextDue: T });
  const run = (id: number, at: number, o: Partial<RunOutcome>): RunOutcome => runOutcome(id, watch, at, o);
  const r1 = await w.startRun({
    watch,
    startedAt: T,
    scheduledFor: T,
    runner: 'test',
    token: 't',
    journal: null,
    asked: '',
  });
  await w.finishRun(
    run(r1, T, {
      seen: [
        { kind: 'post', id: A, target: U, createdAt: T - HOUR, at: T, baseline: true },
        { kind: 'post', id: B, target: U, createdAt: T - 2 * HOUR, at: T, baseline: true },
        { kind: 'user', id: U, target: U, createdAt: null, at: T, baseline: false },
      ],
      counters: [
        { kind: 'post', id: A, metric: 'likes', at: T, value: 3 },
        { kind: 'post', id: A, metric: 'views', at: T, value: 9_007_199_254_740 },
        { kind: 'user', id: U, metric: 'followers', at: T, value: 184_203 },
      ],
    }),
  );
  const r2 = await w.startRun({
    watch,
    startedAt: T + HOUR,
    scheduledFor: T + HOUR,
    runner: 'test',
    token: 't',
    journal: null,
    asked: '',
  });
  await w.finishRun(
    run(r2, T + HOUR, {
      missing: [{ kind: 'post', id: B, at: T + HOUR, reason: 'left out of the listing, read at "noon", 東京' }],
      counters: [
        { kind: 'post', id: A, metric: 'likes', at: T + HOUR, value: 3 },
        { kind: 'post', id: A, metric: 'likes', at: T + HOUR + 1, value: 3 },
        { kind: 'user', id: U, metric: 'followers', at: T + HOUR, value: 184_150 },
      ],
    }),
  );
  const r3 = await w.startRun({
    watch,
    startedAt: T + 2 * HOUR,
    scheduledFor: T + 2 * HOUR,
    runner: 'test',
    token: 't',
    journal: null,
    asked: '',
  });
  await w.finishRun(
    run(r3, T + 2 * HOUR, {
      rechecked: [
        {
          kind: 'post',
          id: B,
          at: T + 2 * HOUR,
          found: false,
          reason: 'not returned, "東京",\nwhen asked by id',
          nextCheck: T + 26 * HOUR,
        },
      ],
      counters: [{ kind: 'post', id: A, metric: 'likes', at: T + 2 * HOUR, value: 11 }],
    }),
  );
});
afterAll(() => {
  project.close();
  rmSync(dir, { recursive: true, force: true });
});

async function write(table: 'deltas' | 'attrition'): Promise<{ file: string; readers: { pandas: string; R: string } }> {
  const file = join(dir, `${table}.csv`);
  const w = project.parts.get('watch') as WatchTables;
  await writeTable(
    table,
    file,
    {
      deltas: (after, limit) => w.deltaPage({ watch, after, limit }),
      attrition: (after, limit) => w.attritionCsv({ watch, after, limit }),
    },
    { project: 'p', scope: 'watch 1', exportedAt: T, app: 'Skein test' },
  );
  const manifest = JSON.parse(readFileSync(`${file}.manifest.json`, 'utf8')) as {
    readers: { pandas: string; R: string };
  };
  return { file, readers: manifest.readers };
}

/** the table as pandas reads it with the manifest's line: columns, dtypes, and the records (NaN as null) */
function pandas(file: string, line: string) {
  const script = `
import json, pandas as pd
df = ${line}
print(json.dumps({"columns": list(df.columns), "dtypes": {c: str(t) for c, t in df.dtypes.items()},
  "rows": json.loads(df.to_json(orient="records", double_precision=15))}))`;
  return JSON.parse(
    execFileSync((python as string[])[0] as string, ['-c', script], { cwd: dir, encoding: 'utf8' }),
  ) as { columns: string[]; dtypes: Record<string, string>; rows: Array<Record<string, unknown>> };
}

/** the table as R reads it with the manifest's line: each column's class, and every cell as R prints it */
function r(line: string) {
  const script = `d <- ${line}
cat(paste(names(d), sapply(d, function(x) class(x)[1]), sep = ":", collapse = "\\t"), "\\n", sep = "")
cell <- function(x) if (is.na(x)) "NA" else gsub("\\n", "\\\\n", format(x, scientific = FALSE, digits = 15), fixed = TRUE)
for (i in seq_len(nrow(d))) cat(paste(sapply(d[i, ], cell), collapse = "\\t"), "\\n", sep = "")`;
  const out = execFileSync('Rscript', ['-e', script], { cwd: dir, encoding: 'utf8' }).trimEnd().split('\n');
  const header = (out[0] ?? '').split('\t').map((c) => c.split(':'));
  return {
    classes: Object.fromEntries(header.map(([n, c]) => [n as string, c as string])),
    rows: out.slice(1).map((l) => l.split('\t')),
  };
}

describe.skipIf(missing !== '' && !process.env.CI)(
  `the watch tables in pandas and R${missing ? ` (skipped: ${missing} not installed)` : ''}`,
  () => {
    it('deltas: a value when first seen and each change, with the one before and when it was last seen', async () => {
      const { file, readers } = await write('deltas');
      const csv = readFileSync(file, 'utf8');
      expect(csv.split('\n')[0]).toBe(DELTA_COLUMNS.join(','));
      const p = pandas(file, readers.pandas);
      expect(p.columns).toEqual([...DELTA_COLUMNS]);
      expect(p.dtypes).toMatchObject({
        id: 'object',
        metric: 'object',
        value: 'int64',
        previous: 'float64',
        change: 'float64',
      });
      const iso = (t: number) => new Date(t).toISOString();
      expect(p.rows).toEqual([
        {
          id: A,
          metric: 'likes',
          at: iso(T),
          value: 3,
          previous: null,
          change: null,
          kind: 'post',
          previous_seen_at: null,
        },
        {
          id: A,
          metric: 'likes',
          at: iso(T + 2 * HOUR),
          value: 11,
          previous: 3,
          change: 8,
          kind: 'post',
          previous_seen_at: iso(T + HOUR + 1),
        },
        {
          id: A,
          metric: 'views',
          at: iso(T),
          value: 9_007_199_254_740,
          previous: null,
          change: null,
          kind: 'post',
          previous_seen_at: null,
        },
        {
          id: U,
          metric: 'followers',
          at: iso(T),
          value: 184_203,
          previous: null,
          change: null,
          kind: 'user',
          previous_seen_at: null,
        },
        {
          id: U,
          metric: 'followers',
          at: iso(T + HOUR),
          value: 184_150,
          previous: 184_203,
          change: -53,
          kind: 'user',
          previous_seen_at: iso(T),
        },
      ]);
      const rd = r(readers.R);
      expect(rd.classes).toMatchObject({ id: 'character', metric: 'character', value: 'numeric', change: 'integer' });
      expect(rd.rows.map((row) => [row[0], row[1], row[3], row[4], row[5]])).toEqual([
        [A, 'likes', '3', 'NA', 'NA'],
        [A, 'likes', '11', '3', '8'],
        [A, 'views', '9007199254740', 'NA', 'NA'],
        [U, 'followers', '184203', 'NA', 'NA'],
        [U, 'followers', '184150', '184203', '-53'],
      ]);
    });

    it('attrition: every item a watch follows, gone only after a re-check, with why and when', async () => {
      const { file, readers } = await write('attrition');
      expect(readFileSync(file, 'utf8').split('\n')[0]).toBe(ATTRITION_COLUMNS.join(','));
      const p = pandas(file, readers.pandas);
      expect(p.columns).toEqual([...ATTRITION_COLUMNS]);
      const iso = (t: number) => new Date(t).toISOString();
      // rows by watch, kind and id: post A, post B, the account
      expect(p.rows[1]).toEqual({
        id: B,
        first_seen: iso(T),
        last_seen: iso(T),
        first_missing_at: iso(T + HOUR),
        rechecks: 1,
        status: 'gone',
        reason: 'not returned, "東京",\nwhen asked by id',
        kind: 'post',
        status_at: iso(T + 2 * HOUR),
        watch,
        target: U,
        created_at: iso(T - 2 * HOUR),
      });
      expect(p.rows.map((x) => [x.id, x.status])).toEqual([
        [A, 'present'],
        [B, 'gone'],
        [U, 'present'],
      ]);
      expect(p.rows[0]?.reason).toBeNull();
      const rd = r(readers.R);
      expect(rd.classes).toMatchObject({
        id: 'character',
        status: 'character',
        reason: 'character',
        rechecks: 'integer',
      });
      expect(rd.rows.map((row) => row[0])).toEqual([A, B, U]);
      expect(rd.rows[1]?.[6]).toBe('not returned, "東京",\\nwhen asked by id');
      expect(rd.rows[1]?.[4]).toBe('1');
    });
  },
);
