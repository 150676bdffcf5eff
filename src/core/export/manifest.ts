/**
 * The provenance manifest: everything a researcher needs to say later how a
 * collection was made. Built from the journal's page records, never from the
 * items; it holds the base URL (without credentials) and never the key.
 */
import { MAX_IDS_PER_CALL, OPERATIONS } from '../../shared/api/catalog';
import type { DroppedItem, PagingStopReason } from '../../shared/ipc/api';
import type { Mode } from '../../shared/ipc/app';
import type {
  CsvColumns,
  ExportCaps,
  ExportFormat,
  ExportOptions,
  ExportScope,
  IdsOf,
  StopReason,
  ViewDescriptor,
} from '../../shared/ipc/export';
import { PAGING_STOP_MESSAGES } from '../../shared/api/paging-guard';
import { defaultCsvCells, type CsvCells } from '../formats/csv/formula';
import type { FailedFetch, PageRecord } from './journal';
import { csvSection, idsSection, NETWORK_SECTION, parquetSection } from '../formats/manifest-sections';
import type { ViewPlan } from './views';

export const MANIFEST_SCHEMA = 'skein.export/1';
/** At most this many dropped items are listed one by one (all are counted). */
const MAX_LISTED_DROPS = 1000;
/** ids not found a hydration's manifest lists one by one */
export const MAX_LISTED_NOT_FOUND = 1000;

