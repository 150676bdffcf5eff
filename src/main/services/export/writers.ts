/**
 * The three output formats, streamed from the journal (items are read from
 * disk as they are written, never all held) into atomic files:
 * - JSON: one document `{ "manifest": …, "items": [ … ] }`, one item per line
 * - JSONL: one item per line with its provenance beside it (`{"__skein": …, "item": …}`),
 *   manifest in a sidecar named after the data file: `<name>.jsonl.manifest.json`
 * - CSV: one file per entity kind (csv-stringify) in one of two flavours (see
 *   `CsvFlavour`), provenance columns last, manifest in the sidecar
 */
import { basename, dirname, extname, join } from 'node:path';
import { stringify } from 'csv-stringify/sync';
import type { CsvFlavour, ExportFormat, ExportOptions } from '../../../shared/ipc/export';
import { writeFileAtomic, type Sink } from './atomic-file';
import { neutraliseFormula, type CsvCells } from './csv-formula';
import { csvId, decodeCsvId, TABLES, type Row, type Table } from './csv-rows';
import { rawText, type JournalItem } from './journal';
import type { ExportManifest } from './manifest';
import type { ThreadPosition } from './thread-positions';
import type { ViewPlan } from './views';

export interface ItemStream {
  items(): AsyncIterable<JournalItem>;
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
export interface Provenance {
  retrieved_at: string | null;
  operation: string;
  /** index into the manifest's `pages` (0: the first page fetched) */
  page: number | null;
  /** the cursor the page was asked with ('' or null: the first page) */
  cursor: string | null;
}

/** Hands out each item's provenance in journal order, from the manifest's page records. */
function provenanceCounter(manifest: Pick<ExportManifest, 'pages' | 'view'>): () => Provenance {
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

function csvTablePath(target: string, table: Table): string {
  if (!table.suffix) return target;
  const ext = extname(target) || '.csv';
  return join(dirname(target), `${basename(target, extname(target))}.${table.suffix}${ext}`);
}

/** Every file an export writes, data first, manifest last. */
export function outputFiles(target: string, format: ExportFormat, plan: ViewPlan): string[] {
  if (format === 'json') return [target];
  if (format === 'jsonl') return [target, sidecarPath(target)];
  return [...TABLES[plan.itemKind].map((t) => csvTablePath(target, t)), sidecarPath(target)];
}

/** The CSV id columns per file name, for the manifest. */
export function csvIdColumns(target: string, plan: ViewPlan): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const t of TABLES[plan.itemKind]) out[basename(csvTablePath(target, t))] = [...t.idColumns];
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

async function writeManifestFile(path: string, manifest: ExportManifest, signal?: AbortSignal): Promise<number> {
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

const CSV_BATCH = 100;

/**
 * An id cell in a flavour: for spreadsheets a numeric id becomes `="…"` (Excel
 * keeps 15 digits of a number); anything else (a space id, a list) stays plain
 * text, which no spreadsheet rounds. For analysis every id is plain.
 */
export function idCell(cell: string, flavour: CsvFlavour): string {
  const id = decodeCsvId(cell);
  return flavour === 'spreadsheet' && /^\d+$/.test(id) ? csvId(id) : id;
}

const LINE_BREAK = /\r\n|\r|\n/g;
const SPREADSHEET_ID = /^="\d+"$/;

/** The row as written: ids in the flavour, line breaks escaped when asked, provenance last. */
function finishRow(row: Row, table: Table, options: Required<ExportOptions>, provenance: Provenance): Row {
  const out: Row = { ...row, ...provenance };
  for (const c of table.idColumns) {
    const v = out[c];
    if (typeof v === 'string' && v !== '') out[c] = idCell(v, options.csvFlavour);
  }
  if (options.oneLinePerRow) {
    for (const [k, v] of Object.entries(out)) if (typeof v === 'string') out[k] = v.replace(LINE_BREAK, '\\n');
  }
  return out;
}

/** The options an export is written with, defaults filled in. */
function writeOptions(options: ExportOptions | undefined): Required<ExportOptions> {
  return { csvFlavour: options?.csvFlavour ?? 'spreadsheet', oneLinePerRow: options?.oneLinePerRow ?? false };
}

/** Rows through csv-stringify in batches (its sync API: no per-row stream overhead), header (and BOM) first. */
async function writeTable(
  sink: Sink,
  table: Table,
  source: ItemStream,
  params: ViewPlan['requests'][number]['params'],
  manifest: ExportManifest,
  written: Required<ExportOptions>,
  cells: CsvCells,
): Promise<void> {
  const columns = [...table.columns, ...PROVENANCE_COLUMNS].map((key) => ({ key }));
  const neutral = cells === 'neutralised';
  const options = {
    columns,
    cast: {
      boolean: (v: boolean) => (v ? 'true' : 'false'),
      // Skein's own numeric-id text formulas (="123…", see the manifest) are the one kind of formula written
      string: (v: string) => (neutral && !SPREADSHEET_ID.test(v) ? String(neutraliseFormula(v)) : v),
    },
  };
  await sink.write(stringify([], { ...options, header: true, bom: written.csvFlavour === 'spreadsheet' }));
  const provenance = provenanceCounter(manifest);
  let batch: Row[] = [];
  let index = 0;
  for await (const item of source.items()) {
    const position = item.position === 'null' ? null : (JSON.parse(item.position) as ThreadPosition);
    const from = provenance();
    for (const row of table.rows(JSON.parse(rawText(item)), position, { params, index }))
      batch.push(finishRow(row, table, written, from));
    index++;
    if (batch.length >= CSV_BATCH) {
      await sink.write(stringify(batch, options));
      batch = [];
    }
  }
  if (batch.length > 0) await sink.write(stringify(batch, options));
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
  const params = plan.requests[0]?.params ?? {};
  const written = writeOptions(options);
  for (const table of TABLES[plan.itemKind]) {
    bytes += await writeFileAtomic(
      csvTablePath(target, table),
      (sink) => writeTable(sink, table, source, params, manifest, written, cells),
      signal,
    );
  }
  return bytes + (await writeManifestFile(sidecarPath(target), manifest, signal));
}

export async function writeExport(
  format: ExportFormat,
  target: string,
  source: ItemStream,
  manifest: ExportManifest,
  plan: ViewPlan,
  signal?: AbortSignal,
  options?: ExportOptions,
  csvCells: CsvCells = 'neutralised',
): Promise<number> {
  switch (format) {
    case 'json':
      return writeJson(target, source, manifest, signal);
    case 'jsonl':
      return writeJsonl(target, source, manifest, signal);
    case 'csv':
      return writeCsv(target, source, manifest, plan, signal, options, csvCells);
  }
}
