/**
 * Collects a view's raw items into the journal page by page: de-duplicates by
 * id, leaves out what the client found malformed, places thread items in the
 * tree, applies the paging guards and the caps, and can pick up where an
 * earlier run stopped (the state is rebuilt from the journal). Every request
 * that left is accounted for, and a rate limit is waited out, by the page
 * walk it runs on (core/walk); a Cancel lets the page in flight arrive and be
 * kept before it stops.
 */
import { creditsFor, DEFAULT_PRICES, type PriceTable } from '../../shared/api/pricing';
import { SkeinError } from '../../shared/errors';
import { missingCaseError } from '../../shared/missing-case';
import { looksRounded } from '../../shared/ids/id-token';
import type { ExportCaps, ExportScope, StopReason } from '../../shared/ipc/export';
import { pagingGuard } from '../../shared/api/paging-guard';
import type { Clock } from '../ports';
import {
  Journal,
  PageLog,
  pageRecord,
  receivedText,
  walkPages,
  type Budget,
  type FailedFetch,
  type JournalItem,
  type Kept,
  type PageRecord,
  type PageSource,
  type SourcePage,
  type WalkStep,
} from '../walk';
import { itemIdOf, type KeptItem } from '../formats';
import { IdSet } from '../ids';
import { projectPage, type ProjectItems } from './project-items';
import { MAX_LISTED_NOT_FOUND } from './manifest';
import { MissingLog } from './missing-ids';
import { ThreadPositions } from './thread-positions';
import type { PlannedRequest, ViewPlan } from './views';

/**
 * What the collector knows about a collection, rebuilt from the journal on resume. A hydration's state stays
 * small however long its list: its pages are kept without their ids not found (counted, the first listed, all
 * written to its `MissingLog`), and `seen` holds only ids a batch returned without asking for them (the list is
 * distinct, so an id asked for once comes back in one batch only).
 */
export class CollectionState {
  readonly pages = new PageLog();
  /** page fetches that failed after requests had left (their calls and credits count) */
  readonly failures: FailedFetch[] = [];
  /** ids kept so far (a hydration: only those its batches returned unasked) */
  readonly seen = new IdSet();
  readonly positions: ThreadPositions | null;
  /** a hydration: where its missing ids go, page by page */
  readonly missing: MissingLog | null;
  /**
   * ids not found: how many, and the first ones (a hydration's pages do not keep theirs); those that look
   * rounded by a spreadsheet apart (`looksRounded`): maybe damaged in the list, never counted as deleted
   */
  readonly notFound = { total: 0, listed: [] as string[], rounded: { total: 0, listed: [] as string[] } };
  private readonly compact: boolean;
  items = 0;
  credits = 0;
  calls = 0;
  /** pages the service charged for, and their credits (the credit cap's average) */
  charged = { pages: 0, credits: 0 };

  constructor(plan: ViewPlan, missingPath?: string) {
    this.positions = plan.rootId === null ? null : new ThreadPositions(plan.rootId);
    this.compact = plan.fromList !== null;
    this.missing = this.compact && missingPath !== undefined ? new MissingLog(missingPath) : null;
  }

  /** Opens (or creates) a journal and replays it into a fresh state (a hydration's missing ids into `missingPath`). */
  static async load(
    plan: ViewPlan,
    path: string,
    missingPath?: string,
  ): Promise<{ state: CollectionState; journal: Journal }> {
    const state = new CollectionState(plan, missingPath);
    const journal = await Journal.open(path, {
      onItem: (id, position) => {
        if (id === null) return;
        if (!state.compact) state.seen.add(id);
        if (state.positions && position !== 'null') {
          state.positions.remember(id, (JSON.parse(position) as { depth: number | null }).depth);
        }
      },
      onPage: (page) => state.record(page),
      onFailure: (failure) => state.recordFailure(failure),
    });
    return { state, journal };
  }

  record(page: PageRecord): void {
    for (const id of page.notFound) {
      const count = looksRounded(id) ? this.notFound.rounded : this.notFound;
      count.total++;
      if (count.listed.length < MAX_LISTED_NOT_FOUND) count.listed.push(id);
    }
    if (this.compact) {
      this.missing?.add(page);
      for (const id of page.foreign ?? []) this.seen.add(id);
      page = { ...page, notFound: [] };
      delete page.foreign;
    }
    this.pages.push(page);
    if (!page.fromCache) this.charged = { pages: this.charged.pages + 1, credits: this.charged.credits + page.credits };
    this.items += page.kept;
    this.credits += page.credits;
    this.calls += page.attempts;
  }

  recordFailure(failure: FailedFetch): void {
    this.failures.push(failure);
    this.credits += failure.credits;
    this.calls += failure.calls;
  }
}

export type NextStep =
  | { kind: 'fetch'; request: number; cursor: string | null }
  | { kind: 'end' }
  | { kind: 'stop'; reason: StopReason; message: string };

