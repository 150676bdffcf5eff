/**
 * The CSV's manifest section: its flavour and column set, which columns hold ids and how they are written,
 * line breaks, formula-like cells, and how pandas, R, DuckDB (or csv-parse) read it back exactly.
 */
import type { ExportOptions } from '../../../shared/ipc/export';
import type { ExportManifest } from '../manifest';
import { CSV_CELLS_NOTE, type CsvCells } from './formula';

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
