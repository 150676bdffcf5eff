/**
 * The three output formats, streamed from the journal (items are read from
 * disk as they are written, never all held) into atomic files:
 * - JSON: one document `{ "manifest": …, "items": [ … ] }`, one item per line
 * - JSONL: one item per line, manifest in a sidecar `<name>.manifest.json`
 * - CSV: one file per entity kind (csv-stringify), manifest in the sidecar
 */
import { basename, dirname, extname, join } from 'node:path';
import { stringify } from 'csv-stringify/sync';
import type { ExportFormat } from '../../../shared/ipc/export';
import { writeFileAtomic, type Sink } from './atomic-file';
import { neutraliseFormula, type CsvCells } from './csv-formula';
import { TABLES, type Row, type Table } from './csv-rows';
import { rawText, type JournalItem } from './journal';
import type { ExportManifest } from './manifest';
import type { ThreadPosition } from './thread-positions';
import type { ViewPlan } from './views';

export interface ItemStream {
  items(): AsyncIterable<JournalItem>;
}

/** `/a/x.jsonl` → `/a/x.manifest.json` */
export function sidecarPath(target: string): string {
  const ext = extname(target);
  return join(dirname(target), `${basename(target, ext)}.manifest.json`);
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

/** Writes an item for JSON/JSONL: raw bytes as they are, or `{root_id, parent_id, depth, item}` in a thread. */
async function writeEntry(sink: Sink, item: JournalItem, before: Buffer, after: Buffer): Promise<void> {
  await sink.write(before);
  if (item.position === 'null') {
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

export async function writeJson(target: string, source: ItemStream, manifest: ExportManifest, signal?: AbortSignal): Promise<number> {
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

export async function writeJsonl(target: string, source: ItemStream, manifest: ExportManifest, signal?: AbortSignal): Promise<number> {
  const bytes = await writeFileAtomic(
    target,
    async (sink) => {
      for await (const item of source.items()) await writeEntry(sink, item, EMPTY, NEWLINE);
    },
    signal,
  );
  return bytes + (await writeManifestFile(sidecarPath(target), manifest, signal));
}

const CSV_BATCH = 100;

/** Rows through csv-stringify in batches (its sync API: no per-row stream overhead), header and BOM first. */
async function writeTable(sink: Sink, table: Table, source: ItemStream, params: ViewPlan['requests'][number]['params'], cells: CsvCells): Promise<void> {
  // id columns are Skein's own ="…" text formulas (see the manifest), never data: they are left as they are
  const ids = new Set<string>(table.idColumns);
  const neutral = cells === 'neutralised';
  const options = {
    columns: table.columns.map((key) => ({ key })),
    cast: {
      boolean: (v: boolean) => (v ? 'true' : 'false'),
      string: (v: string, ctx: { column?: string | number | undefined }) => (neutral && !(typeof ctx.column === 'string' && ids.has(ctx.column)) ? String(neutraliseFormula(v)) : v),
    },
  };
  await sink.write(stringify([], { ...options, header: true, bom: true }));
  let batch: Row[] = [];
  let index = 0;
  for await (const item of source.items()) {
    const position = item.position === 'null' ? null : (JSON.parse(item.position) as ThreadPosition);
    for (const row of table.rows(JSON.parse(rawText(item)), position, { params, index })) batch.push(row);
    index++;
    if (batch.length >= CSV_BATCH) {
      await sink.write(stringify(batch, options));
      batch = [];
    }
  }
  if (batch.length > 0) await sink.write(stringify(batch, options));
}

export async function writeCsv(
  target: string,
  source: ItemStream,
  manifest: ExportManifest,
  plan: ViewPlan,
  signal?: AbortSignal,
  cells: CsvCells = 'neutralised',
): Promise<number> {
  let bytes = 0;
  const params = plan.requests[0]?.params ?? {};
  for (const table of TABLES[plan.itemKind]) {
    bytes += await writeFileAtomic(csvTablePath(target, table), (sink) => writeTable(sink, table, source, params, cells), signal);
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
  csvCells: CsvCells = 'neutralised',
): Promise<number> {
  switch (format) {
    case 'json':
      return writeJson(target, source, manifest, signal);
    case 'jsonl':
      return writeJsonl(target, source, manifest, signal);
    case 'csv':
      return writeCsv(target, source, manifest, plan, signal, csvCells);
  }
}