/** Where the collection goes next, from its last committed page. */
function nextStep(plan: ViewPlan, state: CollectionState): NextStep {
  const last = state.pages.at(-1);
  if (!last) return { kind: 'fetch', request: 0, cursor: null };
  if (last.stop) return { kind: 'stop', reason: last.stop.reason, message: last.stop.message };
  if (plan.paged && last.hasNextPage && last.nextCursor)
    return { kind: 'fetch', request: last.request, cursor: last.nextCursor };
  if (last.request + 1 < plan.requestCount) return { kind: 'fetch', request: last.request + 1, cursor: null };
  return { kind: 'end' };
}

export interface CollectOptions {
  plan: ViewPlan;
  source: PageSource;
  journal: Journal;
  state: CollectionState;
  scope: ExportScope;
  /** pages the view had loaded (scope `loaded`) */
  loadedPages: number;
  caps: ExportCaps;
  /** the job's Cancel: ends a wait at once, lets a request in flight arrive (its page is kept), then stops */
  signal: AbortSignal;
  /** a hard stop (quit, discard) that reaches the request in flight; default: `signal` */
  abort?: AbortSignal;
  clock: Clock;
  prices?: PriceTable;
  /** identifies this export's walk to the client */
  walkId: string;
  /** a hydration's ids the project already held: where their items are read */
  project?: ProjectItems;
  /** called after each committed page, and after each failed fetch */
  onPage?: (state: CollectionState) => void;
  /** a committed page's kept items as parsed, before the state counts it (`page`: its index) */
  onKept?: (items: KeptItem[], record: PageRecord, page: number) => Promise<void>;
  /** a rate limit is being waited out until this time (epoch ms); null when the wait is over */
  onWait?: (until: number | null) => void;
}

export type CollectOutcome = { done: true } | { done: false; reason: StopReason; message?: string; error?: unknown };

const TYPICAL_PAGE_ITEMS = 20;

/** Credits the next page will likely cost: the average so far, or a typical page. */
function nextPageCredits(plan: ViewPlan, state: CollectionState, request: number, prices: PriceTable): number {
  const { charged } = state;
  if (charged.pages > 0) return charged.credits / charged.pages;
  const asked = plan.askedCount(request) ?? undefined;
  return creditsFor(
    { operation: plan.operation, httpStatus: 200, items: asked ?? TYPICAL_PAGE_ITEMS, idsAsked: asked },
    prices,
  );
}

/** The job's caps as they stand before the next page (pages, then items, then credits: the first passed is named). */
function capsOf(o: CollectOptions, request: number): Budget<StopReason>[] {
  const { caps, state } = o;
  const budgets: Budget<StopReason>[] = [];
  if (caps.maxPages !== undefined)
    budgets.push({ name: 'cap-pages', left: caps.maxPages - state.pages.length, cost: 1 });
  if (caps.maxItems !== undefined) budgets.push({ name: 'cap-items', left: caps.maxItems - state.items, cost: 1 });
  if (caps.maxCredits !== undefined) {
    // an export's credit cap is spent to its end: the next page is expected to cost what its pages have so far
    const cost = nextPageCredits(o.plan, state, request, o.prices ?? DEFAULT_PRICES);
    budgets.push({ name: 'cap-credits', left: caps.maxCredits - state.credits, cost });
  }
  return budgets;
}

/** The paging guards (the client's own, `pagingGuard`), over the journal's pages of this request. */
function guardStop(state: CollectionState, page: PageRecord): PageRecord['stop'] {
  if (page.stop || !page.hasNextPage) return page.stop;
  const stop = pagingGuard({
    cursor: page.cursor,
    hasNextPage: true,
    nextCursor: page.nextCursor,
    // nothing new: the collection de-duplicates its pages itself (the source holds none of its ids)
    broughtNothing: page.kept === 0,
    cursorSeenBefore: state.pages.askedWith(page.request, page.nextCursor),
    previousBroughtNothing: state.pages.lastBroughtNothing(page.request),
  });
  // the manifest names the cursor that would loop, for whoever reads it later
  return stop?.reason === 'repeated-cursor'
    ? { ...stop, message: `${stop.message} (cursor ${page.nextCursor?.slice(0, 40)})` }
    : stop;
}

/** A hydration's batch of ids the project holds, read from it (no call). */
function fromProject(o: CollectOptions, ids: string[]): Promise<SourcePage> {
  if (!o.project) throw new SkeinError('internal', 'The project that held these ids is not open.');
  return projectPage(o.project, o.plan.itemKind === 'user' ? 'user' : 'post', ids, o.clock.now());
}

/** a page of the view: which planned request, from which cursor, and what that request asks */
interface Step extends WalkStep {
  planned: PlannedRequest;
}

