/**
 * The provenance manifest as a document: what every export's manifest holds (the export area builds it from
 * the journal's pages, `export/manifest.ts`), the built-in formats' own sections, and room for the section of
 * any format registered beside them. Types only, so every format module may read it.
 */
import type { DroppedItem, PagingStopReason } from '../../shared/ipc/api';
import type { Mode } from '../../shared/ipc/app';
import type {
  CsvColumns,
  ExportCaps,
  ExportFormat,
  ExportScope,
  IdsOf,
  StopReason,
  ViewDescriptor,
} from '../../shared/ipc/export';
import type { JsonList, MadeList } from './json-list';

export const MANIFEST_SCHEMA = 'skein.export/1';

/** A request a re-export's rows were last returned by, as its manifest lists it (never the key). */
export interface SourceRequestEntry {
  operation: string;
  params: unknown;
  cursor: string | null;
  /** its page's place in its listing (0: the first page) */
  page_index: number;
  fetched_at: string;
  base_url: string;
  http_status: number;
  items: number;
}

export interface ManifestPage {
  request: number;
  cursor: string | null;
  next_cursor: string | null;
  has_next_page: boolean | null;
  fetched_at: string;
  from_cache: boolean;
  /** a hydration's batch of ids the project already held: its items as the project last received them (no call); fetched_at is when the newest of them was received */
  from_project?: true;
  http_status: number;
  items_received: number;
  items_kept: number;
  credits: number;
  /** requests made for this page, retries included (0 from the store) */
  calls: number;
  /** what the answer said of its own time and place (trends' `metadata`) */
  snapshot?: ManifestSnapshot;
}

/** An answer's own time and place as the service gave them (the live trends' `metadata`). */
export interface ManifestSnapshot {
  /** the time the answer describes (UTC, ISO 8601); null when the service gave none that reads as a time */
  as_of: string | null;
  refresh_interval_ms: number | null;
  place: { name: string; woeid: number | null } | null;
}

/** A page fetch that failed after requests had left: they were counted by the service, so here too. */
export interface ManifestFailedFetch {
  request: number;
  cursor: string | null;
  at: string;
  calls: number;
  credits: number;
  error: string;
  message: string;
}

export interface ExportManifest {
  schema: typeof MANIFEST_SCHEMA;
  app: { name: string; version: string };
  exported_at: string;
  mode: Mode;
  base_url: string;
  view: { kind: ViewDescriptor['kind']; title: string | null; operation: string; path: string };
  requests: Array<{ operation: string; params: Record<string, string | number | boolean> }>;
  scope: ExportScope;
  caps: ExportCaps;
  /** the format's id in the registry (formats/registry.ts) */
  format: ExportFormat;
  layout:
    | { items: 'raw' }
    | { items: 'positioned'; raw_key: 'item'; position_keys: ['root_id', 'parent_id', 'depth']; note: string }
    | {
        items: 'wrapped';
        raw_key: 'item';
        provenance_key: '__skein';
        position_keys: Array<'root_id' | 'parent_id' | 'depth'>;
        note: string;
      };
  /** what each row or line says about where it came from */
  row_provenance: { fields: Record<string, string>; where: string } | null;
  /** the order the API was asked for (views that take one), and what it means for completeness */
  order: { param: string; value: string; note: string } | null;
  pages: ManifestPage[] | MadeList<ManifestPage>;
  /** fetches that failed (and were retried later, or stopped the job): their calls and credits are in the totals */
  failed_fetches: ManifestFailedFetch[];
  counts: { pages: number; items: number; duplicates_removed: number; dropped: number; calls: number };
  dropped: Array<DroppedItem & { page: number }>;
  paging_stops: Array<{ page: number; reason: PagingStopReason; message: string }>;
  ids_not_found: string[];
  /** the first page's own time and place, when its answer said them (trends: "trending worldwide as of …") */
  snapshot?: ManifestSnapshot;
  /** a hydration: how many ids were not found (`ids_not_found` lists the first 1,000; its missing list has all) */
  ids_not_found_total?: number;
  /** ids not returned that look rounded by a spreadsheet, counted apart from `ids_not_found` (absent: none) */
  ids_possibly_rounded?: { total: number; listed: string[]; note: string };
  /** a hydration: the id list its requests took their ids from, a batch per call (not repeated in `requests`) */
  id_list?: { ids: number; already_in_project: number; per_call: number; calls: number; note: string };
  estimated_credits: number;
  credits_basis: string;
  complete: boolean;
  incomplete_reason: StopReason | null;
  incomplete_message: string | null;
  files: string[];
  network?: {
    /** the file's dialect and who reads it */
    file: string;
    directed: boolean;
    nodes: string;
    edge_kinds: Record<string, string>;
    /** where an edge says its kind */
    edge_kind_where: string;
    weight: string;
    time: string;
    ids: string;
    how_to_read: Record<string, string>;
  };
  ids?: { of: IdsOf; format: string; note: string };
  /** codes of the project's coding: which columns, where they are written, how they were resolved */
  codes?: { columns: string[]; where: string; note: string };
  /** items left out because their account opted out (counted, so the file's size is explained) */
  left_out?: { accounts: number; note: string };
  parquet?: {
    writer: string;
    partitioned: boolean;
    layout: string;
    column_types: string;
    how_to_read: Record<string, string>;
  };
  csv?: {
    flavour: 'spreadsheet' | 'analysis';
    /** the column set: Skein's own, twarc-csv's or 4CAT's (csv/presets.ts) */
    columns: CsvColumns;
    encoding: string;
    id_columns: Record<string, string[]>;
    id_encoding: string;
    /** the types a typed reader should give the columns (ids are text) */
    column_types: Record<string, 'string'>;
    newlines: string;
    /** how text cells that a spreadsheet would run as formulas were written */
    text_cells: string;
    how_to_read: Record<string, string>;
  };
  /** a re-export: where its items came from (the project and the query), as they were last received */
  source?: {
    kind: 'archive';
    project: { name: string; location: string };
    query: unknown;
    note: string;
    /**
     * the requests the rows were last returned by, oldest first: a row's provenance `page` is an index here (a
     * long list kept as text until it is written)
     */
    requests: readonly SourceRequestEntry[] | JsonList<SourceRequestEntry>;
    /** items the query holds whose kept JSON no longer reads (damaged in the project): left out of the file */
    left_out_damaged?: { items: number; ids: string[]; note: string };
  };
  /** a registered format's own section (`Format.section`) */
  [section: string]: unknown;
}
