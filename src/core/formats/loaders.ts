/**
 * The lines that read a CSV or Parquet export exactly, in the tools researchers use — pandas, polars, DuckDB,
 * R's read.csv, readr, data.table and arrow — for the manifest (`how_to_read`), and the same lines as two small
 * loader files beside the export (`x.csv.load.py`, `x.csv.load.R`) that a researcher runs or sources.
 *
 * Exactly means: every text column (ids first of all) is declared as text, so no reader turns a 19-digit id
 * into a rounded number (R's read.csv does, silently) or a name like "007" into 7; numbers, true/false and ISO
 * times are left to the reader, which only ever meets numbers, true/false or nothing there (the writers put
 * nothing else in those columns); an empty cell is a missing value and the text "NA" stays text. The CSV for
 * spreadsheets has its numeric ids as `="…"` cells and a byte order mark: the lines unwrap and skip them.
 * data.table's fread (1.14 and later) leaves doubled quotes inside quoted cells (`He said ""hi""`): the lines
 * undo that when the fread at hand does it (they ask it first), and only then.
 */
import type { CsvFlavour } from '../../shared/ipc/export';
import { writeFileAtomic } from '../files/atomic-file';
import { columnType } from './column-types';
import { sidecarPath, writeManifestFile } from './format';
import type { ExportManifest } from './manifest';

/** One table of an export as its loaders read it. */
export interface LoaderTable {
  /** `main`, or the table's suffix (`participants`) */
  name: string;
  /** the data file (or a partitioned dataset's folder), beside the loaders: its base name */
  file: string;
  columns: readonly string[];
  idColumns: readonly string[];
}

export type LoaderSource =
  | { format: 'csv'; flavour: CsvFlavour; oneLinePerRow: boolean; tables: LoaderTable[] }
  | { format: 'parquet'; partitioned: boolean; tables: LoaderTable[] };

export interface LoaderMeta {
  /** `Skein 0.1.0` */
  app: string;
  exportedAt: string;
  /** the manifest's base name */
  manifest: string;
}

/** `x.csv` → `x.csv.load.py` and `x.csv.load.R`, named after the data file as its manifest is. */
export function loaderPaths(target: string): { python: string; r: string } {
  return { python: `${target}.load.py`, r: `${target}.load.R` };
}

/** The columns every reader must take as text: the ids, and every column Skein types as text. */
function textColumns(table: Pick<LoaderTable, 'columns' | 'idColumns'>): string[] {
  const ids = new Set(table.idColumns);
  return table.columns.filter((c) => ids.has(c) || columnType(c) === 'STRING');
}

/** A string literal Python and R both read (JSON's escapes are theirs too). */
const lit = (s: string): string => JSON.stringify(s);
const sqlLit = (s: string): string => `'${s.replace(/'/g, "''")}'`;
const pyList = (xs: readonly string[]): string => `[${xs.map(lit).join(', ')}]`;
const rVector = (xs: readonly string[]): string => `c(${xs.map(lit).join(', ')})`;

/** `="123"` → `123` (the spreadsheet flavour's numeric ids), per language. */
const UNWRAP = { regex: '^="(.*)"$', python: String.raw`r'^="(.*)"$'`, r: String.raw`'^="(.*)"$'` };

