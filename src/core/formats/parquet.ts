/**
 * Parquet: the rows of Skein's own CSV columns (plain ids, the analysis flavour; provenance
 * last), typed (counts INT64, flags BOOLEAN, `created_at`/`retrieved_at`/`first_retrieved_at` TIMESTAMP in UTC, the rest UTF-8
 * text), written with hyparquet-writer (pure JS: nothing native to rebuild per Electron version) in row
 * groups (parquet/part.ts), so memory stays flat: while the export collects, from the pages as they are kept
 * (parquet/live.ts), else streamed from the journal. pandas, R arrow, DuckDB and Spark read it.
 *
 * A dataset (the "Parquet dataset" offer, or any export of more than `partitionAbove` items) is a hive-style
 * folder partitioned by the UTC date each item was collected (its row's `retrieved_at`: its page's fetch time;
 * in a re-export from the archive, when the project last received it):
 * `x.parquet/collected_date=2026-11-22/part-00000.parquet`, the layout Spark writes and DuckDB, Spark, pandas
 * (pyarrow) and BigQuery read as one table. The folder is built beside the target and renamed in one step.
 */
import { mkdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { holdFileAtomic, tempPathFor, toWriteError, writeFileAtomic, type HeldFile } from '../files/atomic-file';
import { loaderTables, suffixedPath, tableHeader } from './csv/write';
import { TABLES } from './csv/rows';
import { withColumns } from './columns';
import type { Cell, Table } from './csv/table';
import {
  provenanceCounter,
  rawText,
  sidecarPath,
  type ExtraColumns,
  type Format,
  type ItemStream,
  type ThreadPosition,
  type WritePlan,
  writeOptions,
} from './format';
import { liveParquetRows, openLiveParquet } from './parquet/live';
import {
  createdByOf,
  parquetCells,
  parquetMetadata,
  PARTITION_ABOVE_ITEMS,
  PartFile,
  type PartSpec,
} from './parquet/part';
import { howToRead, loaderPaths, writeLoadersAndManifest, type LoaderSource } from './loaders';
import type { ExportManifest } from './manifest';

const tablePath = (target: string, table: Table): string => suffixedPath(target, table, '.parquet');

/** The UTC date a row was collected (`retrieved_at`); Hive's own name for a missing value otherwise. */
const collectedDate = (retrievedAt: string | null): string => retrievedAt?.slice(0, 10) ?? '__HIVE_DEFAULT_PARTITION__';
const PARTITION = 'collected_date';

/** One file per table, or always a dataset folder (the Archive view's "Parquet dataset"). */
type ParquetLayout = 'file' | 'dataset';

export interface ParquetWriteOptions {
  /** above this many items: a folder partitioned by collection day (default `PARTITION_ABOVE_ITEMS`) */
  partitionAbove?: number;
}

/** Every data path a Parquet export writes (a file, or a dataset folder), before the manifest. */
function parquetDataPaths(target: string, plan: WritePlan): string[] {
  return TABLES[plan.itemKind].map((t) => tablePath(target, t));
}

function parquetPartitioned(items: number, layout: ParquetLayout, options?: ParquetWriteOptions): boolean {
  return layout === 'dataset' || items > (options?.partitionAbove ?? PARTITION_ABOVE_ITEMS);
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
  const spec: PartSpec = { names, kv: parquetMetadata(manifest, target), createdBy: createdByOf(manifest) };
  const toCells = parquetCells(table, names);
  const params = plan.params;
  const rows = async function* (): AsyncGenerator<Cell[]> {
    const provenance = provenanceCounter(manifest);
    let index = 0;
    for await (const item of source.items()) {
      const position = item.position === 'null' ? null : (JSON.parse(item.position) as ThreadPosition);
      const from = item.provenance ?? provenance();
      for (const row of table.rows(JSON.parse(rawText(item)), position, { params, index })) yield toCells(row, from);
      index++;
    }
  };
  if (!partitioned) {
    return writeFileAtomic(
      target,
      async (sink) => {
        const part = new PartFile(sink, spec);
        for await (const cells of rows()) await part.add(cells);
        await part.finish();
      },
      signal,
    );
  }
  return writeDataset(target, spec, rows(), signal);
}

/**
 * A hive-style folder, one part file per collection day, built in a hidden folder beside the target and
 * renamed over it in one step (an earlier export at the same path is replaced only once the new one is whole).
 * A day's part file is held open until the end: rows for a day arrive interleaved.
 */
async function writeDataset(
  target: string,
  spec: PartSpec,
  rows: AsyncIterable<Cell[]>,
  signal?: AbortSignal,
): Promise<number> {
  const stage = tempPathFor(target);
  const dayColumn = spec.names.indexOf('retrieved_at');
  const open = new Map<string, { part: PartFile; held: HeldFile }>();
  let bytes = 0;
  try {
    await mkdir(stage, { recursive: true });
    for await (const cells of rows) {
      if (signal?.aborted) throw signal.reason;
      const day = collectedDate(cells[dayColumn] as string | null);
      let entry = open.get(day);
      if (!entry) {
        const folder = join(stage, `${PARTITION}=${day}`);
        await mkdir(folder, { recursive: true });
        const held = await holdFileAtomic(join(folder, 'part-00000.parquet'), signal);
        entry = { part: new PartFile(held.sink, spec), held };
        open.set(day, entry);
      }
      await entry.part.add(cells);
    }
    for (const { part, held } of open.values()) {
      await part.finish();
      held.close(true);
      bytes += await held.done;
    }
    await rm(target, { recursive: true, force: true }).catch(() => undefined);
    await rename(stage, target);
    return bytes;
  } catch (error) {
    for (const { held } of open.values()) held.close(false);
    await Promise.allSettled([...open.values()].map(({ held }) => held.done));
    await rm(stage, { recursive: true, force: true }).catch(() => undefined);
    throw toWriteError(error, target);
  }
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
  layout: ParquetLayout = 'file',
): Promise<number> {
  const partitioned = parquetPartitioned(manifest.counts.items, layout, options);
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
    tables: loaderTables(
      TABLES[plan.itemKind].map((own) => withColumns(own, extra)),
      (t) => tablePath(target, t),
    ),
  };
}

