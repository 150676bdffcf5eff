/**
 * The loaders beside a CSV or Parquet export, run as a researcher runs them: the Python loader with pandas,
 * the R loader with read.csv, readr and data.table, and the manifest's DuckDB line in DuckDB, on hostile text
 * (quotes — which fread alone would leave doubled —, line breaks, "NA", "007", a formula, non-Latin script)
 * and ids above 2^53, in both CSV flavours: every id and every text back exactly. Plain read.csv, the line
 * researchers reach for, rounds the ids (shown, so the loader's fix means something). polars and arrow are not
 * Debian packages: their lines are parsed with the rest of each loader, not run.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import type { ExportFormat, ExportOptions, ViewDescriptor } from '../../shared/ipc/export';
import { ExportService } from '../export/export-service';
import { memorySource, post, type MemoryPage } from '../export/testing/memory-source';
import { duckdb } from '../testing/duckdb';
import { FakeClock } from '../testing/fake-clock';
import { pythonWith, readerIt, rscriptWith, runJson } from '../testing/readers';
import { loaderPaths } from './loaders';
import type { ExportManifest } from './manifest';
import { sidecarPath } from './format';

const context = () => ({ appName: 'Skein', appVersion: '0.1.0', mode: 'demo' as const, baseUrl: 'http://127.0.0.1:1' });
const ROOT = '1234567890123456789';
const BIG = '9223372036854775807';
const ABOVE_2_53 = '9007199254740993';

/** text as received, and as each flavour writes it (spreadsheets: a formula-like cell gets a leading ') */
const TEXTS = [
  'He said "hi", then ""twice"" — and left',
  'line one\r\nline "two"\nend, 日本語 é',
  'NA',
  '007',
  '=1+1 looks like a formula',
];
const AUTHORS = [
  { id: '2000000000000000001', userName: 'ann', name: 'Ann "A" Smith' },
  { id: '2000000000000000002', userName: 'bob', name: 'NA' },
  { id: '2000000000000000003', userName: 'cy', name: '007' },
];

const items = [
  post(ROOT, null, { text: TEXTS[0], author: AUTHORS[0], likeCount: 7 }),
  post(ABOVE_2_53, ROOT, { text: TEXTS[1], author: AUTHORS[1], likeCount: 1.5, quoted_tweet: null }),
  post(BIG, ABOVE_2_53, { text: TEXTS[2], author: AUTHORS[2], likeCount: null }),
  post('1999999999999999990', ROOT, { text: TEXTS[3], author: AUTHORS[0] }),
  post('1999999999999999991', ROOT, { text: TEXTS[4], author: AUTHORS[1] }),
];
const pages: MemoryPage[] = [{ items: items.slice(0, 2) }, { items: items.slice(2) }];
const IDS = items.map((p) => p.id as string);

const view: ViewDescriptor = { kind: 'thread', operation: 'postRepliesV2', params: { tweetId: ROOT } };

async function exportAs(format: ExportFormat, options?: ExportOptions) {
  const dir = await mkdtemp(join(tmpdir(), 'skein-loaders-'));
  const service = new ExportService({
    source: memorySource(pages),
    stateDir: join(dir, 'state'),
    clock: new FakeClock(),
    context,
  });
  const target = join(dir, `x.${format}`);
  const job = await service.start({ view, format, scope: 'all', targetPath: target, options });
  const done = await service.settled(job.id);
  expect(done.status).toBe('complete');
  const manifest = JSON.parse(await readFile(sidecarPath(target), 'utf8')) as ExportManifest;
  return { target, done, manifest, ...loaderPaths(target) };
}

interface Row {
  id: string;
  text: string | null;
  author_id: string;
  author_name: string | null;
  likeCount: string | null;
}

/**
 * What every reader must give back: the ids and texts as received (base R's read.csv, `crLost`, cannot keep a
 * carriage return inside a text: it reads \r\n and \r as \n, and the loader says so).
 */
