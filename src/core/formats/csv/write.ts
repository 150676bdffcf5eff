/**
 * CSV as files: one file per entity kind (`csv/line.ts` serialises the rows) in one of two flavours (see
 * `CsvFlavour`), Skein's provenance columns last (or a column set's own trailer), streamed from the items
 * into atomic files, the manifest in the sidecar. Parquet writes the same rows (`rowCells`, `tableHeader`).
 */
import { basename, dirname, extname, join } from 'node:path';
import type { CsvFlavour, ExportOptions } from '../../../shared/ipc/export';
import { writeFileAtomic, writeJoined, type Sink } from '../../files/atomic-file';
import {
  provenanceCounter,
  rawText,
  sidecarPath,
  writeOptions,
  type ItemStream,
  type Provenance,
  type ThreadPosition,
  type WriteJob,
  type WritePlan,
} from '../format';
import { loaderPaths, writeLoadersAndManifest, type LoaderSource, type LoaderTable } from '../loaders';
import type { ExportManifest } from '../manifest';
import type { CsvCells } from './formula';
import { csvCell, csvLine, UTF8_BOM } from './line';
import { csvTables, NO_CONTEXT } from './presets';
import { csvId, decodeCsvId, TABLES } from './rows';
import { withColumns } from '../columns';
import type { Cell, Row, Table, TableTrailer } from './table';

/** What each row carries about where it came from (CSV columns; JSONL's `__skein` object). */
const PROVENANCE_COLUMNS = ['retrieved_at', 'operation', 'page', 'cursor', 'first_retrieved_at'] as const;

/** A table's file: the target, or beside it with the table's suffix (`x.participants.csv`). */
export function suffixedPath(target: string, table: Table, defaultExt: string): string {
  if (!table.suffix) return target;
  const ext = extname(target) || defaultExt;
  return join(dirname(target), `${basename(target, extname(target))}.${table.suffix}${ext}`);
}

export const csvTablePath = (target: string, table: Table): string => suffixedPath(target, table, '.csv');

/** Every file a CSV export writes: a table per file (a space has two), the loaders, the manifest last. */
export function csvFiles(target: string, plan: WritePlan): string[] {
  const { python, r } = loaderPaths(target);
  return [...TABLES[plan.itemKind].map((t) => csvTablePath(target, t)), python, r, sidecarPath(target)];
}

/** What the loaders beside a CSV export read: each table's file, columns and id columns, and the flavour. */
export function csvLoaderSource(target: string, plan: WritePlan, options?: ExportOptions): LoaderSource {
  const written = csvWriteOptions(options);
  return {
    format: 'csv',
    flavour: written.csvFlavour,
    oneLinePerRow: written.oneLinePerRow,
    tables: loaderTables(csvTables(plan.itemKind, written.csvColumns, NO_CONTEXT), (t) => csvTablePath(target, t)),
  };
}

/** The tables as the loaders read them, each from its file (`path`) beside the loaders. */
export function loaderTables(tables: readonly Table[], path: (table: Table) => string): LoaderTable[] {
  return tables.map((t) => ({
    name: t.suffix || 'main',
    file: basename(path(t)),
    columns: tableHeader(t),
    idColumns: t.idColumns,
  }));
}

/**
 * An id cell in a flavour: for spreadsheets a numeric id becomes `="…"` (Excel
 * keeps 15 digits of a number); anything else (a space id, a list) stays plain
 * text, which no spreadsheet rounds. For analysis every id is plain.
 */
export function idCell(cell: string, flavour: CsvFlavour): string {
  // the common case, a numeric id the row wrapped (`="123"`): kept for spreadsheets, unwrapped for analysis
  if (cell.startsWith('="') && cell.endsWith('"') && NUMERIC_ID.test(cell.slice(2, -1)))
    return flavour === 'spreadsheet' ? cell : cell.slice(2, -1);
  const id = decodeCsvId(cell);
  return flavour === 'spreadsheet' && /^\d+$/.test(id) ? csvId(id) : id;
}

const NUMERIC_ID = /^\d+$/;
const LINE_BREAK = /\r\n|\r|\n/g;
const HAS_LINE_BREAK = /[\r\n]/;

/**
 * A table's rows as cells in column order: ids in the flavour, line breaks escaped when asked, the
 * provenance (or the table's own trailer) last.
 */
export function rowCells(table: Table, written: Required<ExportOptions>): (row: Row, from: Provenance) => Cell[] {
  const ids = new Set(table.idColumns);
  const isId = table.columns.map((c) => ids.has(c));
  const trailer = table.trailer ?? provenanceTrailer;
  const oneLine = written.oneLinePerRow;
  return (row, from) => {
    const cells: Cell[] = [];
    for (let i = 0; i < table.columns.length; i++) {
      let v = row[table.columns[i] as string] ?? null;
      if (isId[i] && typeof v === 'string' && v !== '') v = idCell(v, written.csvFlavour);
      cells.push(v);
    }
    cells.push(...trailer.cells(from));
    if (oneLine) {
      for (let i = 0; i < cells.length; i++) {
        const v = cells[i];
        if (typeof v === 'string' && HAS_LINE_BREAK.test(v)) cells[i] = v.replace(LINE_BREAK, '\\n');
      }
    }
    return cells;
  };
}