/** What the journal keeps of a page: its new items (placed in the thread), and its record. */
function keepPage(o: CollectOptions, page: SourcePage, step: Step): Kept {
  const { plan, state } = o;
  const kept: JournalItem[] = [];
  const parsed: KeptItem[] = [];
  let duplicates = page.duplicatesRemoved;
  // a hydration's batch: its own ids are new (the list is distinct); only repeats within it and ids it was
  // not asked for are checked, and only the latter are remembered
  const asked = plan.fromList && step.planned.idsAsked ? new Set(step.planned.idsAsked) : null;
  const inPage = new Set<string>();
  const foreign: string[] = [];
  page.rawItems.forEach((raw, index) => {
    const id = itemIdOf(raw);
    if (id !== null) {
      // most pages: the set is asked once whether it had the id, by adding it (a million posts: a million asks)
      if (!asked) {
        if (!state.seen.add(id)) {
          duplicates++;
          return;
        }
      } else if (state.seen.has(id) || inPage.has(id)) {
        duplicates++;
        return;
      } else if (asked.has(id)) inPage.add(id);
      else {
        state.seen.add(id);
        foreign.push(id);
      }
    }
    const placed = state.positions ? state.positions.place(id, raw) : null;
    const text = receivedText(page, index);
    kept.push({ id, position: placed ? JSON.stringify(placed) : 'null', raw: text });
    if (o.onKept) parsed.push({ raw, position: placed, text });
  });
  const record: PageRecord = {
    ...pageRecord(page, step, { kept: kept.length, duplicates }),
    fromProject: step.planned.fromProject,
    ...(foreign.length > 0 ? { foreign } : {}),
  };
  if (plan.paged) record.stop = guardStop(state, record);
  // a bad paging answer is not served again from the store: a new export asks the service again
  if (record.stop)
    o.source.forget?.({
      operation: plan.operation,
      params: step.planned.params,
      cursor: step.cursor,
      walkId: o.walkId,
    });
  // the kept items' other work (a live CSV's lines) runs after the journal's write is made; the page counts
  // only once the journal has it (a page the journal lost makes the live CSV give way to the journal)
  const onKept = o.onKept;
  const alongside = onKept
    ? () => {
        // the bytes the journal just wrote for each item, which a JSON Lines file copies rather than encoding again
        const bytes = o.journal.writtenTexts(kept);
        if (bytes) parsed.forEach((item, i) => (item.bytes = bytes[i]));
        return onKept(parsed, record, state.pages.length);
      }
    : undefined;
  return { items: kept, record, ...(alongside ? { alongside } : {}) };
}

/** Collects the view's pages through the page walk, from where the journal left off. */
export async function collect(o: CollectOptions): Promise<CollectOutcome> {
  const { plan, state, journal, clock, signal } = o;
  try {
    const outcome = await walkPages<Step, StopReason>({
      journal,
      clock,
      signal,
      abort: o.abort,
      onWait: o.onWait,
      next: async () => {
        const step = nextStep(plan, state);
        if (step.kind === 'end') return { done: true };
        if (step.kind === 'stop') return { done: false, stop: step.reason, message: step.message };
        if (o.scope === 'loaded' && plan.paged && state.pages.length >= Math.max(1, o.loadedPages)) {
          return { done: false, stop: 'loaded-only' };
        }
        if (step.request >= plan.requestCount) return { done: true };
        return { page: { request: step.request, cursor: step.cursor, planned: await plan.request(step.request) } };
      },
      caps: (step) => capsOf(o, step.request),
      fetch: (step, controls) =>
        step.planned.fromProject
          ? fromProject(o, step.planned.idsAsked ?? [])
          : o.source.fetchPage({
              ...controls,
              operation: plan.operation,
              params: step.planned.params,
              cursor: step.cursor,
              walkId: o.walkId,
              transient: plan.fromList !== null,
              deduplicates: true,
            }),
      onFailure: (failure) => {
        state.recordFailure(failure);
        o.onPage?.(state);
      },
      keep: async (page, step) => keepPage(o, page, step),
      priceOf: (page, step) =>
        step.planned.fromProject
          ? 0
          : creditsFor(
              {
                operation: plan.operation,
                httpStatus: page.httpStatus,
                items: page.received,
                idsAsked: step.planned.idsAsked?.length,
              },
              o.prices ?? DEFAULT_PRICES,
            ),
      onCommitted: (record) => {
        state.record(record);
        o.onPage?.(state);
      },
    });
    if (outcome.done) return outcome;
    switch (outcome.reason) {
      case 'stop':
        return {
          done: false,
          reason: outcome.stop,
          ...(outcome.message !== undefined ? { message: outcome.message } : {}),
        };
      case 'cap':
        return { done: false, reason: outcome.cap.name };
      case 'cancelled':
        return { done: false, reason: 'cancelled' };
      case 'unreadable':
        return { done: false, reason: 'error', message: outcome.failure.message };
      case 'error':
        return { done: false, reason: 'error', error: outcome.error, message: outcome.message };
      default:
        return missingCaseError(outcome);
    }
  } finally {
    o.source.endWalk?.(o.walkId);
    await journal.sync().catch(() => undefined);
  }
}
