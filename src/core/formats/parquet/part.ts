/**
 * One Parquet file as hyparquet-writer writes it for Skein: a table's rows typed by column (column-types.ts),
 * buffered per column and written a row group at a time into an atomic file's sink, so memory stays flat;
 * and each row's cells as the file takes them. Shared by the journal's writer (parquet.ts) and the one that
 * writes while the export collects (live.ts).
 */
import { basename } from 'node:path';
import { ByteWriter, ParquetWriter } from 'hyparquet-writer';
import type { ColumnSource } from 'hyparquet-writer/src/types.js';
import type { Sink } from '../../files/atomic-file';
import { columnType, type ColumnType } from '../column-types';
import { rowCells } from '../csv/write';
import type { Cell, Row, Table } from '../csv/table';
import { sidecarPath, writeOptions, type Provenance } from '../format';
import type { ExportManifest } from '../manifest';

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

/**
 * Whether hyparquet-writer's sample rules a column of text out of a dictionary (`useDictionary` in its
 * dictionary.js): up to 1,000 values spread over the column, each distinct one counted once at its length plus a
 * 4-byte prefix, against all of them; more than 90 % distinct is written plain. The same rule on the same values.
 */
export function plainBySample(values: ReadonlyArray<string | null>): boolean {
  const sampleSize = Math.min(values.length, 1000);
  const seen = new Set<string | null>();
  let distinct = 0;
  let total = 0;
  for (let i = 0; i < sampleSize; i++) {
    const value = values[sampleSize === 1 ? 0 : Math.floor((i * (values.length - 1)) / (sampleSize - 1))] ?? null;
    const size = value === null ? 0 : value.length + 4;
    if (!seen.has(value)) {
      seen.add(value);
      distinct += size;
    }
    total += size;
  }
  return !total || distinct / total > 0.9;
}

/** Rows per row group: small groups keep main's peak RSS down (200k posts: 270 MB at 2,500 rows, 388 MB at 10,000). */
const ROW_GROUP_ROWS = 2_500;
/**
 * …and characters of text: a row group is held whole until it is encoded, so long posts (25,000 characters, not
 * Latin: 2,500 of them 125 MB as V8's strings) ended the file's worker at its heap limit and left the export to
 * the journal's slower path. Posts of a usual length (~700 characters of text a row) fill a group by rows first.
 */
const ROW_GROUP_CHARS = 4_000_000;
/** Above this many items a Parquet export is a folder partitioned by collection day. */
export const PARTITION_ABOVE_ITEMS = 1_000_000;

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

/** What every part file of a table is written with: its columns, its footer's metadata, and who wrote it. */
export interface PartSpec {
  names: readonly string[];
  kv: Array<{ key: string; value: string }>;
  createdBy: string;
}

/** One Parquet file being written: rows buffered per column, a row group at a time. */
export class PartFile {
  private readonly names: readonly string[];
  private readonly types: ColumnType[];
  private readonly columns: Array<Array<string | bigint | boolean | number | null>>;
  private rows = 0;
  /** characters of text in the row group being filled */
  private chars = 0;
  private readonly writer: ParquetWriter;

  constructor(sink: Sink, { names, kv, createdBy }: PartSpec) {
    this.names = names;
    this.types = names.map(columnType);
    this.columns = names.map(() => []);
    this.writer = new ParquetWriter({
      writer: new SinkWriter(sink),
      schema: [
        { name: 'root', num_children: names.length },
        ...names.map((name, i) => schemaElement(name, this.types[i] as ColumnType)),
      ],
      kvMetadata: kv,
      createdBy,
    });
  }

  /** a row's cells; a promise only when they complete a row group, which is then written (most rows: none to wait for) */
  add(cells: Cell[]): Promise<void> | undefined {
    for (let i = 0; i < this.columns.length; i++) {
      const cell = cells[i] ?? null;
      if (typeof cell === 'string') this.chars += cell.length;
      (this.columns[i] as unknown[]).push(typed(this.types[i] as ColumnType, cell));
    }
    return ++this.rows >= ROW_GROUP_ROWS || this.chars >= ROW_GROUP_CHARS ? this.group() : undefined;
  }