/** `rowCells` and `csvLine` in one step: a row as its CSV line, without the array in between. */
function rowLine(
  table: Table,
  written: Required<ExportOptions>,
  neutral: boolean,
): (row: Row, from: Provenance) => string {
  const ids = new Set(table.idColumns);
  const columns = table.columns;
  const isId = columns.map((c) => ids.has(c));
  const trailer = table.trailer ?? provenanceTrailer;
  const oneLine = written.oneLinePerRow;
  const cell = (value: Cell | undefined): string => {
    if (oneLine && typeof value === 'string' && HAS_LINE_BREAK.test(value))
      return csvCell(value.replace(LINE_BREAK, '\\n'), neutral);
    return csvCell(value, neutral);
  };
  // a page's rows share one provenance: its cells are made once, not for every row
  let lastFrom: Provenance | null = null;
  let trailerText = '';
  return (row, from) => {
    let line = '';
    for (let i = 0; i < columns.length; i++) {
      let v = row[columns[i] as string] ?? null;
      if (isId[i] && typeof v === 'string' && v !== '') v = idCell(v, written.csvFlavour);
      line += i === 0 ? cell(v) : `,${cell(v)}`;
    }
    if (from !== lastFrom) {
      trailerText = '';
      for (const v of trailer.cells(from)) trailerText += `,${cell(v)}`;
      lastFrom = from;
    }
    return `${line}${trailerText}\n`;
  };
}

/** Skein's provenance columns, last in every table of its own columns. */
const provenanceTrailer: TableTrailer = {
  columns: PROVENANCE_COLUMNS,
  cells: (p) => [p.retrieved_at, p.operation, p.page, p.cursor, p.first_retrieved_at],
};

/** Every column a table's file has, in order. */
export function tableHeader(table: Table): string[] {
  return [...table.columns, ...(table.trailer ?? provenanceTrailer).columns];
}

/** A CSV table's text: its header (the BOM first for spreadsheets), and the lines of an item. */
export function csvTableText(
  table: Table,
  written: Required<ExportOptions>,
  cells: CsvCells,
  params: WritePlan['params'],
) {
  const neutral = cells === 'neutralised';
  const toLine = rowLine(table, written, neutral);
  return {
    header: (written.csvFlavour === 'spreadsheet' ? UTF8_BOM : '') + csvLine(tableHeader(table), neutral),
    lines(raw: unknown, position: ThreadPosition | null, index: number, from: Provenance): string {
      let text = '';
      for (const row of table.rows(raw, position, { params, index })) text += toLine(row, from);
      return text;
    },
  };
}

/** The options a CSV is written with: twarc-csv always writes line breaks as `\n`, so its preset does too. */
export function csvWriteOptions(options: ExportOptions | undefined): Required<ExportOptions> {
  const chosen = writeOptions(options);
  return chosen.csvColumns === 'twarc' ? { ...chosen, oneLinePerRow: true } : chosen;
}

/** Rows as CSV text (`csv-line.ts`), header (and BOM) first, handed to the file in large chunks. */
async function writeTable(
  sink: Sink,
  table: Table,
  source: ItemStream,
  params: WritePlan['params'],
  manifest: ExportManifest,
  written: Required<ExportOptions>,
  cells: CsvCells,
): Promise<void> {
  const text = csvTableText(table, written, cells, params);
  const provenance = provenanceCounter(manifest);
  let index = 0;
  await writeJoined(
    sink,
    source.items(),
    (item) => {
      const position = item.position === 'null' ? null : (JSON.parse(item.position) as ThreadPosition);
      return text.lines(JSON.parse(rawText(item)), position, index++, item.provenance ?? provenance());
    },
    text.header,
  );
}

/** Writes every table of the export's items, then the sidecar manifest; the bytes of all. */
export async function writeCsv({
  target,
  items,
  manifest,
  plan,
  signal,
  options,
  csvCells,
  extra,
}: WriteJob): Promise<number> {
  let bytes = 0;
  const params = plan.params;
  const written = csvWriteOptions(options);
  for (const own of csvTables(plan.itemKind, written.csvColumns, manifest)) {
    const table = withColumns(own, extra);
    bytes += await writeFileAtomic(
      csvTablePath(target, table),
      (sink) => writeTable(sink, table, items, params, manifest, written, csvCells),
      signal,
    );
  }
  return bytes + (await writeLoadersAndManifest(target, csvLoaderSource(target, plan, options), manifest, signal));
}
