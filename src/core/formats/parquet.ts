/**
 * Parquet (issue 24 #6): the rows of Skein's own CSV columns (plain ids, the analysis flavour; provenance
 * last), typed (counts INT64, flags BOOLEAN, `created_at`/`retrieved_at`/`first_retrieved_at` TIMESTAMP in UTC, the rest UTF-8
 * text), written with hyparquet-writer (pure JS: nothing native to rebuild per Electron version) in row
 * groups (parquet/part.ts), so memory stays flat: while the export collects, from the pages as they are kept
 * (parquet/live.ts), else streamed from the journal. pandas, R arrow, DuckDB and Spark read it.
 *
 * A large export (more than `partitionAbove` items) becomes a hive-style dataset folder partitioned by
 * collection day (the UTC day its page was fetched): `x.parquet/collection_day=2026-11-22/part-00000.parquet`,
 * the layout Spark writes and DuckDB, Spark and BigQuery read (`read_parquet('x.parquet/**\/*.parquet',
 * hive_partitioning=true)`). The folder is built beside the target and renamed in one step.
 */
import { mkdir, rename, rm } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';
import { SkeinError } from '../../shared/errors';
import { tempPathFor, toWriteError, writeFileAtomic } from '../files/atomic-file';
import { tableHeader } from './csv/write';
import { TABLES } from './csv/rows';
import { withColumns } from './columns';
import type { Cell, Table } from './csv/table';
import {
  provenanceCounter,
  provenanceOf,
  rawText,
  sidecarPath,
  type ExtraColumns,
  type Format,
  type ItemStream,
  type ThreadPosition,
  type WritePlan,
} from './format';
import { openLiveParquet } from './parquet/live';
import { createdByOf, parquetCells, parquetMetadata, PARTITION_ABOVE_ITEMS, PartFile } from './parquet/part';
import { columnType, type ColumnType } from './column-types';
import { howToRead, loaderPaths, writeLoadersAndManifest, type LoaderSource } from './loaders';
import type { ExportManifest } from './manifest';

function tablePath(target: string, table: Table): string {
  if (!table.suffix) return target;
  const ext = extname(target) || '.parquet';
  return join(dirname(target), `${basename(target, extname(target))}.${table.suffix}${ext}`);
}

/** The UTC day a row was collected: its page's fetch time. */
const collectionDay = (retrievedAt: string | null): string => retrievedAt?.slice(0, 10) ?? 'unknown';

export interface ParquetWriteOptions {
  /** above this many items: a folder partitioned by collection day (default `PARTITION_ABOVE_ITEMS`) */
  partitionAbove?: number;
}

/** Every data path a Parquet export writes (a file, or a dataset folder), before the manifest. */
function parquetDataPaths(target: string, plan: WritePlan): string[] {
  return TABLES[plan.itemKind].map((t) => tablePath(target, t));
}

function parquetPartitioned(manifest: ExportManifest, options?: ParquetWriteOptions): boolean {
  return manifest.counts.items > (options?.partitionAbove ?? PARTITION_ABOVE_ITEMS);
}

async function writeTable(
  target: string,
  table: Table,
  source: ItemStream,
  plan: WritePlan,
  manifest: ExportManifest,
  partitioned: boolean,
  signal?: AbortSignal,
): Promise<number> {
  const names = tableHeader(table);
  const types = names.map(columnType);
  const kv = parquetMetadata(manifest, target);
  const createdBy = createdByOf(manifest);
  const toCells = parquetCells(table, names);
  const params = plan.params;
  const rows = async function* (): AsyncGenerator<Cell[]> {
    const provenance = provenanceCounter(manifest);
    let index = 0;
    for await (const item of source.items()) {
      const position = item.position === 'null' ? null : (JSON.parse(item.position) as ThreadPosition);
      const from = provenanceOf(item, provenance);
      for (const row of table.rows(JSON.parse(rawText(item)), position, { params, index })) yield toCells(row, from);
      index++;
    }
  };
  if (!partitioned) {
    return writeFileAtomic(
      target,
      async (sink) => {
        const part = new PartFile(sink, names, types, kv, createdBy);
        for await (const cells of rows()) await part.add(cells);
        await part.finish();
      },
      signal,
    );
  }
  return writeDataset(target, names, types, kv, createdBy, rows(), signal);
}

/**
 * A hive-style folder, one part file per collection day, built in a hidden folder beside the target and
 * renamed over it in one step (an earlier export at the same path is replaced only once the new one is whole).
 */