  private async group(): Promise<void> {
    if (this.rows === 0) return;
    const columnData = this.names.map((name, i): ColumnSource => {
      const data = this.columns[i] as ColumnSource['data'];
      if (!NO_STATISTICS.has(name)) return { name, data };
      const encoded = this.types[i] === 'STRING' ? this.encodedHere(data as ReadonlyArray<string | null>) : null;
      return encoded
        ? { name, data: encoded, encoding: 'PLAIN', statistics: false }
        : { name, data, statistics: false };
    });
    await this.writer.write({ columnData, rowGroupSize: this.rows });
    for (const c of this.columns) c.length = 0;
    this.rows = 0;
    this.chars = 0;
    this.compact();
  }

  /**
   * hyparquet-writer keeps every column chunk's metadata for the footer and its page indexes until the end: at a
   * million posts, 400 row groups of some 70 chunks held 50-60 MB. What the file is written from stays as it was:
   * arrays equal in every row group (a column's path, its encodings and their counts) are kept once, and a chunk's
   * page indexes are let go when the writer would write none (one page, no bloom filter: `writeIndexes`, `writeBlooms`).
   */
  private compact(): void {
    const group = this.writer.row_groups.at(-1);
    for (const chunk of group?.columns ?? []) {
      const meta = chunk.meta_data;
      if (!meta) continue;
      meta.path_in_schema = this.once(meta.path_in_schema);
      meta.encodings = this.once(meta.encodings);
      if (meta.encoding_stats) meta.encoding_stats = this.once(meta.encoding_stats);
    }
    const onePage = (pages: { length: number } | undefined) => pages === undefined || pages.length <= 1;
    this.writer.pendingIndexes = this.writer.pendingIndexes.filter(
      (p) =>
        p.bloomFilter !== undefined || !onePage(p.columnIndex?.min_values) || !onePage(p.offsetIndex?.page_locations),
    );
  }

  /**
   * Free text that hyparquet-writer would write plain, encoded here: its UTF-8 in one buffer for the row group, each
   * value a view of it, where the writer encodes each string into an array of its own (an ArrayBuffer each, most of
   * its garbage). Only a column the writer's own sample already keeps out of a dictionary (`plainBySample`), so the
   * bytes are those it would write; null for the others.
   */
  private encodedHere(values: ReadonlyArray<string | null>): Array<Uint8Array | null> | null {
    if (!plainBySample(values)) return null;
    let most = 0;
    for (const v of values) if (v !== null) most += v.length * 3;
    const bytes = Buffer.allocUnsafeSlow(most);
    const views: Array<Uint8Array | null> = new Array<Uint8Array | null>(values.length);
    let at = 0;
    for (let i = 0; i < values.length; i++) {
      const v = values[i] ?? null;
      if (v === null) {
        views[i] = null;
        continue;
      }
      const n = bytes.write(v, at, 'utf8');
      views[i] = bytes.subarray(at, at + n);
      at += n;
    }
    return views;
  }

  private readonly shared = new Map<string, unknown>();

  /** the one copy of a metadata value equal to `value` (compared as JSON) */
  private once<V>(value: V): V {
    const key = JSON.stringify(value);
    const known = this.shared.get(key) as V | undefined;
    if (known !== undefined) return known;
    this.shared.set(key, value);
    return value;
  }

  /** the file's key-value metadata, as it is written in the footer at `finish` */
  setMetadata(kv: Array<{ key: string; value: string }>): void {
    this.writer.kvMetadata = kv;
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

/** What a Parquet file says of its export in its footer: the view, when, and its manifest's name. */
export function parquetMetadata(manifest: Pick<ExportManifest, 'view' | 'exported_at'>, target: string) {
  return [
    { key: 'skein.view', value: JSON.stringify(manifest.view) },
    { key: 'skein.exported_at', value: manifest.exported_at },
    { key: 'skein.manifest', value: basename(sidecarPath(target)) },
  ];
}

export const createdByOf = (manifest: Pick<ExportManifest, 'app'>): string =>
  `${manifest.app.name} ${manifest.app.version} (hyparquet-writer)`;

/** A row's cells as the file takes them: the analysis CSV's (plain ids), an id the item does not have null. */
export function parquetCells(table: Table, names: readonly string[]): (row: Row, from: Provenance) => Cell[] {
  const cellsOf = rowCells(table, writeOptions({ csvFlavour: 'analysis' }));
  const ids = names.map((n) => table.idColumns.includes(n));
  return (row, from) => {
    // the cells are this row's own array: changed in place, not copied
    const cells = cellsOf(row, from);
    for (let i = 0; i < cells.length; i++) if (ids[i] && cells[i] === '') cells[i] = null;
    return cells;
  };
}
