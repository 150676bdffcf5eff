/**
 * Parquet (issue 24 #6): the rows of Skein's own CSV columns (plain ids, the analysis flavour; provenance
 * last), typed (counts INT64, flags BOOLEAN, `created_at`/`retrieved_at`/`first_retrieved_at` TIMESTAMP in UTC, the rest UTF-8
 * text), written with hyparquet-writer (pure JS: nothing native to rebuild per Electron version) in row
 * groups streamed from the journal, so memory stays flat. pandas, R arrow, DuckDB and Spark read it.
 *
 * A large export (more than `partitionAbove` items) becomes a hive-style dataset folder partitioned by
 * collection day (the UTC day its page was fetched): `x.parquet/collection_day=2026-11-22/part-00000.parquet`,
 * the layout Spark writes and DuckDB, Spark and BigQuery read (`read_parquet('x.parquet/**\/*.parquet',
 * hive_partitioning=true)`). The folder is built beside the target and renamed in one step.
 */
import { mkdir, rename, rm } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';
import { ByteWriter, ParquetWriter } from 'hyparquet-writer';
import type { ColumnSource } from 'hyparquet-writer/src/types.js';
import { SkeinError } from '../../shared/errors';
import { tempPathFor, toWriteError, writeFileAtomic, type Sink } from '../files/atomic-file';
import { rowCells, tableHeader } from './csv/write';
import { TABLES } from './csv/rows';
import type { Cell, Row, Table } from './csv/table';
import {
  provenanceCounter,
  provenanceOf,
  rawText,
  sidecarPath,
  writeOptions,
  type Format,
  type ItemStream,
  type Provenance,
  type ThreadPosition,
  type WritePlan,
} from './format';
import { columnType, type ColumnType } from './column-types';
import { howToRead, loaderPaths, writeLoadersAndManifest, type LoaderSource } from './loaders';
import type { ExportManifest } from './manifest';

/**
 * Free text, where a row group's min/max (cut to 16 bytes) lets no reader skip anything: written without
 * statistics, which cost the writer a comparison per value. Ids, counts, times and flags keep theirs.
 */
const NO_STATISTICS = new Set([
  'text',
  'full_text',
  'url',
  'createdAt',
  'description',
  'hashtags',
  'mentions',
  'urls',
  'media_urls',
  'profilePicture',
  'coverPicture',
  'banner_url',
  'rules',
  'meta_description',
  'cursor',
]);

/** A cell as its column's type takes it; anything else (a hostile 1.5 followers, a non-date) is null. */
function typed(type: ColumnType, v: Cell): string | bigint | boolean | number | null {
  if (v === null) return null;
  switch (type) {
    case 'STRING':
      return typeof v === 'string' ? v : String(v);
    case 'INT64':
      if (typeof v === 'number') return Number.isSafeInteger(v) ? BigInt(v) : null;
      return typeof v === 'string' && /^-?\d{1,18}$/.test(v) ? BigInt(v) : null;
    case 'BOOLEAN':
      return typeof v === 'boolean' ? v : null;
    case 'TIMESTAMP': {
      const t = typeof v === 'string' ? Date.parse(v) : NaN;
      return Number.isFinite(t) ? t : null;
    }
  }
}

/** Rows per row group: small groups keep main's peak RSS down (200k posts: 270 MB at 2,500 rows, 388 MB at 10,000). */
const ROW_GROUP_ROWS = 2_500;
/** Above this many items a Parquet export is a folder partitioned by collection day. */
const PARTITION_ABOVE_ITEMS = 1_000_000;

/** hyparquet-writer's buffer, handed to the atomic file's sink at each row group (and at the end). */
class SinkWriter extends ByteWriter {
  constructor(private readonly sink: Sink) {
    super(1 << 20);
  }
  flush(): Promise<void> {
    const bytes = Buffer.from(this.getBytes());
    this.index = 0;
    return Promise.resolve(this.sink.write(bytes));
  }
  // ParquetWriter.finish() returns this promise and PartFile.finish awaits it: the last bytes are written before the file is closed
  // eslint-disable-next-line @typescript-eslint/no-misused-promises
  override finish(): Promise<void> {
    return this.flush();
  }
}

