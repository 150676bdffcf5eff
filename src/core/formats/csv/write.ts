/**
 * The three output formats, streamed from the journal (items are read from
 * disk as they are written, never all held) into atomic files:
 * - JSON: one document `{ "manifest": …, "items": [ … ] }`, one item per line
 * - JSONL: one item per line with its provenance beside it (`{"__skein": …, "item": …}`),
 *   manifest in a sidecar named after the data file: `<name>.jsonl.manifest.json`
 * - CSV: one file per entity kind (`csv-line.ts`) in one of two flavours (see
 *   `CsvFlavour`), provenance columns last, manifest in the sidecar
 */
import { basename, dirname, extname, join } from 'node:path';
import type { CsvFlavour, ExportFormat, ExportOptions } from '../../shared/ipc/export';
import { writeFileAtomic, type Sink } from '../files/atomic-file';
import type { CsvCells } from './csv/formula';
import { csvCell, csvLine, UTF8_BOM } from './csv/line';
import { csvTables, NO_CONTEXT } from './csv/presets';
import { missingCaseError } from '../../shared/missing-case';
import { gephiPaths, writeGephiCsv, writeGexf, type PostLookup } from './network/export-network';
import { writeIds } from './ids';
import { parquetDataPaths, writeParquet } from './parquet';
import {
  csvId,
  decodeCsvId,
  TABLES,
  type Cell,
  type Row,
  type Provenance,
  type Table,
  type TableTrailer,
} from './csv/rows';
import { rawText, type JournalItem } from '../export/journal';
import type { ExportManifest } from '../export/manifest';
import type { ThreadPosition } from '../export/thread-positions';
import type { ViewPlan } from '../export/views';

export interface ItemStream {
  items: () => AsyncIterable<JournalItem>;
}

/**
 * `/a/x.jsonl` → `/a/x.jsonl.manifest.json`: named after its data file, so a
 * CSV and a JSONL export of one name never share (and overwrite) a manifest.
 */
export function sidecarPath(target: string): string {
  return `${target}.manifest.json`;
}

/** What each row carries about where it came from (CSV columns; JSONL's `__skein` object). */
const PROVENANCE_COLUMNS = ['retrieved_at', 'operation', 'page', 'cursor'] as const;
export type { Provenance };

/** Hands out each item's provenance in journal order, from the manifest's page records. */
export function provenanceCounter(manifest: Pick<ExportManifest, 'pages' | 'view'>): () => Provenance {
  let page = 0;
  let left = manifest.pages[0]?.items_kept ?? 0;
  return () => {
    while (left <= 0 && page < manifest.pages.length - 1) left = manifest.pages[++page]?.items_kept ?? 0;
    left--;
    const p = manifest.pages[page];
    return {
      retrieved_at: p?.fetched_at ?? null,
      operation: manifest.view.operation,
      page: p ? page : null,
      cursor: p?.cursor ?? null,
    };
  };
}

export function csvTablePath(target: string, table: Table): string {
  if (!table.suffix) return target;
  const ext = extname(target) || '.csv';
  return join(dirname(target), `${basename(target, extname(target))}.${table.suffix}${ext}`);
}

/** Every file an export writes, data first, manifest last. */
export function outputFiles(target: string, format: ExportFormat, plan: ViewPlan): string[] {
  if (format === 'json') return [target];
  if (format === 'jsonl') return [target, sidecarPath(target)];
  if (format === 'parquet') return [...parquetDataPaths(target, plan), sidecarPath(target)];
  if (format === 'gexf' || format === 'ids') return [target, sidecarPath(target)];
  if (format === 'gephi-csv') {
    const { nodes, edges } = gephiPaths(target);
    return [nodes, edges, sidecarPath(nodes)];
  }
  return [...TABLES[plan.itemKind].map((t) => csvTablePath(target, t)), sidecarPath(target)];
}

/** The CSV id columns per file name, for the manifest. */
export function csvIdColumns(target: string, plan: ViewPlan, options?: ExportOptions): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  const tables = csvTables(plan.itemKind, writeOptions(options).csvColumns, NO_CONTEXT);
  for (const t of tables) out[basename(csvTablePath(target, t))] = [...t.idColumns];
  return out;
}

/**
 * Writes an item for JSON/JSONL: raw bytes as they are, or `{root_id, parent_id, depth, item}` in a thread;
 * with `provenance` (JSONL) always wrapped: `{"__skein": …, [position keys,] "item": raw}`.
 */
async function writeEntry(
  sink: Sink,
  item: JournalItem,
  before: Buffer,
  after: Buffer,
  provenance?: Provenance,
): Promise<void> {
  await sink.write(before);
  if (provenance) {
    const position = item.position === 'null' ? '' : `${item.position.slice(1, -1)},`;
    await sink.write(`{"__skein":${JSON.stringify(provenance)},${position}"item":`);
    await sink.write(item.raw);
    await sink.write('}');
  } else if (item.position === 'null') {
    await sink.write(item.raw);
  } else {
    await sink.write(`${item.position.slice(0, -1)},"item":`);
    await sink.write(item.raw);
    await sink.write('}');
  }
  await sink.write(after);
}

const EMPTY = Buffer.alloc(0);
const NEWLINE = Buffer.from('\n');
const FIRST = Buffer.from('\n    ');
const NEXT = Buffer.from(',\n    ');

function indented(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(/\n/g, '\n  ');
}

