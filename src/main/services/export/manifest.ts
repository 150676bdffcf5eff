/**
 * The provenance manifest: everything a researcher needs to say later how a
 * collection was made. Built from the journal's page records, never from the
 * items; it holds the base URL (without credentials) and never the key.
 */
import { OPERATIONS } from '../../../shared/api/catalog';
import type { DroppedItem, PagingStopReason } from '../../../shared/ipc/api';
import type { Mode } from '../../../shared/ipc/app';
import type { ExportCaps, ExportFormat, ExportScope, StopReason, ViewDescriptor } from '../../../shared/ipc/export';
import { CSV_CELLS_NOTE, type CsvCells } from './csv-formula';
import type { PageRecord } from './journal';
import type { ViewPlan } from './views';

export const MANIFEST_SCHEMA = 'skein.export/1';
/** At most this many dropped items are listed one by one (all are counted). */
export const MAX_LISTED_DROPS = 1000;

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
  http_status: number;
  items_received: number;
  items_kept: number;
  credits: number;
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
    | { items: 'positioned'; raw_key: 'item'; position_keys: ['root_id', 'parent_id', 'depth']; note: string };
  pages: ManifestPage[];
  counts: { pages: number; items: number; duplicates_removed: number; dropped: number; calls: number };
  dropped: Array<DroppedItem & { page: number }>;
  paging_stops: Array<{ page: number; reason: PagingStopReason; message: string }>;
  ids_not_found: string[];
  estimated_credits: number;
  credits_basis: string;
  complete: boolean;
  incomplete_reason: StopReason | null;
  incomplete_message: string | null;
  files: string[];
  csv?: {
    encoding: string;
    id_columns: Record<string, string[]>;
    id_encoding: string;
    /** how text cells that a spreadsheet would run as formulas were written */
    text_cells: string;
    how_to_read: Record<string, string>;
  };
}

/** The base URL without user, password, query or fragment (a key must never leak through it). */
export function safeBaseUrl(baseUrl: string): string {
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
  'repeated-cursor': 'the API repeated a cursor (paging guard)',
  'missing-cursor': 'the API said there is a next page but sent no cursor (paging guard)',
  'empty-pages': 'the API sent two empty pages in a row (paging guard)',
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
  stop: { reason: StopReason; message?: string } | null;
  files: string[];
  csvIdColumns?: Record<string, string[]>;
  csvCells?: CsvCells;
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
  const manifest: ExportManifest = {
    schema: MANIFEST_SCHEMA,
    app: { name: input.context.appName, version: input.context.appVersion },
    exported_at: new Date(input.now).toISOString(),
    mode: input.context.mode,
    base_url: safeBaseUrl(input.context.baseUrl),
    view: { kind: input.view.kind, title: input.view.title ?? null, operation: plan.operation, path: OPERATIONS[plan.operation].path },
    requests: plan.requests.map((r) => ({ operation: plan.operation, params: r.params })),
    scope: input.scope,
    caps: input.caps,
    format: input.format,
    layout:
      plan.rootId === null
        ? { items: 'raw' }
        : {
            items: 'positioned',
            raw_key: 'item',
            position_keys: ['root_id', 'parent_id', 'depth'],
            note: 'each entry is {root_id, parent_id, depth, item}; `item` is the raw post exactly as received. depth is null when the parent is not in the export.',
          },
    pages: pages.map((p) => ({
      request: p.request,
      cursor: p.cursor,
      next_cursor: p.nextCursor,
      has_next_page: p.hasNextPage,
      fetched_at: new Date(p.fetchedAt).toISOString(),
      from_cache: p.fromCache,
      http_status: p.httpStatus,
      items_received: p.received,
      items_kept: p.kept,
      credits: p.credits,
    })),
    counts: { pages: pages.length, items, duplicates_removed: duplicates, dropped: droppedTotal, calls },
    dropped,
    paging_stops: stops,
    ids_not_found: notFound,
    estimated_credits: credits,
    credits_basis: "Skein's editable price table (Settings); pages served from Skein's store cost nothing",
    complete: input.stop === null,
    incomplete_reason: input.stop?.reason ?? null,
    incomplete_message: input.stop ? (input.stop.message ?? STOP_MESSAGES[input.stop.reason]) : null,
    files: input.files,
  };
  if (input.csvIdColumns) {
    manifest.csv = {
      encoding: 'UTF-8 with a byte order mark (so spreadsheets detect it)',
      id_columns: input.csvIdColumns,
      text_cells: CSV_CELLS_NOTE[input.csvCells ?? 'neutralised'],
      id_encoding:
        'ids are written as ="1234567890123456789" so spreadsheets keep them as text (Excel, LibreOffice, Google Sheets); the exact id is the text between =" and "',
      how_to_read: {
        pandas: "df = pd.read_csv(path, dtype=str, encoding='utf-8-sig'); df[col] = df[col].str.slice(2, -1)",
        R: "df <- read.csv(path, colClasses='character', fileEncoding='UTF-8-BOM'); df[[col]] <- gsub('^=\"|\"$', '', df[[col]])",
        'csv-parse': "parse(text, { bom: true, columns: true, cast: (v, c) => idColumns.includes(c.column) ? v.replace(/^=\"|\"$/g, '') : v })",
      },
    };
  }
  return manifest;
}
