/**
 * Parquet (issue 24 #6): the rows of Skein's own CSV columns (plain ids, the analysis flavour; provenance
 * last), typed (counts INT64, flags BOOLEAN, `created_at`/`retrieved_at` TIMESTAMP in UTC, the rest UTF-8
 * text), written with hyparquet-writer (pure JS: nothing native to rebuild per Electron version) in row
 * groups streamed from the journal, so memory stays flat. pandas, R arrow, DuckDB and Spark read it.
 *
 * A dataset (the "Parquet dataset" offer, or any export of more than `partitionAbove` items) is a hive-style
 * folder partitioned by the UTC date each item was collected (its page's fetch time; in a re-export from the
 * archive, when the project last received it): `x.parquet/collected_date=2026-11-22/part-00000.parquet`, the
 * layout Spark writes and DuckDB, Spark, pandas (pyarrow) and BigQuery read as one table. The folder is built
 * beside the target and renamed in one step.
 */
import { mkdir, rename, rm } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';
import { ByteWriter, ParquetWriter } from 'hyparquet-writer';
import type { ColumnSource } from 'hyparquet-writer/src/types.js';
import { SkeinError } from '../../shared/errors';
import { tempPathFor, toWriteError, writeFileAtomic, type Sink } from '../files/atomic-file';
import { rowCells, tableHeader } from './csv/write';
import { TABLES } from './csv/rows';
import { withColumns } from './columns';
import type { Cell, Row, Table } from './csv/table';
import {
  provenanceCounter,
  rawText,
  sidecarPath,
  withSidecar,
  writeOptions,
  type ExtraColumns,
  type Format,
  type ItemStream,
  type Provenance,
  type ThreadPosition,
  type WritePlan,
} from './format';
import type { ExportManifest } from './manifest';

type ColumnType = 'STRING' | 'INT64' | 'BOOLEAN' | 'TIMESTAMP';

const INT64 = new Set([
  'author_followers',
  'author_following',
  'retweetCount',
  'replyCount',
  'likeCount',
  'quoteCount',
  'bookmarkCount',
  'viewCount',
  'depth',
  'followers',
  'following',
  'statusesCount',
  'position',
  'tweet_volume',
  'created_at_ms',
  'member_count',
  'moderator_count',
  'start_ms',
  'participants_total',
  'total_live_listeners',
  'total_participated',
  'total_replay_watched',
  'page',
  'poll_choice1_count',
  'poll_choice2_count',
  'poll_choice3_count',
  'poll_choice4_count',
  'poll_duration_minutes',
]);
const BOOLEAN = new Set([
  'author_isBlueVerified',
  'isReply',
  'isBlueVerified',
  'canDm',
  'is_pinned',
  'is_space_available_for_replay',
  'is_blue_verified',
  'is_muted_by_admin',
  'is_muted_by_guest',
  'is_automated',
  'author_is_automated',
  'poll_counts_are_final',
]);
const TIMESTAMP = new Set(['created_at', 'started_at', 'retrieved_at', 'poll_ends_at']);
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
  'card_url',
  'card_title',
  'poll_choice1_label',
  'poll_choice2_label',
  'poll_choice3_label',
  'poll_choice4_label',
]);

function columnType(column: string): ColumnType {
  if (INT64.has(column)) return 'INT64';
  if (BOOLEAN.has(column)) return 'BOOLEAN';
  if (TIMESTAMP.has(column)) return 'TIMESTAMP';
  return 'STRING';
}

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

/** The UTC date a row was collected (`retrieved_at`); Hive's own name for a missing value otherwise. */
const collectedDate = (retrievedAt: string | null): string => retrievedAt?.slice(0, 10) ?? '__HIVE_DEFAULT_PARTITION__';
const PARTITION = 'collected_date';

export interface ParquetWriteOptions {
  /** above this many items: a folder partitioned by collection day (default `PARTITION_ABOVE_ITEMS`) */
  partitionAbove?: number;
}

/** Every data path a Parquet export writes (a file, or a dataset folder), before the manifest. */
function parquetDataPaths(target: string, plan: WritePlan): string[] {
  return TABLES[plan.itemKind].map((t) => tablePath(target, t));
}

function parquetPartitioned(items: number, layout: 'file' | 'dataset', options?: ParquetWriteOptions): boolean {
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
      const paged = provenance();
      // an item that says when it was received (a re-export) says so in its own row
      const from =
        item.collectedAt === undefined ? paged : { ...paged, retrieved_at: new Date(item.collectedAt).toISOString() };
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
      const day = collectedDate(cells[dayColumn] as string | null);
      let entry = open.get(day);
      if (!entry) {
        const folder = join(stage, `${PARTITION}=${day}`);
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
  layout: 'file' | 'dataset' = 'file',
  extra?: ExtraColumns,
): Promise<number> {
  const partitioned = parquetPartitioned(manifest.counts.items, layout, options);
  let bytes = 0;
  for (const own of TABLES[plan.itemKind]) {
    const table = withColumns(own, extra);
    bytes += await writeTable(tablePath(target, table), table, source, plan, manifest, partitioned, signal);
  }
  return bytes;
}

function parquetSection(items: number, layout: 'file' | 'dataset'): NonNullable<ExportManifest['parquet']> {
  const partitioned = parquetPartitioned(items, layout);
  return {
    writer: 'hyparquet-writer (snappy)',
    partitioned,
    layout: partitioned
      ? `a folder partitioned by the UTC date each item was collected (its page's fetch time; from the archive, when the project last received it), hive style: <name>.parquet/${PARTITION}=YYYY-MM-DD/part-00000.parquet`
      : 'one file per table',
    column_types:
      "Skein's own CSV columns with plain ids (text); counts INT64 (poll votes too); flags BOOLEAN (is_automated, poll_counts_are_final too); created_at, started_at, poll_ends_at and retrieved_at TIMESTAMP (UTC, milliseconds); the rest UTF-8 text",
    how_to_read: partitioned
      ? {
          duckdb: "SELECT * FROM read_parquet('path/**/*.parquet', hive_partitioning = true)",
          pandas: "df = pd.read_parquet('path')",
          R: "df <- arrow::open_dataset('path') |> dplyr::collect()",
          spark: "df = spark.read.parquet('path')",
        }
      : {
          duckdb: "SELECT * FROM read_parquet('path')",
          pandas: "df = pd.read_parquet('path')",
          R: "df <- arrow::read_parquet('path')",
          spark: "spark.read.parquet('path')",
        },
  };
}

export const parquet: Format = {
  id: 'parquet',
  label: 'Parquet',
  hint: 'pandas, R arrow, DuckDB, Spark: typed columns, compact; split by collection date when large',
  extension: 'parquet',
  offers: [
    { id: 'parquet', archive: { kinds: ['post', 'user'] } },
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
  files: (chosen, plan) => [...parquetDataPaths(chosen, plan), sidecarPath(chosen)],
  rowProvenance: 'the last four columns of every Parquet table',
  section: ({ items, options }) => ({ parquet: parquetSection(items, writeOptions(options).parquetLayout) }),
  write: (job) =>
    withSidecar(job, () =>
      writeParquet(
        job.target,
        job.items,
        job.manifest,
        job.plan,
        job.signal,
        undefined,
        writeOptions(job.options).parquetLayout,
        job.extra,
      ),
    ),
  columns: 'rows',
};
