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
  /** the kinds of item it is offered for (absent: every view) */
  kinds?: readonly ItemKind[];
}

const NETWORK_KINDS: readonly ItemKind[] = ['post', 'user', 'listFollower', 'space'];

const FORMATS: readonly FormatOffer[] = [
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
  {
    value: 'gexf',
    label: 'Network (GEXF)',
    hint: 'Gephi: who replies to, quotes, retweets and mentions whom, over time',
    kinds: NETWORK_KINDS,
  },
  {
    value: 'gephi-csv',
    label: 'Network (Gephi CSV)',
    hint: 'a node table and an edge table (Source, Target, Type, Kind, Weight) that join on plain ids',
    kinds: NETWORK_KINDS,
  },
  {
    value: 'ids-posts',
    label: 'Post ids only',
    hint: 'dehydrated: plain digits, one per line, no header (.txt), to share or hydrate later',
    kinds: ['post', 'space'],
  },
  {
    value: 'ids-users',
    label: 'User ids only',
    hint: "dehydrated: the users' (or authors') ids, one per line, no header (.txt)",
    kinds: ['post', 'user', 'listFollower', 'space'],
  },
];

/** The formats a view of this kind of item can be exported to. */
export function formatsFor(kind: ItemKind): FormatOffer[] {
  return FORMATS.filter((f) => !f.kinds || f.kinds.includes(kind));
}

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