/** One Parquet file being written: rows buffered per column, a row group at a time. */
class PartFile {
  private readonly columns: Array<Array<string | bigint | boolean | number | null>>;
  private rows = 0;
  private readonly writer: ParquetWriter;
  private readonly out: SinkWriter;

  constructor(
    sink: Sink,
    private readonly names: string[],
    private readonly types: ColumnType[],
    kv: Array<{ key: string; value: string }>,
    createdBy: string,
  ) {
    this.columns = names.map(() => []);
    this.out = new SinkWriter(sink);
    this.writer = new ParquetWriter({
      writer: this.out,
      schema: [
        { name: 'root', num_children: names.length },
        ...names.map((name, i) => schemaElement(name, types[i] as ColumnType)),
      ],
      kvMetadata: kv,
      createdBy,
    });
  }

  async add(cells: Cell[]): Promise<void> {
    for (let i = 0; i < this.columns.length; i++)
      (this.columns[i] as unknown[]).push(typed(this.types[i] as ColumnType, cells[i] ?? null));
    if (++this.rows >= ROW_GROUP_ROWS) await this.group();
  }

  private async group(): Promise<void> {
    if (this.rows === 0) return;
    const columnData = this.names.map((name, i): ColumnSource => ({
      name,
      data: this.columns[i] as ColumnSource['data'],
      ...(NO_STATISTICS.has(name) ? { statistics: false } : {}),
    }));
    await this.writer.write({ columnData, rowGroupSize: this.rows });
    for (const c of this.columns) c.length = 0;
    this.rows = 0;
  }

  async finish(): Promise<void> {
    await this.group();
    await this.writer.finish();
  }
}

function schemaElement(name: string, type: ColumnType) {
  const optional = { name, repetition_type: 'OPTIONAL' as const };
  switch (type) {
    case 'STRING':
      return { ...optional, type: 'BYTE_ARRAY' as const, converted_type: 'UTF8' as const };
    case 'INT64':
      return { ...optional, type: 'INT64' as const };
    case 'BOOLEAN':
      return { ...optional, type: 'BOOLEAN' as const };
    case 'TIMESTAMP':
      return {
        ...optional,
        type: 'INT64' as const,
        logical_type: { type: 'TIMESTAMP' as const, isAdjustedToUTC: true, unit: 'MILLIS' as const },
      };
  }
}

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
  const kv = [
    { key: 'skein.view', value: JSON.stringify(manifest.view) },
    { key: 'skein.exported_at', value: manifest.exported_at },
    { key: 'skein.manifest', value: basename(sidecarPath(target)) },
  ];
  const createdBy = `${manifest.app.name} ${manifest.app.version} (hyparquet-writer)`;
  const cellsOf = rowCells(table, writeOptions({ csvFlavour: 'analysis' }));
  // an id the item does not have is an empty CSV cell, and a null here
  const ids = names.map((n) => table.idColumns.includes(n));
  const toCells = (row: Row, from: Provenance): Cell[] =>
    cellsOf(row, from).map((v, i) => (ids[i] && v === '' ? null : v));
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
): Promise<number> {
  const partitioned = parquetPartitioned(manifest, options);
  let bytes = 0;
  for (const table of TABLES[plan.itemKind]) {
    bytes += await writeTable(tablePath(target, table), table, source, plan, manifest, partitioned, signal);
  }
  return bytes;
}

/** What the loaders beside a Parquet export read: each table's file (or dataset folder). */
function parquetLoaderSource(target: string, plan: WritePlan, partitioned: boolean): LoaderSource {
  return {
    format: 'parquet',
    partitioned,
    tables: TABLES[plan.itemKind].map((t) => ({
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
      "Skein's own CSV columns with plain ids (text); counts INT64; flags BOOLEAN; created_at, started_at, retrieved_at and first_retrieved_at TIMESTAMP (UTC, milliseconds); the rest UTF-8 text",
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
    const bytes = await writeParquet(job.target, job.items, job.manifest, job.plan, job.signal);
    const source = parquetLoaderSource(job.target, job.plan, parquetPartitioned(job.manifest));
    return bytes + (await writeLoadersAndManifest(job.target, source, job.manifest, job.signal));
  },
};
