/**
 * What a format is — one module per format (json.ts, csv.ts, …) declares one, and registry.ts lists them — and
 * the helpers every format writes with: the item stream, each row's provenance, the sidecar manifest. The floor
 * of formats/: it imports no format, so no format module ever imports back into the one that lists it.
 */
import type { ItemKind, OperationId } from '../../shared/api/catalog';
import type { CsvCells, ExportOptions, FormatOffer, ViewKind } from '../../shared/ipc/export';
import { writeFileAtomic } from '../files/atomic-file';
import type { ExportManifest } from './manifest';
import { jsonText } from './json-list';

/** What a format reads of an export's plan (the export area's `ViewPlan` has all of it). */
export interface WritePlan {
  kind: ViewKind;
  operation: OperationId;
  itemKind: ItemKind;
  /** the params every request shares (a space's id is only in them) */
  params: Record<string, string | number | boolean>;
  /** a thread view's root: its items carry `root_id`, `parent_id`, `depth` */
  rootId: string | null;
}

/**
 * One item as a writer reads it: its id, its place in a thread (JSON, or `null`), its raw JSON as received, and
 * (a re-export's items, read from the project) where it came from; without it, the manifest's pages say
 * (`provenanceCounter`).
 */
export interface StreamItem {
  id: string | null;
  /** JSON of the item's `ThreadPosition`, or `null` */
  position: string;
  /** the raw item as JSON (bytes when read back from disk: never decoded unless needed) */
  raw: string | Buffer;
  provenance?: Provenance;
}

/** The items of an export, in order; read once per table (an export's journal, or the archive in chunks). */
export interface ItemStream {
  items: () => AsyncIterable<StreamItem>;
}

export function rawText(item: StreamItem): string {
  return typeof item.raw === 'string' ? item.raw : item.raw.toString('utf8');
}

/**
 * Where a post of a thread sits in the tree: `root_id` (the thread's post), `parent_id` (the post it answers)
 * and `depth` (0 for the root; null when the parent is not part of the export).
 */
export interface ThreadPosition {
  root_id: string;
  parent_id: string | null;
  depth: number | null;
}

/** Where a row came from (CSV and Parquet columns; JSONL's `__skein` object). */
export interface Provenance {
  /** when it was retrieved (the page's fetch; a re-export: when the project last received it) */
  retrieved_at: string | null;
  operation: string;
  /** index into the manifest's `pages` (a re-export: into `source.requests`) */
  page: number | null;
  /** the cursor the page was asked with ('' or null: the first page) */
  cursor: string | null;
  /** when it was first retrieved (the page's fetch, as retrieved_at; a re-export: when the project first received it) */
  first_retrieved_at: string | null;
}

/** Posts the project holds, by id (raw JSON as last received): a network's parents of replies outside the export. */
export type PostLookup = (ids: string[]) => Promise<Array<{ raw: string }>>;

/**
 * Columns added after an item's own (the project's codes): their names, and each item's cells by its
 * id. Plain data, so it crosses to a re-export's own worker.
 */
export interface ExtraColumns {
  columns: string[];
  values: Map<string, Array<string | null>>;
  /** how the values were made, for the manifest */
  note: string;
}

/** Everything a format's writer is given. */
export interface WriteJob {
  /** the export's first file (`files(chosen)[0]`): the others are named from it */
  target: string;
  items: ItemStream;
  manifest: ExportManifest;
  plan: WritePlan;
  /** the dialog's options, as chosen (`writeOptions` fills in the defaults) */
  options: ExportOptions | undefined;
  /** how formula-like text cells are written (formats that write spreadsheet cells) */
  csvCells: CsvCells;
  signal?: AbortSignal;
  /** a network's replies to posts outside the export: their authors, from the project */
  posts?: PostLookup;
  /** columns added to every item's row (formats with `columns: 'rows'`; the others get a sidecar table) */
  extra?: ExtraColumns;
}

/** What a format's manifest section is made from. */
export interface SectionInput {
  /** the export's first file */
  target: string;
  plan: WritePlan;
  /** items the export holds (the manifest's `counts.items`) */
  items: number;
  options: ExportOptions | undefined;
  csvCells: CsvCells;
}

/** A kept item as the collector has it: parsed, with its thread position. */
export interface KeptItem {
  raw: unknown;
  position: ThreadPosition | null;
  /** its JSON as the journal keeps it, when the client kept it (a JSON Lines file copies it) */
  text?: string;
  /**
   * the same text as the journal wrote it (UTF-8, on one line), when it did: a view of the journal's buffer, good
   * only while the page is being added, never posted to another thread
   */
  bytes?: Uint8Array;
}

