/**
 * The provenance manifest: everything a researcher needs to say later how a
 * collection was made. Built from the journal's page records, never from the
 * items; it holds the base URL (without credentials) and never the key.
 */
import { MAX_IDS_PER_CALL, OPERATIONS } from '../../shared/api/catalog';
import type { Mode } from '../../shared/ipc/app';
import type {
  CsvCells,
  ExportCaps,
  ExportOptions,
  ExportScope,
  StopReason,
  ViewDescriptor,
} from '../../shared/ipc/export';
import { PAGING_STOP_MESSAGES } from '../../shared/api/paging-guard';
import { looksRounded } from '../../shared/ids/id-token';
import {
  cellsFor,
  defaultLayout,
  MadeList,
  MANIFEST_SCHEMA,
  type ExportManifest,
  type Format,
  type ManifestPage,
  type ManifestSnapshot,
} from '../formats';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { AnswerSnapshot } from '../../shared/ipc/api';
import type { FailedFetch, PageList, PageRecord } from '../walk';
import type { ViewPlan } from './views';

/** pages tallied in one turn of the event loop (a few ms) */
const PAGES_PER_TURN = 1000;
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
  /** the format (the registry's), whose layout, row provenance and section the manifest says */
  format: Format;
  pages: PageList;
  /** ids not found, when the pages do not keep theirs (a hydration's state); `rounded`: those that look rounded */
  notFound?: { total: number; listed: readonly string[]; rounded: { total: number; listed: readonly string[] } };
  failures?: readonly FailedFetch[];
  stop: { reason: StopReason; message?: string } | null;
  files: string[];
  options?: ExportOptions;
  /** CSV text cells as written (absent: the format's default) */
  csvCells?: CsvCells;
  /** where the items came from when not from the API (a re-export: the project), last in the manifest */
  source?: ExportManifest['source'];
}

