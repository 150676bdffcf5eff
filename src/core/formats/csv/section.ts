/**
 * The manifest's per-format sections: what a Parquet dataset, a network, an ids-only file or a CSV holds and
 * how to read it back. `buildManifest` (manifest.ts) adds the one its format needs.
 */
import type { ExportOptions, IdsOf } from '../../shared/ipc/export';
import { CSV_CELLS_NOTE, type CsvCells } from './csv/formula';
import type { ExportManifest } from '../export/manifest';
import { PARTITION_ABOVE_ITEMS } from './parquet';

export const NETWORK_SECTION: NonNullable<ExportManifest['network']> = {
  directed: true,
  nodes: 'users (id, handle, name, followers, first seen), and the space or list the view is about',
  edge_kinds: {
    reply:
      "the author answered the target user (the parent post's author: from the export, or from the project when the parent is outside it)",
    quote: "the author quoted the target's post",
    retweet: "the author retweeted the target's post",
    mention: 'the author mentioned the target in their post',
    'mention-in-retweet': 'the target is mentioned in the post the author retweeted',
    'mention-in-quote': 'the target is mentioned in the post the author quoted',
    'admin/speaker/listener': "the user's role in the space",
    'list-follower': 'the user follows the list',
    'list-member': "the user is a member of the list (an author of the list's timeline)",
  },
  weight: 'how many times the interaction happened in the export (one edge per source, target and kind)',
  time: "GEXF: a dynamic graph (timerepresentation timestamp, UTC): a spell per post creation time (or, without one, per page fetch time); Gephi CSV: the edge's first and last time",
  ids: 'plain text ids in both Gephi tables, so they join',
};

export function idsSection(of: IdsOf): NonNullable<ExportManifest['ids']> {
  return {
    of,
    format: 'plain digits, one id per line, no header, UTF-8',
    note:
      of === 'posts'
        ? "the export's post ids, each once, in the order collected"
        : "the export's user ids (a post view's authors, a space's participants), each once, in the order first met",
  };
}

export function parquetSection(items: number): NonNullable<ExportManifest['parquet']> {
  const partitioned = items > PARTITION_ABOVE_ITEMS;
  return {
    writer: 'hyparquet-writer (snappy)',
    partitioned,
    layout: partitioned
      ? 'a folder partitioned by collection day (the UTC day each page was fetched), hive style: <name>.parquet/collection_day=YYYY-MM-DD/part-00000.parquet'
      : 'one file per table',
    column_types:
      "Skein's own CSV columns with plain ids (text); counts INT64; flags BOOLEAN; created_at, started_at and retrieved_at TIMESTAMP (UTC, milliseconds); the rest UTF-8 text",
    how_to_read: partitioned
      ? {
          duckdb: "SELECT * FROM read_parquet('path/**/*.parquet', hive_partitioning = true)",
          pandas: "df = pd.read_parquet('path')",
          R: "df <- arrow::open_dataset('path') |> dplyr::collect()",
          spark: "spark.read.parquet('path')",
        }
      : {
          duckdb: "SELECT * FROM read_parquet('path')",
          pandas: "df = pd.read_parquet('path')",
          R: "df <- arrow::read_parquet('path')",
          spark: "spark.read.parquet('path')",
        },
  };
}

export function csvSection(
  idColumns: Record<string, string[]>,
  options: ExportOptions | undefined,
  cells: CsvCells,
): NonNullable<ExportManifest['csv']> {
  const flavour = options?.csvFlavour ?? 'spreadsheet';
  const columnTypes: Record<string, 'string'> = {};
  for (const cols of Object.values(idColumns)) for (const c of cols) columnTypes[c] = 'string';
  const types = Object.keys(columnTypes);
  const columns = options?.csvColumns ?? 'skein';
  const newlines =
    options?.oneLinePerRow || columns === 'twarc'
      ? 'one physical line per row: line breaks inside cells are written as the two characters \\n (backslashes already in the text are left as they are)'
      : 'cells keep their line breaks inside double quotes (RFC 4180); a reader that splits on lines breaks them: use a CSV reader';
  if (flavour === 'analysis') {
    return {
      flavour,
      columns,
      encoding: 'UTF-8, no byte order mark',
      id_columns: idColumns,
      id_encoding:
        "ids are plain text (digits, or the service's own id strings); read id columns as text, never as numbers",
      column_types: columnTypes,
      newlines,
      text_cells: CSV_CELLS_NOTE[cells],
      how_to_read: {
        pandas: `df = pd.read_csv(path, dtype={${types.map((c) => `'${c}': str`).join(', ')}}, keep_default_na=False)`,
        R: "df <- read.csv(path, colClasses='character', encoding='UTF-8')",
        duckdb: `SELECT * FROM read_csv('path', types={${types.map((c) => `'${c}': 'VARCHAR'`).join(', ')}})`,
        python_csv: "csv.DictReader(open(path, newline='', encoding='utf-8'))",
      },
    };
  }
  return {
    flavour,
    columns,
    encoding: 'UTF-8 with a byte order mark (so spreadsheets detect it)',
    id_columns: idColumns,
    id_encoding:
      'numeric ids are written as ="1234567890123456789" so spreadsheets keep them as text (Excel, LibreOffice, Google Sheets); the exact id is the text between =" and ". Other ids are plain text.',
    column_types: columnTypes,
    newlines,
    text_cells: CSV_CELLS_NOTE[cells],
    how_to_read: {
      pandas:
        "df = pd.read_csv(path, dtype=str, encoding='utf-8-sig', keep_default_na=False); df[col] = df[col].str.replace(r'^=\"|\"$', '', regex=True)",
      R: "df <- read.csv(path, colClasses='character', fileEncoding='UTF-8-BOM'); df[[col]] <- gsub('^=\"|\"$', '', df[[col]])",
      'csv-parse':
        'parse(text, { bom: true, columns: true, cast: (v, c) => idColumns.includes(c.column) ? v.replace(/^="|"$/g, \'\') : v })',
    },
  };
}