export interface ExportContext {
  appName: string;
  appVersion: string;
  mode: Mode;
  baseUrl: string;
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
  pages: ManifestPage[];
  /** fetches that failed (and were retried later, or stopped the job): their calls and credits are in the totals */
  failed_fetches: ManifestFailedFetch[];
  counts: { pages: number; items: number; duplicates_removed: number; dropped: number; calls: number };
  dropped: Array<DroppedItem & { page: number }>;
  paging_stops: Array<{ page: number; reason: PagingStopReason; message: string }>;
  ids_not_found: string[];
  /** a hydration: how many ids were not found (`ids_not_found` lists the first 1,000; its missing list has all) */
  ids_not_found_total?: number;
  /** a hydration: the id list its requests took their ids from, a batch per call (not repeated in `requests`) */
  id_list?: { ids: number; already_in_project: number; per_call: number; calls: number; note: string };
  estimated_credits: number;
  credits_basis: string;
  complete: boolean;
  incomplete_reason: StopReason | null;
  incomplete_message: string | null;
  files: string[];
  network?: {
    directed: boolean;
    nodes: string;
    edge_kinds: Record<string, string>;
    weight: string;
    time: string;
    ids: string;
  };
  ids?: { of: IdsOf; format: string; note: string };
  parquet?: {
    writer: string;
    partitioned: boolean;
    layout: string;
    column_types: string;
    how_to_read: Record<string, string>;
  };
  csv?: {
    flavour: 'spreadsheet' | 'analysis';
    /** the column set: Skein's own, twarc-csv's or 4CAT's (csv-presets.ts) */
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
}

/** The base URL without user, password, query or fragment (a key must never leak through it). */
function safeBaseUrl(baseUrl: string): string {
  try {
    const u = new URL(baseUrl);
    u.username = '';
    u.password = '';
    u.search = '';
    u.hash = '';
    return u.toString().replace(/\/$/, '');
  } catch {
    return '(invalid URL)';
  }
}

const STOP_MESSAGES: Record<StopReason, string> = {
  'cap-pages': 'stopped at the page cap',
  'cap-items': 'stopped at the item cap',
  'cap-credits': 'stopped before exceeding the credit cap',
  cancelled: 'cancelled by the user',
  error: 'stopped by an error',
  interrupted: 'Skein quit while collecting',
  'loaded-only': 'only the pages loaded in the view were exported; more exist',
  ...PAGING_STOP_MESSAGES,
};

export interface ManifestInput {
  context: ExportContext;
  now: number;
  view: ViewDescriptor;
  plan: ViewPlan;
  scope: ExportScope;
  caps: ExportCaps;
  format: ExportFormat;
  pages: readonly PageRecord[];
  /** ids not found, when the pages do not keep theirs (a hydration's state) */
  notFound?: { total: number; listed: readonly string[] };
  failures?: readonly FailedFetch[];
  stop: { reason: StopReason; message?: string } | null;
  files: string[];
  csvIdColumns?: Record<string, string[]>;
  options?: ExportOptions;
  csvCells?: CsvCells;
}

const PROVENANCE_FIELDS = {
  retrieved_at: 'when the page holding the row was fetched (UTC, ISO 8601)',
  operation: "the catalog operation that returned it (see view.path for the API's path)",
  page: "index into this manifest's `pages` (0: the first page fetched)",
  cursor: 'the cursor that page was asked with (empty: the first page)',
};

const ORDER_NOTES: Record<string, string> = {
  Latest: 'newest first; time order is what a complete collection should use',
  Relevance:
    'ranked by the service: a relevance-ranked listing can leave replies out, so this collection may be incomplete even when `complete` is true',
  Likes: 'ranked by likes: a ranked listing can leave replies out',
};

/** The order a view's operation was asked for, when it takes one. */
function orderOf(plan: ViewPlan): ExportManifest['order'] {
  const param = OPERATIONS[plan.operation].params.find((p) => p.name === 'queryType');
  if (!param) return null;
  const value = String(plan.params.queryType ?? ('default' in param ? param.default : ''));
  return { param: 'queryType', value, note: ORDER_NOTES[value] ?? 'as the service returned it' };
}

function layoutOf(plan: ViewPlan, format: ExportFormat): ExportManifest['layout'] {
  const positioned = plan.rootId !== null;
  if (format === 'jsonl') {
    return {
      items: 'wrapped',
      raw_key: 'item',
      provenance_key: '__skein',
      position_keys: positioned ? ['root_id', 'parent_id', 'depth'] : [],
      note: `each line is {"__skein": {retrieved_at, operation, page, cursor}, ${positioned ? 'root_id, parent_id, depth, ' : ''}"item": …}; \`item\` is the raw item exactly as received, never changed${positioned ? '; depth is null when the parent is not in the export' : ''}.`,
    };
  }
  if (!positioned) return { items: 'raw' };
  return {
    items: 'positioned',
    raw_key: 'item',
    position_keys: ['root_id', 'parent_id', 'depth'],
    note: 'each entry is {root_id, parent_id, depth, item}; `item` is the raw post exactly as received. depth is null when the parent is not in the export.',
  };
}

export function buildManifest(input: ManifestInput): ExportManifest {
  const { plan, pages } = input;
  const dropped: ExportManifest['dropped'] = [];
  let droppedTotal = 0;
  const stops: ExportManifest['paging_stops'] = [];
  const notFound: string[] = [];
  let items = 0;
  let duplicates = 0;
  let calls = 0;
  let credits = 0;
  pages.forEach((p, i) => {
    items += p.kept;
    duplicates += p.duplicates;
    calls += p.attempts;
    credits += p.credits;
    droppedTotal += p.dropped.length;
    for (const d of p.dropped) if (dropped.length < MAX_LISTED_DROPS) dropped.push({ page: i, ...d });
    if (p.stop) stops.push({ page: i, ...p.stop });
    notFound.push(...p.notFound);
  });
  const failures = input.failures ?? [];
  for (const f of failures) {
    calls += f.calls;
    credits += f.credits;
  }
  const manifest: ExportManifest = {
    schema: MANIFEST_SCHEMA,
    app: { name: input.context.appName, version: input.context.appVersion },
    exported_at: new Date(input.now).toISOString(),
    mode: input.context.mode,
    base_url: safeBaseUrl(input.context.baseUrl),
    view: {
      kind: input.view.kind,
      title: input.view.title ?? null,
      operation: plan.operation,
      path: OPERATIONS[plan.operation].path,
    },
    requests: (plan.listed ?? [{ params: plan.params }]).map((r) => ({ operation: plan.operation, params: r.params })),
    scope: input.scope,
    caps: input.caps,
    format: input.format,
    layout: layoutOf(plan, input.format),
    row_provenance:
      input.format === 'json' || input.format === 'gexf' || input.format === 'gephi-csv' || input.format === 'ids'
        ? null
        : {
            fields: PROVENANCE_FIELDS,
            where:
              input.format === 'jsonl'
                ? 'the `__skein` object beside each item'
                : `the last four columns of every ${input.format === 'parquet' ? 'Parquet table' : 'CSV file'}`,
          },
    order: orderOf(plan),
    pages: pages.map((p) => ({
      request: p.request,
      cursor: p.cursor,
      next_cursor: p.nextCursor,
      has_next_page: p.hasNextPage,
      fetched_at: new Date(p.fetchedAt).toISOString(),
      from_cache: p.fromCache,
      ...(p.fromProject ? { from_project: true as const } : {}),
      http_status: p.httpStatus,
      items_received: p.received,
      items_kept: p.kept,
      credits: p.credits,
      calls: p.attempts,
    })),
    failed_fetches: failures.map((f) => ({
      request: f.request,
      cursor: f.cursor,
      at: new Date(f.at).toISOString(),
      calls: f.calls,
      credits: f.credits,
      error: f.code,
      message: f.message,
    })),
    counts: { pages: pages.length, items, duplicates_removed: duplicates, dropped: droppedTotal, calls },
    dropped,
    paging_stops: stops,
    ids_not_found: input.notFound && plan.fromList ? [...input.notFound.listed] : notFound,
    estimated_credits: credits,
    credits_basis:
      "Skein's editable price table (Settings), for every request that left, failed fetches and retries included; pages served from Skein's store cost nothing",
    complete: input.stop === null,
    incomplete_reason: input.stop?.reason ?? null,
    incomplete_message: input.stop ? (input.stop.message ?? STOP_MESSAGES[input.stop.reason]) : null,
    files: input.files,
  };
  if (plan.fromList) {
    manifest.ids_not_found_total = input.notFound?.total ?? notFound.length;
    manifest.id_list = {
      ids: plan.fromList.ids,
      already_in_project: plan.fromList.held,
      per_call: MAX_IDS_PER_CALL,
      calls: plan.requestCount - plan.fromList.heldRequests,
      note: `the ids the project already held come first, ${MAX_IDS_PER_CALL} a page, read from it at no cost (pages with from_project); then the others, ${MAX_IDS_PER_CALL} a call, in the list's order; ids_not_found lists the first ${MAX_LISTED_NOT_FOUND} not found, the hydration's missing list has every one with why`,
    };
  }
  if (input.format === 'parquet') manifest.parquet = parquetSection(items);
  if (input.format === 'gexf' || input.format === 'gephi-csv') manifest.network = NETWORK_SECTION;
  if (input.format === 'ids') manifest.ids = idsSection(input.options?.idsOf ?? 'posts');
  if (input.csvIdColumns)
    manifest.csv = csvSection(input.csvIdColumns, input.options, input.csvCells ?? defaultCsvCells(input.options));
  return manifest;
}