function expected(sheet: boolean, crLost = false): Row[] {
  return items.map((p) => {
    const text = crLost ? (p.text as string).replace(/\r\n?/g, '\n') : (p.text as string);
    return {
      id: p.id as string,
      text: sheet && text.startsWith('=') ? `'${text}` : text,
      author_id: (p.author as { id: string }).id,
      author_name: (p.author as { name: string }).name,
      likeCount: typeof p.likeCount === 'number' ? String(p.likeCount) : null,
    };
  });
}

const PANDAS = `
import json, runpy, sys
skein = runpy.run_path(sys.argv[1])
df = skein['with_pandas']()
cols = ['id', 'text', 'author_id', 'author_name', 'likeCount']
rows = [{c: (None if v != v else v) for c, v in zip(cols, r)} for r in df[cols].itertuples(index=False)]
print(json.dumps({'rows': rows, 'types': {c: str(df[c].dtype) for c in cols}}, default=str))`;

/** An R loader's reader: the columns as CSV (NA as <NA>), then each column's class, read back in Node. */
function readInR(rscript: string, loader: string, fn: string) {
  const script = `source(commandArgs(TRUE)[1]); df <- as.data.frame(${fn}())
cols <- c("id", "text", "author_id", "author_name", "likeCount")
write.csv(df[, cols], stdout(), row.names = FALSE, na = "<NA>")
cat("--classes--\\n"); cat(vapply(df[, cols], function(x) class(x)[1], ""), sep = ",")`;
  const out = execFileSync(rscript, ['-e', script, loader], {
    encoding: 'utf8',
    env: { ...process.env, LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8' },
  });
  const [csv = '', classes = ''] = out.split('--classes--\n');
  const rows = parse<Record<string, string>>(csv, { columns: true }).map((r) => {
    const row: Record<string, string | null> = {};
    for (const [k, v] of Object.entries(r)) row[k] = v === '<NA>' ? null : v;
    return row;
  });
  return { rows, classes: classes.trim().split(',') };
}

const pandas = readerIt(pythonWith('pandas'), 'Python with pandas (python3-pandas)');
const rBase = readerIt(rscriptWith(), 'R (r-base-core)');
const rReadr = readerIt(rscriptWith('readr'), "R's readr (r-cran-readr)");
const rDataTable = readerIt(rscriptWith('data.table', 'bit64'), "R's data.table and bit64 (r-cran-data.table)");

describe.each([
  ['analysis', false],
  ['spreadsheet', true],
] as const)('the loaders beside a CSV for %s', (flavour, sheet) => {
  const options: ExportOptions = { csvFlavour: flavour };

  it('are listed with the files and named in the manifest, beside the reading lines of every tool', async () => {
    const { done, target, python, r, manifest } = await exportAs('csv', options);
    expect(done.files).toEqual([target, python, r, sidecarPath(target)]);
    expect(Object.keys(manifest.csv?.how_to_read ?? {})).toEqual(
      expect.arrayContaining([
        'pandas',
        'polars',
        'duckdb',
        'R (read.csv)',
        'R (readr)',
        'R (data.table)',
        'R (arrow)',
      ]),
    );
    expect(manifest.csv?.how_to_read.loaders).toMatch(/x\.csv\.load\.py .* x\.csv\.load\.R/);
  });

  it("the manifest's DuckDB line reads every id and text exactly", async () => {
    const { target, manifest } = await exportAs('csv', options);
    const sql = manifest.csv?.how_to_read.duckdb ?? '';
    const rows = await duckdb(`SET file_search_path = '${dirname(target)}'; ${sql}`);
    expect(rows.map((r) => [r.id, r.text, r.author_id, r.author_name])).toEqual(
      expected(sheet).map((e) => [e.id, e.text, e.author_id, e.author_name]),
    );
  });

  pandas('the Python loader, with pandas: ids as text, every text exact', async (py) => {
    const { python, target } = await exportAs('csv', options);
    const got = runJson<{ rows: Row[]; types: Record<string, string> }>(py, PANDAS, [python]);
    expect(
      got.rows.map((r) => ({ ...r, likeCount: r.likeCount === null ? null : String(Number(r.likeCount)) })),
    ).toEqual(expected(sheet));
    expect(got.types).toMatchObject({ id: 'object', text: 'object', author_name: 'object', likeCount: 'float64' });
    // run as a script, it reads every table and says so
    const [header = []]: string[][] = parse(await readFile(target, 'utf8'), { bom: true, to: 1 });
    expect(execFileSync(py, [python], { encoding: 'utf8' })).toBe(`x.csv: 5 rows, ${header.length} columns\n`);
  });

  for (const [reader, fn] of [
    [rBase, 'with_base'],
    [rReadr, 'with_readr'],
    [rDataTable, 'with_data_table'],
  ] as const) {
    reader(
      `the R loader's ${fn}: ids as text, every text exact (quotes undoubled; read.csv's carriage returns aside)`,
      async (rscript) => {
        const { r } = await exportAs('csv', options);
        const got = readInR(rscript, r, fn);
        expect(
          got.rows.map((row) => ({ ...row, likeCount: row.likeCount === null ? null : String(Number(row.likeCount)) })),
        ).toEqual(expected(sheet, fn === 'with_base'));
        expect(got.classes.slice(0, 4)).toEqual(['character', 'character', 'character', 'character']);
        expect(got.classes[4]).toBe('numeric');
      },
    );
  }
});

describe('why the loaders exist', () => {
  rBase("plain read.csv rounds a 19-digit id, silently; the R loader's line does not", async (rscript) => {
    const { target } = await exportAs('csv', { csvFlavour: 'analysis' });
    const plain = execFileSync(
      rscript,
      ['-e', 'cat(format(read.csv(commandArgs(TRUE)[1])$id[1], scientific = FALSE))', target],
      {
        encoding: 'utf8',
      },
    );
    expect(plain).not.toBe(ROOT);
  });

  rDataTable('fread alone leaves doubled quotes in a quoted text (so the loader undoes them)', async (rscript) => {
    const { target } = await exportAs('csv', { csvFlavour: 'analysis' });
    const text = execFileSync(
      rscript,
      ['-e', 'cat(data.table::fread(commandArgs(TRUE)[1], colClasses = list(character = "id"))$text[1])', target],
      { encoding: 'utf8', env: { ...process.env, LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8' } },
    );
    // fixed in a later fread, this shows the plain text: the loader then leaves it alone (it asks fread first)
    expect([TEXTS[0], TEXTS[0]?.replaceAll('"', '""')]).toContain(text);
  });
});

describe('the loaders beside a Parquet export', () => {
  it("are written and named; the manifest's DuckDB line reads the ids as text", async () => {
    const { done, target, python, r, manifest } = await exportAs('parquet');
    expect(done.files).toEqual([target, python, r, sidecarPath(target)]);
    expect(manifest.parquet?.how_to_read).toMatchObject({
      pandas: 'df = pd.read_parquet("x.parquet")',
      'R (arrow)': 'df <- as.data.frame(arrow::read_parquet("x.parquet"))',
    });
    const rows = await duckdb(
      `SET file_search_path = '${dirname(target)}'; ${manifest.parquet?.how_to_read.duckdb ?? ''}`,
    );
    expect(rows.map((row) => row.id)).toEqual(IDS);
  });

  pandas(
    'the Python loader compiles (pandas and polars read Parquet through pyarrow, not a Debian package)',
    async (py) => {
      const { python } = await exportAs('parquet');
      expect(
        execFileSync(
          py,
          ['-c', 'import sys; compile(open(sys.argv[1]).read(), sys.argv[1], "exec"); print("ok")', python],
          { encoding: 'utf8' },
        ),
      ).toBe('ok\n');
    },
  );

  rBase('the R loader parses (arrow is not a Debian package)', async (rscript) => {
    const { r } = await exportAs('parquet');
    expect(
      execFileSync(rscript, ['-e', 'invisible(parse(commandArgs(TRUE)[1])); cat("ok")', r], { encoding: 'utf8' }),
    ).toBe('ok');
  });
});