/** The reading lines of one table, by reader: what the manifest shows and the loaders run (`file` as given). */
function csvLines(table: LoaderTable, flavour: CsvFlavour, file: string): Record<string, string> {
  const text = textColumns(table);
  const ids = table.idColumns.filter((c) => text.includes(c));
  const sheet = flavour === 'spreadsheet';
  const wrapped = sheet && ids.length > 0;
  const pandasDtype = `{${text.map((c) => `${lit(c)}: str`).join(', ')}}`;
  const polarsSchema = `{${text.map((c) => `${lit(c)}: pl.String`).join(', ')}}`;
  const duckTypes = `{${text.map((c) => `${sqlLit(c)}: 'VARCHAR'`).join(', ')}}`;
  const rClasses = `c(${text.map((c) => `${lit(c)} = "character"`).join(', ')})`;
  const readrTypes = `readr::cols(${text.map((c) => `${lit(c)} = "c"`).join(', ')}, .default = "?")`;
  const duckUnwrap = wrapped
    ? ` REPLACE (${ids.map((c) => `regexp_replace("${c.replace(/"/g, '""')}", '${UNWRAP.regex}', '\\1') AS "${c.replace(/"/g, '""')}"`).join(', ')})`
    : '';
  const rUnwrap = wrapped ? `; for (col in ${rVector(ids)}) df[[col]] <- sub(${UNWRAP.r}, "\\\\1", df[[col]])` : '';
  return {
    pandas:
      `df = pd.read_csv(${lit(file)}, dtype=${pandasDtype}, keep_default_na=False, na_values=[''], encoding=${lit(sheet ? 'utf-8-sig' : 'utf-8')})` +
      (wrapped
        ? `; df[${pyList(ids)}] = df[${pyList(ids)}].apply(lambda c: c.str.replace(${UNWRAP.python}, r'\\1', regex=True))`
        : ''),
    polars:
      `df = pl.read_csv(${lit(file)}, schema_overrides=${polarsSchema}, infer_schema_length=None)` +
      (wrapped ? `.with_columns(pl.col(${pyList(ids)}).str.replace(${UNWRAP.python}, '\${1}'))` : ''),
    duckdb: `SELECT *${duckUnwrap} FROM read_csv(${sqlLit(file)}, types = ${duckTypes}, sample_size = -1)`,
    'R (read.csv)': `df <- read.csv(${lit(file)}, colClasses = ${rClasses}, na.strings = "", check.names = FALSE, ${sheet ? 'fileEncoding = "UTF-8-BOM"' : 'encoding = "UTF-8"'})${rUnwrap}`,
    'R (readr)': `df <- readr::read_csv(${lit(file)}, col_types = ${readrTypes}, na = "", progress = FALSE)${rUnwrap}`,
    // fread's doubled quotes are undone first: a spreadsheet id cell reads as =""123"" until then
    'R (data.table)':
      `df <- data.table::fread(${lit(file)}, colClasses = list(character = ${rVector(text)}), na.strings = "", encoding = "UTF-8")` +
      `; if (data.table::fread(text = 'a\\n"x""y"\\n')$a == 'x""y') for (col in names(df)[vapply(df, is.character, TRUE)]) data.table::set(df, j = col, value = gsub('""', '"', df[[col]], fixed = TRUE))${rUnwrap}`,
    'R (arrow)': `df <- as.data.frame(arrow::read_csv_arrow(${lit(file)}, convert_options = arrow::CsvConvertOptions$create(column_types = arrow::schema(sapply(${rVector(text)}, function(col) arrow::utf8(), simplify = FALSE)), strings_can_be_null = TRUE)))${rUnwrap}`,
  };
}

function parquetLines(file: string, partitioned: boolean): Record<string, string> {
  const glob = `${file}/**/*.parquet`;
  return partitioned
    ? {
        pandas: `df = pd.read_parquet(${lit(file)})`,
        polars: `df = pl.read_parquet(${lit(glob)}, hive_partitioning=True)`,
        duckdb: `SELECT * FROM read_parquet(${sqlLit(glob)}, hive_partitioning = true)`,
        'R (arrow)': `df <- as.data.frame(dplyr::collect(arrow::open_dataset(${lit(file)})))`,
        'R (data.table)': `df <- data.table::setDT(as.data.frame(dplyr::collect(arrow::open_dataset(${lit(file)}))))`,
      }
    : {
        pandas: `df = pd.read_parquet(${lit(file)})`,
        polars: `df = pl.read_parquet(${lit(file)})`,
        duckdb: `SELECT * FROM read_parquet(${sqlLit(file)})`,
        'R (arrow)': `df <- as.data.frame(arrow::read_parquet(${lit(file)}))`,
        'R (data.table)': `df <- data.table::setDT(as.data.frame(arrow::read_parquet(${lit(file)})))`,
      };
}

/** The lines of each table: the manifest's, with file names as they sit beside it. */
function linesOf(source: LoaderSource, table: LoaderTable, file = table.file): Record<string, string> {
  return source.format === 'csv' ? csvLines(table, source.flavour, file) : parquetLines(file, source.partitioned);
}

/** What the manifest says: the lines for the first table (the others differ by file name), and the loaders. */
export function howToRead(source: LoaderSource, target: string): Record<string, string> {
  const first = source.tables[0];
  const lines = first ? linesOf(source, first) : {};
  const { python, r } = loaderPaths(target);
  return {
    ...lines,
    loaders: `${baseName(python)} (pandas, polars, DuckDB) and ${baseName(r)} (read.csv, readr, data.table, arrow) beside this file: run one, or load a table in your own code (see their first lines)`,
  };
}

const baseName = (path: string): string => path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);