async function writeJson(
  target: string,
  source: ItemStream,
  manifest: ExportManifest,
  signal?: AbortSignal,
): Promise<number> {
  return writeFileAtomic(
    target,
    async (sink) => {
      await sink.write(`{\n  "manifest": ${indented(manifest)},\n  "items": [`);
      let first = true;
      for await (const item of source.items()) {
        await writeEntry(sink, item, first ? FIRST : NEXT, EMPTY);
        first = false;
      }
      await sink.write(first ? ']\n}\n' : '\n  ]\n}\n');
    },
    signal,
  );
}

export async function writeManifestFile(path: string, manifest: ExportManifest, signal?: AbortSignal): Promise<number> {
  return writeFileAtomic(path, async (sink) => sink.write(`${JSON.stringify(manifest, null, 2)}\n`), signal);
}

async function writeJsonl(
  target: string,
  source: ItemStream,
  manifest: ExportManifest,
  signal?: AbortSignal,
): Promise<number> {
  const bytes = await writeFileAtomic(
    target,
    async (sink) => {
      const provenance = provenanceCounter(manifest);
      for await (const item of source.items()) await writeEntry(sink, item, EMPTY, NEWLINE, provenance());
    },
    signal,
  );
  return bytes + (await writeManifestFile(sidecarPath(target), manifest, signal));
}

/**
 * Text handed to the file at a time (csv lines are joined into chunks of about this many characters). Lines
 * held for a larger chunk outlive the young generation and grow the heap: 100k posts peaked at 228-240 MB
 * RSS with 256K characters, 161-190 MB with 64K, at the same speed.
 */
const CSV_CHUNK_CHARS = 64 * 1024;

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

/** The options an export is written with, defaults filled in. */
export function writeOptions(options: ExportOptions | undefined): Required<ExportOptions> {
  return {
    csvFlavour: options?.csvFlavour ?? 'spreadsheet',
    oneLinePerRow: options?.oneLinePerRow ?? false,
    csvColumns: options?.csvColumns ?? 'skein',
    idsOf: options?.idsOf ?? 'posts',
  };
}

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
  return (row, from) => {
    let line = '';
    for (let i = 0; i < columns.length; i++) {
      let v = row[columns[i] as string] ?? null;
      if (isId[i] && typeof v === 'string' && v !== '') v = idCell(v, written.csvFlavour);
      line += i === 0 ? cell(v) : `,${cell(v)}`;
    }
    for (const v of trailer.cells(from)) line += `,${cell(v)}`;
    return `${line}\n`;
  };
}

/** Skein's provenance columns, last in every table of its own columns. */
const provenanceTrailer: TableTrailer = {
  columns: PROVENANCE_COLUMNS,
  cells: (p) => [p.retrieved_at, p.operation, p.page, p.cursor],
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
  params: ViewPlan['params'],
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
  params: ViewPlan['params'],
  manifest: ExportManifest,
  written: Required<ExportOptions>,
  cells: CsvCells,
): Promise<void> {
  const text = csvTableText(table, written, cells, params);
  let chunk = text.header;
  const provenance = provenanceCounter(manifest);
  let index = 0;
  for await (const item of source.items()) {
    const position = item.position === 'null' ? null : (JSON.parse(item.position) as ThreadPosition);
    chunk += text.lines(JSON.parse(rawText(item)), position, index++, provenance());
    if (chunk.length >= CSV_CHUNK_CHARS) {
      await sink.write(chunk);
      chunk = '';
    }
  }
  if (chunk.length > 0) await sink.write(chunk);
}

async function writeCsv(
  target: string,
  source: ItemStream,
  manifest: ExportManifest,
  plan: ViewPlan,
  signal?: AbortSignal,
  options?: ExportOptions,
  cells: CsvCells = 'neutralised',
): Promise<number> {
  let bytes = 0;
  const params = plan.params;
  const written = csvWriteOptions(options);
  for (const table of csvTables(plan.itemKind, written.csvColumns, manifest)) {
    bytes += await writeFileAtomic(
      csvTablePath(target, table),
      (sink) => writeTable(sink, table, source, params, manifest, written, cells),
      signal,
    );
  }
  return bytes + (await writeManifestFile(sidecarPath(target), manifest, signal));
}

/** How a file is written beyond its items: cancel, the dialog's options, CSV cells, a network's parent posts. */
export interface WriteHow {
  signal?: AbortSignal;
  options?: ExportOptions;
  csvCells?: CsvCells;
  /** a network's replies to posts outside the export: their authors, from the project */
  posts?: PostLookup;
}

export async function writeExport(
  format: ExportFormat,
  target: string,
  source: ItemStream,
  manifest: ExportManifest,
  plan: ViewPlan,
  how: WriteHow = {},
): Promise<number> {
  const { signal, options, csvCells = 'neutralised', posts } = how;
  switch (format) {
    case 'json':
      return writeJson(target, source, manifest, signal);
    case 'jsonl':
      return writeJsonl(target, source, manifest, signal);
    case 'csv':
      return writeCsv(target, source, manifest, plan, signal, options, csvCells);
    case 'parquet':
      return (
        (await writeParquet(target, source, manifest, plan, signal)) +
        (await writeManifestFile(sidecarPath(target), manifest, signal))
      );
    case 'gexf':
      return (
        (await writeGexf(target, source, manifest, plan, signal, posts)) +
        (await writeManifestFile(sidecarPath(target), manifest, signal))
      );
    case 'gephi-csv':
      return (
        (await writeGephiCsv(target, source, manifest, plan, signal, posts)) +
        (await writeManifestFile(sidecarPath(target), manifest, signal))
      );
    case 'ids':
      return (
        (await writeIds(target, source, plan, writeOptions(options).idsOf, signal)).bytes +
        (await writeManifestFile(sidecarPath(target), manifest, signal))
      );
    default:
      return missingCaseError(format);
  }
}