const PROVENANCE_FIELDS = {
  retrieved_at: 'when the page holding the row was fetched (UTC, ISO 8601)',
  operation: "the catalog operation that returned it (see view.path for the API's path)",
  page: "index into this manifest's `pages` (0: the first page fetched)",
  cursor: 'the cursor that page was asked with (empty: the first page)',
  first_retrieved_at: 'when the row was first retrieved: in an export from the API, the page fetch (as retrieved_at)',
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

function manifestSnapshot(s: AnswerSnapshot): ManifestSnapshot {
  return {
    as_of: s.asOf === null ? null : new Date(s.asOf).toISOString(),
    refresh_interval_ms: s.refreshIntervalMs,
    place: s.place,
  };
}

/**
 * Ids asked for and not returned that look rounded by a spreadsheet (15 significant digits, then zeros): kept
 * out of `ids_not_found`, so attrition figures never count a damaged id as a deleted post. Absent when none.
 */
function possiblyRounded(found: { total: number; listed: readonly string[] }): Partial<ExportManifest> {
  if (found.total === 0) return {};
  return {
    ids_possibly_rounded: {
      total: found.total,
      listed: found.listed.slice(0, MAX_LISTED_NOT_FOUND),
      note: `asked for and not returned, and shaped as a spreadsheet leaves a rounded id (15 significant digits, then zeros): more likely damaged in the id list than deleted, protected or suspended; not counted in ids_not_found${found.total > MAX_LISTED_NOT_FOUND ? `; the first ${MAX_LISTED_NOT_FOUND} are listed` : ''}`,
    },
  };
}

/** One page's entry in the manifest. */
function pageEntry(p: PageRecord): ManifestPage {
  return {
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
    ...(p.snapshot ? { snapshot: manifestSnapshot(p.snapshot) } : {}),
  };
}

/** The manifest's entries of a collection's first `count` pages, each made when it is read or written. */
export const pageEntries = (pages: PageList, count = pages.length): MadeList<ManifestPage> =>
  new MadeList(count, (i) => pageEntry(pages.at(i) as PageRecord));

/**
 * What a collection's pages add up to, for its manifest. Each page's entry is made as the manifest is written
 * (`MadeList`), from the pages as they are held.
 */
export class PagesTally {
  /** pages tallied */
  count = 0;
  readonly dropped: ExportManifest['dropped'] = [];
  readonly stops: ExportManifest['paging_stops'] = [];
  readonly notFound: string[] = [];
  readonly rounded: string[] = [];
  droppedTotal = 0;
  items = 0;
  duplicates = 0;
  calls = 0;
  credits = 0;
  snapshot: AnswerSnapshot | undefined;

  add(p: PageRecord): void {
    const i = this.count++;
    this.snapshot ??= p.snapshot;
    this.items += p.kept;
    this.duplicates += p.duplicates;
    this.calls += p.attempts;
    this.credits += p.credits;
    this.droppedTotal += p.dropped.length;
    for (const d of p.dropped) if (this.dropped.length < MAX_LISTED_DROPS) this.dropped.push({ page: i, ...d });
    if (p.stop) this.stops.push({ page: i, ...p.stop });
    for (const id of p.notFound) (looksRounded(id) ? this.rounded : this.notFound).push(id);
  }
}

const tallyNow = (pages: PageList): PagesTally => {
  const tally = new PagesTally();
  for (const page of pages) tally.add(page);
  return tally;
};

/**
 * A collection's pages tallied a thousand at a time, the event loop let go between them: a million posts are
 * fifty thousand pages, whose entries made at once held main (every window's reply) for 85 ms, and each page is
 * still read back from its log.
 */
export async function manifestPages(pages: PageList): Promise<PagesTally> {
  const tally = new PagesTally();
  for (const page of pages) {
    if (tally.count > 0 && tally.count % PAGES_PER_TURN === 0) await yieldToLoop();
    tally.add(page);
  }
  return tally;
}

/** The manifest of a collection; `tally`: its pages' (`manifestPages`), made at once when not given. */
export function buildManifest(input: ManifestInput, tally: PagesTally = tallyNow(input.pages)): ExportManifest {
  const { plan, pages, format } = input;
  const { dropped, droppedTotal, stops, notFound, rounded, items, duplicates } = tally;
  let { calls, credits } = tally;
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
    format: format.id,
    layout: (format.layout ?? defaultLayout)(plan),
    row_provenance: format.rowProvenance === null ? null : { fields: PROVENANCE_FIELDS, where: format.rowProvenance },
    order: orderOf(plan),
    // the pages tallied: an export's collection may go on after a manifest made while it collects
    pages: pageEntries(pages, tally.count),
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
    ...possiblyRounded(
      input.notFound && plan.fromList ? input.notFound.rounded : { total: rounded.length, listed: rounded },
    ),
    estimated_credits: credits,
    credits_basis:
      "Skein's editable price table (Settings), for every request that left, failed fetches and retries included; pages served from Skein's store cost nothing",
    complete: input.stop === null,
    incomplete_reason: input.stop?.reason ?? null,
    incomplete_message: input.stop ? (input.stop.message ?? STOP_MESSAGES[input.stop.reason]) : null,
    files: input.files,
  };
  if (tally.snapshot) manifest.snapshot = manifestSnapshot(tally.snapshot);
  if (plan.fromList) {
    manifest.ids_not_found_total = input.notFound?.total ?? notFound.length;
    manifest.id_list = {
      ids: plan.fromList.ids,
      already_in_project: plan.fromList.held,
      per_call: MAX_IDS_PER_CALL,
      calls: plan.requestCount - plan.fromList.heldRequests,
      note: `the ids the project already held come first, ${MAX_IDS_PER_CALL} a page, read from it at no cost (pages with from_project); then the others, ${MAX_IDS_PER_CALL} a call, in the list's order; ids_not_found lists the first ${MAX_LISTED_NOT_FOUND} not found (ids that look rounded by a spreadsheet apart, in ids_possibly_rounded), the hydration's missing list has every one with why`,
    };
  }
  const section = format.section?.({
    target: input.files[0] ?? '',
    plan,
    items,
    options: input.options,
    csvCells: cellsFor(format, input.options, input.csvCells),
  });
  Object.assign(manifest, section);
  if (input.source) manifest.source = input.source;
  return manifest;
}