function notes(source: LoaderSource): string[] {
  const out = [
    'Every text column (the ids first of all) is read as text, never as a number: a 19-digit id read as a number loses its last digits.',
    'Numbers, true/false and times are left to the reader; an empty cell is a missing value; the text "NA" stays text.',
  ];
  if (source.format === 'csv' && source.flavour === 'spreadsheet')
    out.push(
      'This is the CSV for spreadsheets: numeric ids are ="..." cells (unwrapped here) and text a spreadsheet would run as a formula may start with an added \' (the manifest\'s csv.text_cells says; not undone here). The CSV for analysis is exact.',
    );
  if (source.format === 'csv' && source.oneLinePerRow)
    out.push('Line breaks inside cells were written as the two characters \\n; they are left so.');
  else if (source.format === 'csv')
    out.push(
      "R's read.csv turns a carriage return inside a text (\\r\\n, \\r) into \\n: base R cannot keep it. readr and data.table keep every character.",
    );
  return out;
}

/** A loader's first lines: what it reads, who wrote it when, the manifest, and the notes. */
function intro(source: LoaderSource, meta: LoaderMeta): string[] {
  const tables = source.tables;
  return [
    `Reads ${tables.map((t) => t.file).join(' and ')} exactly, as ${meta.app} wrote ${tables.length === 1 ? 'it' : 'them'} on ${meta.exportedAt}`,
    `(how it was collected: ${meta.manifest}).`,
    '',
    ...notes(source),
    '',
  ];
}

/** Stands for a table's file in a reading line, until the loader puts its path there. */
const FILE = '@@SKEIN_FILE@@';

function pythonLoader(source: LoaderSource, meta: LoaderMeta, self: string): string {
  const tables = source.tables;
  const fn = (reader: string, statement: (t: LoaderTable) => string[], head: string) =>
    [
      `def with_${reader}(table=${lit(tables[0]?.name ?? 'main')}):`,
      `    ${head}`,
      ...tables.flatMap((t) => [`    if table == ${lit(t.name)}:`, ...statement(t).map((l) => `        ${l}`)]),
      '    raise KeyError(table)',
    ].join('\n');
  const line = (t: LoaderTable, reader: string) => linesOf(source, t, FILE)[reader] ?? '';
  const local = (t: LoaderTable, reader: string) => line(t, reader).replace(lit(FILE), `path(${lit(t.name)})`);
  // the SQL names the file by its path, quoted for SQL where the loader runs
  const sql = (t: LoaderTable) =>
    lit(line(t, 'duckdb').replace(sqlLit(FILE), FILE)).replace(FILE, `" + sql_path(${lit(t.name)}) + "`);
  return [
    `"""`,
    ...intro(source, meta),
    `    python3 ${self}                      # reads every table with pandas and says what it holds`,
    `    import runpy; skein = runpy.run_path(${lit(self)})`,
    `    df = skein['with_pandas']()           # or with_polars(), with_duckdb(); table=${tables.map((t) => lit(t.name)).join(' or ')}`,
    `"""`,
    'import os',
    '',
    `HERE = os.path.dirname(os.path.abspath(__file__))`,
    `TABLES = {${tables.map((t) => `${lit(t.name)}: ${lit(t.file)}`).join(', ')}}`,
    '',
    '',
    'def path(table):',
    '    return os.path.join(HERE, TABLES[table])',
    '',
    '',
    'def sql_path(table):',
    `    return "'" + path(table).replace("'", "''") + "'"`,
    '',
    '',
    fn('pandas', (t) => [local(t, 'pandas'), 'return df'], 'import pandas as pd'),
    '',
    '',
    fn('polars', (t) => [local(t, 'polars'), 'return df'], 'import polars as pl'),
    '',
    '',
    fn('duckdb', (t) => [`return duckdb.sql(${sql(t)})`], 'import duckdb'),
    '',
    '',
    "if __name__ == '__main__':",
    '    for name, file in TABLES.items():',
    '        df = with_pandas(name)',
    `        print(f'{file}: {len(df)} rows, {len(df.columns)} columns')`,
    '',
  ].join('\n');
}