async function writeDataset(
  target: string,
  names: string[],
  types: ColumnType[],
  kv: Array<{ key: string; value: string }>,
  createdBy: string,
  rows: AsyncIterable<Cell[]>,
  signal?: AbortSignal,
): Promise<number> {
  const stage = tempPathFor(target);
  const dayColumn = names.indexOf('retrieved_at');
  const open = new Map<string, { part: PartFile; done: Promise<number>; close: () => void }>();
  let bytes = 0;
  try {
    await mkdir(stage, { recursive: true });
    for await (const cells of rows) {
      if (signal?.aborted) throw signal.reason;
      const day = collectionDay(cells[dayColumn] as string | null);
      let entry = open.get(day);
      if (!entry) {
        const folder = join(stage, `collection_day=${day}`);
        await mkdir(folder, { recursive: true });
        entry = await openPart(join(folder, 'part-00000.parquet'), names, types, kv, createdBy, signal);
        open.set(day, entry);
      }
      await entry.part.add(cells);
    }
    for (const entry of open.values()) {
      await entry.part.finish();
      entry.close();
      bytes += await entry.done;
    }
    await rm(target, { recursive: true, force: true }).catch(() => undefined);
    await rename(stage, target);
    return bytes;
  } catch (error) {
    for (const entry of open.values()) entry.close();
    await rm(stage, { recursive: true, force: true }).catch(() => undefined);
    throw toWriteError(error, target);
  }
}

/** An atomic part file whose producer stays open until `close` (rows for a day arrive interleaved). */
async function openPart(
  path: string,
  names: string[],
  types: ColumnType[],
  kv: Array<{ key: string; value: string }>,
  createdBy: string,
  signal?: AbortSignal,
): Promise<{ part: PartFile; done: Promise<number>; close: () => void }> {
  let close = () => {};
  const closed = new Promise<void>((resolve) => (close = resolve));
  let ready: (part: PartFile) => void = () => {};
  const partReady = new Promise<PartFile>((resolve) => (ready = resolve));
  const done = writeFileAtomic(
    path,
    async (sink) => {
      ready(new PartFile(sink, names, types, kv, createdBy));
      await closed;
    },
    signal,
  );
  const part = await Promise.race([partReady, done.then(() => null)]);
  if (!part) throw new SkeinError('write-failed', `${basename(path)} could not be opened.`);
  return { part, done, close };
}

/** Writes the export's Parquet file(s) (not the sidecar manifest); returns the bytes written. */
export async function writeParquet(
  target: string,
  source: ItemStream,
  manifest: ExportManifest,
  plan: WritePlan,
  signal?: AbortSignal,
  options?: ParquetWriteOptions,
  extra?: ExtraColumns,
): Promise<number> {
  const partitioned = parquetPartitioned(manifest, options);
  let bytes = 0;
  for (const own of TABLES[plan.itemKind]) {
    const table = withColumns(own, extra);
    bytes += await writeTable(tablePath(target, table), table, source, plan, manifest, partitioned, signal);
  }
  return bytes;
}

/** What the loaders beside a Parquet export read: each table's file (or dataset folder). */
function parquetLoaderSource(
  target: string,
  plan: WritePlan,
  partitioned: boolean,
  extra?: ExtraColumns,
): LoaderSource {
  return {
    format: 'parquet',
    partitioned,
    tables: TABLES[plan.itemKind]
      .map((own) => withColumns(own, extra))
      .map((t) => ({
        name: t.suffix || 'main',
        file: basename(tablePath(target, t)),
        columns: tableHeader(t),
        idColumns: t.idColumns,
      })),
  };
}

function parquetSection(target: string, plan: WritePlan, items: number): NonNullable<ExportManifest['parquet']> {
  const partitioned = items > PARTITION_ABOVE_ITEMS;
  return {
    writer: 'hyparquet-writer (snappy)',
    partitioned,
    layout: partitioned
      ? 'a folder partitioned by collection day (the UTC day each page was fetched), hive style: <name>.parquet/collection_day=YYYY-MM-DD/part-00000.parquet'
      : 'one file per table',
    column_types:
      "Skein's own CSV columns with plain ids (text); counts INT64 (poll votes too); flags BOOLEAN (is_automated, poll_counts_are_final too); created_at, started_at, poll_ends_at, retrieved_at and first_retrieved_at TIMESTAMP (UTC, milliseconds); the rest UTF-8 text",
    how_to_read: {
      ...howToRead(parquetLoaderSource(target, plan, partitioned), target),
      spark: "spark.read.parquet('path')",
    },
  };
}

export const parquet: Format = {
  id: 'parquet',
  label: 'Parquet',
  hint: 'pandas, R arrow, DuckDB, Spark: typed columns, compact; split by collection day when large',
  extension: 'parquet',
  offers: [{ id: 'parquet', archive: { kinds: ['post', 'user'] } }],
  files: (chosen, plan) => {
    const { python, r } = loaderPaths(chosen);
    return [...parquetDataPaths(chosen, plan), python, r, sidecarPath(chosen)];
  },
  rowProvenance: 'the last five columns of every Parquet table',
  section: ({ target, plan, items }) => ({ parquet: parquetSection(target, plan, items) }),
  write: async (job) => {
    const bytes = await writeParquet(job.target, job.items, job.manifest, job.plan, job.signal, undefined, job.extra);
    const source = parquetLoaderSource(job.target, job.plan, parquetPartitioned(job.manifest), job.extra);
    return bytes + (await writeLoadersAndManifest(job.target, source, job.manifest, job.signal));
  },
  // written while the export collects, from the pages as they are kept (parquet/live.ts)
  live: (input) => openLiveParquet(input, (partitioned) => parquetLoaderSource(input.target, input.plan, partitioned)),
  columns: 'rows',
};
