/**
 * The formats the export dialog offers, and the CSV column sets (Skein's own, twarc-csv's, 4CAT's import
 * columns). Some apply to some kinds of item only: a column set to posts (twarc also to users).
 */
import type { ItemKind } from '../../../shared/api/catalog';
import type { CsvColumns } from '../../../shared/ipc/export';
import type { FormatChoice } from './form';

export interface FormatOffer {
  value: FormatChoice;
  label: string;
  hint: string;
}

export const FORMATS: readonly FormatOffer[] = [
  { value: 'json', label: 'JSON', hint: 'one file: the manifest and the raw items' },
  { value: 'jsonl', label: 'JSON Lines', hint: 'one raw item per line with where it came from, manifest beside it' },
  {
    value: 'csv-spreadsheet',
    label: 'CSV for spreadsheets',
    hint: 'Excel, LibreOffice, Sheets: long ids kept as text',
  },
  {
    value: 'csv-analysis',
    label: 'CSV for analysis',
    hint: 'pandas, R, DuckDB: plain ids, no byte-order mark, text exactly as received',
  },
  {
    value: 'parquet',
    label: 'Parquet',
    hint: 'pandas, R arrow, DuckDB, Spark: typed columns, compact; split by collection day when large',
  },
];

export const CSV_COLUMN_SETS: ReadonlyArray<{ value: CsvColumns; label: string }> = [
  { value: 'skein', label: "Skein's columns" },
  { value: 'twarc', label: 'twarc-csv columns (one line per row)' },
  { value: '4cat', label: '4CAT import columns' },
];

/** Whether a column set has its own columns for a view's kind of item (else Skein's are written). */
export function columnSetApplies(kind: ItemKind, columns: CsvColumns): boolean {
  switch (columns) {
    case 'skein':
      return true;
    case 'twarc':
      return kind === 'post' || kind === 'user' || kind === 'listFollower';
    case '4cat':
      return kind === 'post';
  }
}