function rLoader(source: LoaderSource, meta: LoaderMeta, self: string): string {
  const tables = source.tables;
  const readers: Array<[string, string]> =
    source.format === 'csv'
      ? [
          ['with_base', 'R (read.csv)'],
          ['with_readr', 'R (readr)'],
          ['with_data_table', 'R (data.table)'],
          ['with_arrow', 'R (arrow)'],
        ]
      : [
          ['with_arrow', 'R (arrow)'],
          ['with_data_table', 'R (data.table)'],
        ];
  const fns = readers.map(([name, reader]) => {
    const body = tables.map((t) => {
      const line = (linesOf(source, t, FILE)[reader] ?? '').replace(lit(FILE), `skein_path(${lit(t.name)})`);
      return `  if (table == ${lit(t.name)}) {\n    ${line.split('; ').join('\n    ')}\n    return(df)\n  }`;
    });
    return `${name} <- function(table = ${lit(tables[0]?.name ?? 'main')}) {\n${body.join('\n')}\n  stop("no table ", table)\n}\n`;
  });
  return [
    ...[
      ...intro(source, meta),
      `  Rscript ${self}                  # reads every table and says what it holds`,
      `  source(${lit(self)}); df <- ${readers[0]?.[0] ?? 'with_base'}()   # or ${readers
        .slice(1)
        .map(([n]) => `${n}()`)
        .join(', ')}; table = ${tables.map((t) => lit(t.name)).join(' or ')}`,
    ].map((l) => `# ${l}`.trimEnd()),
    '',
    '.skein_here <- local({',
    '  file <- sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE))',
    '  sourced <- tryCatch(sys.frame(1)$ofile, error = function(e) NULL)',
    '  if (!is.null(sourced)) dirname(normalizePath(sourced))',
    '  else if (length(file) == 1) dirname(normalizePath(file))',
    '  else getwd()',
    '})',
    `skein_tables <- c(${tables.map((t) => `${lit(t.name)} = ${lit(t.file)}`).join(', ')})`,
    'skein_path <- function(table) file.path(.skein_here, skein_tables[[table]])',
    '',
    ...fns,
    'if (sys.nframe() == 0L) {',
    '  for (name in names(skein_tables)) {',
    `    df <- ${readers[0]?.[0] ?? 'with_base'}(name)`,
    '    cat(skein_tables[[name]], ": ", nrow(df), " rows, ", ncol(df), " columns\\n", sep = "")',
    '  }',
    '}',
    '',
  ].join('\n');
}

/** Writes the two loaders beside `target`; the bytes written. */
async function writeLoaders(
  target: string,
  source: LoaderSource,
  meta: LoaderMeta,
  signal?: AbortSignal,
): Promise<number> {
  const { python, r } = loaderPaths(target);
  let bytes = 0;
  for (const [path, text] of [
    [python, pythonLoader(source, meta, baseName(python))],
    [r, rLoader(source, meta, baseName(r))],
  ] as const) {
    bytes += await writeFileAtomic(path, async (sink) => sink.write(text), signal);
  }
  return bytes;
}

/** The loaders beside an export, then its manifest: the bytes of both. */
export async function writeLoadersAndManifest(
  target: string,
  source: LoaderSource,
  manifest: ExportManifest,
  signal?: AbortSignal,
): Promise<number> {
  const meta = {
    app: `${manifest.app.name} ${manifest.app.version}`,
    exportedAt: manifest.exported_at,
    manifest: baseName(sidecarPath(target)),
  };
  return (
    (await writeLoaders(target, source, meta, signal)) +
    (await writeManifestFile(sidecarPath(target), manifest, signal))
  );
}