function parquetSection(
  target: string,
  plan: WritePlan,
  items: number,
  layout: ParquetLayout,
): NonNullable<ExportManifest['parquet']> {
  const partitioned = parquetPartitioned(items, layout);
  return {
    writer: 'hyparquet-writer (snappy)',
    partitioned,
    layout: partitioned
      ? `a folder partitioned by the UTC date each item was collected (its page's fetch time; from the archive, when the project last received it), hive style: <name>.parquet/${PARTITION}=YYYY-MM-DD/part-00000.parquet`
      : 'one file per table',
    column_types:
      "Skein's own CSV columns with plain ids (text); counts INT64 (poll votes too); flags BOOLEAN (is_automated, poll_counts_are_final too); created_at, started_at, poll_ends_at, retrieved_at and first_retrieved_at TIMESTAMP (UTC, milliseconds); the rest UTF-8 text",
    how_to_read: {
      ...howToRead(parquetLoaderSource(target, plan, partitioned), target),
      spark: "df = spark.read.parquet('path')",
    },
  };
}

export const parquet: Format = {
  id: 'parquet',
  label: 'Parquet',
  hint: 'pandas, R arrow, DuckDB, Spark: typed columns, compact; split by collection date when large',
  extension: 'parquet',
  offers: [
    { id: 'parquet', archive: { kinds: ['post', 'user'] }, hydration: true },
    {
      id: 'parquet-dataset',
      label: 'Parquet dataset',
      hint: 'a folder split by the date each item was collected (Hive style): DuckDB, Spark and pandas read it as one table',
      options: { parquetLayout: 'dataset' },
      // the Archive view's (a project's collections over days); a view's export past a million items is one anyway
      kinds: [],
      archive: { kinds: ['post', 'user'] },
    },
  ],
  files: (chosen, plan) => {
    const { python, r } = loaderPaths(chosen);
    return [...parquetDataPaths(chosen, plan), python, r, sidecarPath(chosen)];
  },
  rowProvenance: 'the last five columns of every Parquet table',
  section: ({ target, plan, items, options }) => ({
    parquet: parquetSection(target, plan, items, writeOptions(options).parquetLayout),
  }),
  write: async (job) => {
    const layout = writeOptions(job.options).parquetLayout;
    const bytes = await writeParquet(
      job.target,
      job.items,
      job.manifest,
      job.plan,
      job.signal,
      undefined,
      job.extra,
      layout,
    );
    const partitioned = parquetPartitioned(job.manifest.counts.items, layout);
    const source = parquetLoaderSource(job.target, job.plan, partitioned, job.extra);
    return bytes + (await writeLoadersAndManifest(job.target, source, job.manifest, job.signal));
  },
  // written while the export collects, from the pages as they are kept (parquet/live.ts)
  live: (input) => openLiveParquet(input, (partitioned) => parquetLoaderSource(input.target, input.plan, partitioned)),
  liveRows: liveParquetRows,
  columns: 'rows',
};
