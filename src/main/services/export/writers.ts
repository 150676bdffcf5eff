/**
 * The three output formats, streamed from the journal (items are read from
 * disk as they are written, never all held) into atomic files:
 * - JSON: one document `{ "manifest": …, "items": [ … ] }`, one item per line
 * - JSONL: one item per line, manifest in a sidecar `<name>.manifest.json`
 * - CSV: one file per entity kind (csv-stringify), manifest in the sidecar
 */
import { once } from 'node:events';
import { basename, dirname, extname, join } from 'node:path';
import { stringify } from 'csv-stringify';
import type { ExportFormat } from '../../../shared/ipc/export';
import { writeFileAtomic, type Sink } from './atomic-file';
import { TABLES, type Table } from './csv-rows';
import type { JournalItem } from './journal';
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

/** An item as written to JSON/JSONL: raw, or `{root_id, parent_id, depth, item}` in a thread. */
function entryText(item: JournalItem): string {
  if (item.position === 'null') return item.raw;
  return `${item.position.slice(0, -1)},"item":${item.raw}}`;
}

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
        await sink.write(first ? `\n    ${entryText(item)}` : `,\n    ${entryText(item)}`);
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
      for await (const item of source.items()) await sink.write(`${entryText(item)}\n`);
    },
    signal,
  );
  return bytes + (await writeManifestFile(sidecarPath(target), manifest, signal));
}

/** Streams rows through csv-stringify into the sink, honouring backpressure both ways. */
async function writeTable(sink: Sink, table: Table, source: ItemStream, params: ViewPlan['requests'][number]['params']): Promise<void> {
  const stringifier = stringify({
    bom: true,
    header: true,
    columns: table.columns.map((key) => ({ key })),
    cast: { boolean: (v) => (v ? 'true' : 'false') },
  });
  const drained = (async () => {
    for await (const chunk of stringifier) await sink.write(String(chunk));
  })();
  drained.catch(() => undefined);
  try {
    let index = 0;
    for await (const item of source.items()) {
      const position = item.position === 'null' ? null : (JSON.parse(item.position) as ThreadPosition);
      for (const row of table.rows(JSON.parse(item.raw), position, { params, index })) {
        if (!stringifier.write(row)) await Promise.race([once(stringifier, 'drain'), drained]);
      }
      index++;
    }
    stringifier.end();
  } catch (error) {
    stringifier.destroy();
    throw error;
  }
  await drained;
}

export async function writeCsv(
  target: string,
  source: ItemStream,
  manifest: ExportManifest,
  plan: ViewPlan,
  signal?: AbortSignal,
): Promise<number> {
  let bytes = 0;
  const params = plan.requests[0]?.params ?? {};
  for (const table of TABLES[plan.itemKind]) {
    bytes += await writeFileAtomic(csvTablePath(target, table), (sink) => writeTable(sink, table, source, params), signal);
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
): Promise<number> {
  switch (format) {
    case 'json':
      return writeJson(target, source, manifest, signal);
    case 'jsonl':
      return writeJsonl(target, source, manifest, signal);
    case 'csv':
      return writeCsv(target, source, manifest, plan, signal);
  }
}