/** A row's cells as a live file written in a worker takes them (`Format.liveRows`): plain values, which cross threads. */
export type RowCells = Array<string | number | boolean | null>;

/** Makes the rows of a page's kept items, with their provenance (`first`: the export's index of the first). */
export type LiveRows = (items: readonly KeptItem[], from: Provenance, first: number) => RowCells[];

/** What a file written while its export collects is told of each page. */
export interface KeptPage {
  fetchedAt: number;
  cursor: string | null;
}

/**
 * A file written while its export collects (the CSV): each kept page's items are written as they arrive, so the
 * end of the export only renames the file. `finish` says false when the journal's path must write it after all.
 */
export interface LiveWriter {
  /** a page's kept items, in order, once the journal has them (`page`: its index in the manifest) */
  add: (items: readonly KeptItem[], record: KeptPage, page: number) => Promise<void>;
  /**
   * a page's rows, made where its items were parsed by the format's `liveRows` (`items`: how many items they are
   * of); present on the live file of a format that has `liveRows`, in place of `add`
   */
  addRows?: (rows: RowCells[], items: number) => Promise<void>;
  /** puts the file in place and writes the manifest; false when the journal's path must write it */
  finish: (manifest: ExportManifest, items: number, signal?: AbortSignal) => Promise<boolean>;
  /** removes what was written (any time; nothing after `finish`) */
  discard: () => Promise<void>;
}

export interface LiveInput {
  target: string;
  plan: WritePlan;
  options: ExportOptions | undefined;
  csvCells: CsvCells;
  /** what the rows say about the export: a manifest made before collecting (checked again at the end) */
  context: Pick<ExportManifest, 'app' | 'base_url' | 'view'>;
}

/** A save dialog's filter. */
export interface SaveFilter {
  name: string;
  extensions: string[];
}

/** An offer as its format declares it: the label and hint default to the format's, options and controls to none. */
export type OfferSpec = Omit<FormatOffer, 'format' | 'label' | 'hint' | 'options' | 'controls'> &
  Partial<Pick<FormatOffer, 'label' | 'hint' | 'options' | 'controls'>>;

/** One export format: everything the dialogs, the save dialog, the manifest and the export jobs need of it. */
export interface Format {
  /** lower-case letters, digits and `-`: what the bridge, a job and the manifest name it by */
  id: string;
  /** its name: the save dialog's filter, and its offer's label unless the offer has its own */
  label: string;
  hint: string;
  /** of its first file, without the dot */
  extension: string;
  /** the save dialog's filter (default: the label and the extension) */
  filter?: SaveFilter;
  /** the choices the dialogs offer, in order (at least one) */
  offers: readonly OfferSpec[];
  /** every file it writes for the path the person chose, data first, the sidecar manifest last */
  files: (chosen: string, plan: WritePlan) => string[];
  /** how its items sit in the file, for the manifest (default `defaultLayout`: raw, or positioned in a thread) */
  layout?: (plan: WritePlan) => ExportManifest['layout'];
  /** where each row says where it came from (the manifest's `row_provenance.where`); null: nowhere */
  rowProvenance: string | null;
  /** its own section of the manifest, e.g. `{ csv: {…} }` */
  section?: (input: SectionInput) => Partial<ExportManifest>;
  /** formats that write spreadsheet text cells: how formula-like cells are written when the export does not say */
  textCells?: (options: ExportOptions | undefined) => CsvCells;
  /** writes the data file(s), then the sidecar manifest; resolves to the bytes written */
  write: (job: WriteJob) => Promise<number>;
  /** a file written while the export collects; null when this run cannot have one */
  live?: (input: LiveInput) => Promise<LiveWriter | null>;
  /**
   * Its live file is written in a worker of its own, for work that would hold the thread every window's reply
   * waits on (a Parquet row group is encoded in one go): this makes each page's rows on the export's thread, from
   * the items the client already parsed, and the rows cross to the worker's `addRows` (parsing the items' JSON
   * again there was a third of its work). Null for an input its live file takes none of. Absent: the live file
   * is written on the export's own thread, where a page costs less than handing it over would (JSON Lines copies
   * the items' text; a CSV makes a page's lines, ~0.15 ms).
   */
  liveRows?: (input: LiveInput) => LiveRows | null;
  /**
   * Its file written from the journal copies the items' bytes as they are (JSON, JSON Lines), with no row made of
   * them: on the export's own thread, where a worker measured slower (absent: it makes rows of them)
   */
  copiesItems?: true;
  /**
   * Where it writes extra columns (`WriteJob.extra`): in its rows, or (absent) in a sidecar table
   * `<file>.codes.csv` the export writes beside it (an id list and a network have no row per item)
   */
  columns?: 'rows' | 'top-level';
  /**
   * What its writer holds whole until the end (absent: nothing but a few rows, it streams): a network keeps its
   * graph, which grows with the export, so a worker writing one is not held to a streaming format's heap
   */
  holds?: 'graph';
}

