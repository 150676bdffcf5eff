/**
 * The CSV's manifest section: its flavour and column set, which columns hold ids and how they are written,
 * line breaks, formula-like cells, and how pandas, polars, DuckDB, R (read.csv, readr, data.table, arrow) and
 * csv-parse read it back exactly (loaders.ts).
 */
import type { ExportOptions } from '../../../shared/ipc/export';
import type { ExportManifest } from '../manifest';
import { CSV_CELLS_NOTE, type CsvCells } from './formula';

export function csvSection(
  idColumns: Record<string, string[]>,
  options: ExportOptions | undefined,
  cells: CsvCells,
  /** the exact reading lines of the first table, by reader, and the loaders beside it (loaders.ts) */
  readers: Record<string, string>,
): NonNullable<ExportManifest['csv']> {
  const flavour = options?.csvFlavour ?? 'spreadsheet';
  const columnTypes: Record<string, 'string'> = {};
  for (const cols of Object.values(idColumns)) for (const c of cols) columnTypes[c] = 'string';
  const columns = options?.csvColumns ?? 'skein';
  const newlines =
    options?.oneLinePerRow || columns === 'twarc'
      ? 'one physical line per row: line breaks inside cells are written as the two characters \\n (backslashes already in the text are left as they are)'
      : 'cells keep their line breaks inside double quotes (RFC 4180); a reader that splits on lines breaks them: use a CSV reader';
  const analysis = flavour === 'analysis';
  return {
    flavour,
    columns,
    encoding: analysis ? 'UTF-8, no byte order mark' : 'UTF-8 with a byte order mark (so spreadsheets detect it)',
    id_columns: idColumns,
    id_encoding: analysis
      ? "ids are plain text (digits, or the service's own id strings); read id columns as text, never as numbers"
      : 'numeric ids are written as ="1234567890123456789" so spreadsheets keep them as text (Excel, LibreOffice, Google Sheets); the exact id is the text between =" and ". Other ids are plain text.',
    column_types: columnTypes,
    newlines,
    text_cells: CSV_CELLS_NOTE[cells],
    how_to_read: analysis
      ? { ...readers, python_csv: "csv.DictReader(open(path, newline='', encoding='utf-8'))" }
      : {
          ...readers,
          'csv-parse':
            'parse(text, { bom: true, columns: true, cast: (v, c) => idColumns.includes(c.column) ? v.replace(/^="|"$/g, \'\') : v })',
        },
  };
}