/** How an export's formula-like text cells are written: as it asks, else its format's default, else neutralised. */
export function cellsFor(format: Format, options: ExportOptions | undefined, asked?: CsvCells): CsvCells {
  return asked ?? format.textCells?.(options) ?? 'neutralised';
}

/**
 * `/a/x.jsonl` → `/a/x.jsonl.manifest.json`: named after its data file, so a
 * CSV and a JSONL export of one name never share (and overwrite) a manifest.
 */
export function sidecarPath(target: string): string {
  return `${target}.manifest.json`;
}

export async function writeManifestFile(path: string, manifest: ExportManifest, signal?: AbortSignal): Promise<number> {
  return writeFileAtomic(
    path,
    async (sink) => {
      for (const piece of jsonText(manifest)) await sink.write(piece);
      await sink.write('\n');
    },
    signal,
  );
}

/** A format's data, then its sidecar manifest beside `target`: the bytes of both. */
export async function withSidecar(job: WriteJob, writeData: () => Promise<number>): Promise<number> {
  const bytes = await writeData();
  return bytes + (await writeManifestFile(sidecarPath(job.target), job.manifest, job.signal));
}

/** The data file and its sidecar: the files of a format that writes one file. */
export function fileAndSidecar(chosen: string): string[] {
  return [chosen, sidecarPath(chosen)];
}

/** The provenance of a row that came in a page: fetched once, so first and last retrieved at its fetch. */
export function pageProvenance(
  operation: string,
  page: number | null,
  fetchedAt: string | null,
  cursor: string | null,
): Provenance {
  return { retrieved_at: fetchedAt, operation, page, cursor, first_retrieved_at: fetchedAt };
}

/** The provenance of the rows of a page kept while its export collects (`page`: its index in the manifest). */
export function keptPageProvenance(input: Pick<LiveInput, 'context'>, record: KeptPage, page: number): Provenance {
  return pageProvenance(input.context.view.operation, page, new Date(record.fetchedAt).toISOString(), record.cursor);
}

/**
 * Hands out each item's provenance in stream order, from the manifest's page records (an item with its own, a
 * re-export's, takes that instead).
 */
export function provenanceCounter(manifest: Pick<ExportManifest, 'pages' | 'view'>): () => Provenance {
  let page = 0;
  // each page's entry read once (a manifest's pages may be made as they are read)
  let p = manifest.pages.at(0);
  let left = p?.items_kept ?? 0;
  // one object for a page's items, as a live writer is handed: a CSV makes a page's provenance cells once
  let made: { page: number; provenance: Provenance } | null = null;
  return () => {
    while (left <= 0 && page < manifest.pages.length - 1) {
      p = manifest.pages.at(++page);
      left = p?.items_kept ?? 0;
    }
    left--;
    if (made?.page === page) return made.provenance;
    const provenance = pageProvenance(
      manifest.view.operation,
      p ? page : null,
      p?.fetched_at ?? null,
      p?.cursor ?? null,
    );
    made = { page, provenance };
    return provenance;
  };
}

/** The options an export is written with, defaults filled in. */
export function writeOptions(options: ExportOptions | undefined): Required<ExportOptions> {
  return {
    csvFlavour: options?.csvFlavour ?? 'spreadsheet',
    oneLinePerRow: options?.oneLinePerRow ?? false,
    csvColumns: options?.csvColumns ?? 'skein',
    idsOf: options?.idsOf ?? 'posts',
    parquetLayout: options?.parquetLayout ?? 'file',
    gexfVersion: options?.gexfVersion ?? '1.2draft',
  };
}

/** Items as received, or in a thread `{root_id, parent_id, depth, item}`: every format's layout but JSONL's. */
export function defaultLayout(plan: WritePlan): ExportManifest['layout'] {
  if (plan.rootId === null) return { items: 'raw' };
  return {
    items: 'positioned',
    raw_key: 'item',
    position_keys: ['root_id', 'parent_id', 'depth'],
    note: 'each entry is {root_id, parent_id, depth, item}; `item` is the raw post exactly as received. depth is null when the parent is not in the export.',
  };
}
