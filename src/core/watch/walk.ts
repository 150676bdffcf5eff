/**
 * A run's walks on the page walk (core/walk): each walk's pages read until it ends (a listing meets what the
 * project already held, plus an overlap; a batch is one page), the caps checked before each page against its
 * largest possible cost, a rate limit waited out, every page journaled after its answer is in the project.
 * A run picked up again finds each walk's pages in its journal and reads on from there.
 */
import { creditsFor, type PriceTable } from '../../shared/api/pricing';
import { largestPageKnown, type OperationId } from '../../shared/api/catalog';
import { isSkeinError } from '../../shared/errors';
import type { RunStatus, WatchSpec } from '../../shared/ipc/watch';
import {
  Journal,
  pageRecord,
  receivedText,
  walkPages,
  type FailedFetch,
  type JournalItem,
  type Kept,
  type PageRecord,
  type PageSource,
  type SourcePage,
  type WalkStep,
} from '../walk';
import type { Clock } from '../ports';
import { observeCommunity, observePost, observeSpace, observeTrends, observeUser, type Observed } from './observe';
import type { Walk } from './plan';
import type { WatchStore } from './store';

/** the attempts one page may take (its retries of an error are charged the minimum each) */
const ATTEMPTS = 4;
const STOPPED = 'The runner was stopped during the run; the next run reads on from where it left off.';

/** what a walk's pages carry in the journal, for a run picked up again */
interface Note {
  walk: string;
  ended: boolean;
  /** the walk's position of the first item already held, or null */
  firstKnown: number | null;
}

export interface ReadItem {
  observed: Observed | null;
  at: number;
  /** a space's participants (who is new since the last run) */
  participants?: string[];
}

export interface WalkState {
  walk: Walk;
  pages: PageRecord[];
  items: ReadItem[];
  ended: boolean;
  /** the target could not be read (not found: suspended, deleted) */
  unavailable: boolean;
  firstKnown: number | null;
}

const isNote = (v: unknown): v is Note =>
  typeof v === 'object' && v !== null && typeof (v as Note).walk === 'string' && typeof (v as Note).ended === 'boolean';

/** the items an operation's answer holds, read */
function readItems(operation: OperationId, rawItems: readonly unknown[], at: number): ReadItem[] {
  switch (operation) {
    case 'usersByIds':
    case 'userSearch':
      return rawItems.map((r) => ({ observed: observeUser(r), at }));
    case 'communityInfo':
      return rawItems.map((r) => ({ observed: observeCommunity(r), at }));
    case 'spaceDetail':
      return rawItems.map((r) => {
        const space = observeSpace(r);
        return { observed: space?.observed ?? null, at, participants: space?.participants ?? [] };
      });
    case 'trends':
      return observeTrends(rawItems).map((observed) => ({ observed, at }));
    default:
      return rawItems.map((r) => ({ observed: observePost(r), at }));
  }
}

/** the most a page can cost: a full page (or the ids asked), or the retries of an error */
async function pageEstimate(w: Walk, prices: PriceTable, largest: (op: string) => Promise<number>): Promise<number> {
  const asked = w.asked?.ids.length;
  let items = asked ?? 1;
  if (asked === undefined && (w.rule === 'until-known' || w.rule === 'all'))
    items = largestPageKnown(w.operation, await largest(w.operation));
  const full = creditsFor({ operation: w.operation, httpStatus: 200, items, idsAsked: asked }, prices);
  return Math.max(full, prices.minimumPerCall * ATTEMPTS);
}

/**
 * A failure a walk cannot read past, while the run goes on: the target is not there (suspended, deleted, a
 * wrong id), or the service no longer takes the place a read was left off (that hole cannot be filled).
 */
function unreadable(failure: FailedFetch, w: Walk): boolean {
  return (
    (failure.code === 'not-found' && w.target !== null) || (failure.code === 'validation' && w.phase === 'backfill')
  );
}

/** what a run's journal held when it was opened: each walk's pages (with their items) and the failures */
interface Replay {
  pagesByWalk: Map<string, Array<{ page: PageRecord; raws: unknown[] }>>;
  failures: FailedFetch[];
  /** what its pages and failures cost */
  calls: number;
  credits: number;
}

/** Opens a run's journal: a run picked up again gets its pages back, by walk (walks are planned in the same order). */
export async function openRunJournal(path: string): Promise<{ journal: Journal; replay: Replay }> {
  const pages: PageRecord[] = [];
  const failures: FailedFetch[] = [];
  const journal = await Journal.open(path, { onPage: (page) => pages.push(page), onFailure: (f) => failures.push(f) });
  const items: JournalItem[] = [];
  try {
    if (pages.length > 0) for await (const item of journal.items()) items.push(item);
  } catch (error) {
    // the caller never gets the journal to close
    await journal.close();
    throw error;
  }
  const pagesByWalk = new Map<string, Array<{ page: PageRecord; raws: unknown[] }>>();
  let at = 0;
  for (const page of pages) {
    const raws = items.slice(at, at + page.kept).map((i) => {
      try {
        return JSON.parse(typeof i.raw === 'string' ? i.raw : i.raw.toString('utf8')) as unknown;
      } catch {
        return null;
      }
    });
    at += page.kept;
    if (!isNote(page.note)) continue;
    const list = pagesByWalk.get(page.note.walk) ?? [];
    list.push({ page, raws });
    pagesByWalk.set(page.note.walk, list);
  }
  const calls = pages.reduce((n, p) => n + p.attempts, 0) + failures.reduce((n, f) => n + f.calls, 0);
  const credits = pages.reduce((n, p) => n + p.credits, 0) + failures.reduce((n, f) => n + f.credits, 0);
  return { journal, replay: { pagesByWalk, failures, calls, credits } };
}

export interface RunWalkDeps {
  journal: Journal;
  /** what the walks ask of the project: what it held, the answers written, the run's progress, page sizes */
  store: Pick<WatchStore, 'known' | 'flush' | 'progressRun' | 'largestPage'>;
  source: PageSource;
  clock: Clock;
  prices: PriceTable;
  /** a clean stop: the page in flight is kept, then the run ends `stopped` */
  stop: AbortSignal;
  /** a hard stop that reaches the request in flight */
  abort?: AbortSignal;
  runId: number;
  watchId: number;
  /** when the run started: what the project held before it is "known" */
  started: number;
  spec: Pick<WatchSpec, 'caps' | 'options'>;
  /** spent by the watch's other runs: in the 24 hours before the run, and in all */
  spentBefore: { lastDay: number; total: number };
  onPage?: (p: { walk: string; items: number; credits: number; calls: number; runCredits: number }) => void;
}

/** The walks of one run, in the order they were read, and what they cost so far. */
export class RunWalks {
  readonly order: WalkState[] = [];
  private readonly walks = new Map<string, WalkState>();
  status: RunStatus = 'done';
  message: string | null = null;
  calls: number;
  credits: number;

  constructor(
    private readonly d: RunWalkDeps,
    private readonly replay: Replay,
  ) {
    this.calls = replay.calls;
    this.credits = replay.credits;
  }

  /** the ids read so far (`kind:id`) */
  seen(): Set<string> {
    const ids = new Set<string>();
    for (const ws of this.order)
      for (const i of ws.items) if (i.observed) ids.add(`${i.observed.kind}:${i.observed.id}`);
    return ids;
  }

  /** what the probe read */
  probed(): Observed[] {
    return this.order
      .filter((ws) => ws.walk.phase === 'probe')
      .flatMap((ws) => ws.items.map((i) => i.observed).filter((o): o is Observed => o !== null));
  }

  /** the caps as they stand, the tightest first, each against the most the next page may cost */
  private caps(cost: number) {
    const { caps } = this.d.spec;
    const { spentBefore } = this.d;
    return [
      { name: 'the run’s cap', left: caps.perRun - this.credits, cost },
      { name: 'the daily cap', left: caps.perDay - spentBefore.lastDay - this.credits, cost },
      { name: 'the total cap', left: caps.total - spentBefore.total - this.credits, cost },
    ].sort((a, b) => a.left - b.left);
  }

  /** the walk's state, from the journal when the run is picked up again */
  private stateOf(w: Walk): WalkState {
    const existing = this.walks.get(w.key);
    if (existing) return existing;
    const index = this.order.length;
    const ws: WalkState = { walk: w, pages: [], items: [], ended: false, unavailable: false, firstKnown: null };
    for (const { page, raws } of this.replay.pagesByWalk.get(w.key) ?? []) {
      ws.pages.push(page);
      ws.items.push(...readItems(w.operation, raws, page.fetchedAt));
      const note = page.note as Note;
      ws.ended = note.ended;
      ws.firstKnown = note.firstKnown;
    }
    if (this.replay.failures.some((f) => f.request === index && unreadable(f, w))) {
      ws.ended = true;
      ws.unavailable = true;
    }
    this.walks.set(w.key, ws);
    this.order.push(ws);
    return ws;
  }

  /** What the journal keeps of a page, and where the walk stands after it (the answer is in the project first). */
  private async keep(ws: WalkState, page: SourcePage, step: WalkStep): Promise<Kept & { read: ReadItem[] }> {
    const w = ws.walk;
    const { store } = this.d;
    const read = readItems(w.operation, page.rawItems, page.fetchedAt);
    const observed = read.map((r) => r.observed);
    let firstKnown = ws.firstKnown;
    let ended = false;
    if (w.rule === 'single') ended = true;
    if (w.rule === 'until-known' || w.rule === 'all') {
      const ids = observed.filter((o): o is Observed => o !== null && o.kind === 'post').map((o) => o.id);
      const known = new Set(ids.length ? await store.known(this.d.watchId, 'post', ids, this.d.started) : []);
      observed.forEach((o, i) => {
        if (firstKnown === null && o && known.has(o.id) && o.id !== w.target) firstKnown = ws.items.length + i;
      });
      const position = ws.items.length + observed.length;
      const pagesRead = ws.pages.length + 1;
      if (!page.paging?.hasNextPage || !page.paging.nextCursor || page.paging.stop) ended = true;
      if (
        w.rule === 'until-known' &&
        !w.first &&
        firstKnown !== null &&
        position >= firstKnown + 1 + this.d.spec.options.overlap
      )
        ended = true;
      if (w.floor !== null && observed.some((o) => o && o.createdAt !== null && o.createdAt < (w.floor as number)))
        ended = true;
      if (w.maxPages !== null && pagesRead >= w.maxPages) ended = true;
    }
    const record: PageRecord = {
      ...pageRecord(page, step, { kept: page.rawItems.length, duplicates: page.duplicatesRemoved }),
      note: { walk: w.key, ended, firstKnown } satisfies Note,
    };
    const items: JournalItem[] = page.rawItems.map((_raw, i) => ({
      id: observed[i]?.id ?? null,
      position: 'null',
      raw: receivedText(page, i),
    }));
    // the answer is in the project before its page is in the journal
    await store.flush();
    return { items, record, read };
  }

  /** Reads a walk's pages until it ends, or the run must stop; false when the run stops. */
  async walk(w: Walk): Promise<boolean> {
    const ws = this.stateOf(w);
    const d = this.d;
    const request = this.order.indexOf(ws);
    let read: ReadItem[] = [];
    const walkId = `watch:${d.runId}:${w.key}`;
    const outcome = await walkPages<WalkStep>({
      journal: d.journal,
      clock: d.clock,
      signal: d.stop,
      abort: d.abort,
      next: async () => {
        const last = ws.pages.at(-1);
        const cursor = last ? last.nextCursor : w.startCursor;
        if (ws.ended || (last && (!last.hasNextPage || !cursor))) return { done: true };
        return { page: { request, cursor } };
      },
      caps: async () => this.caps(await pageEstimate(w, d.prices, d.store.largestPage)),
      fetch: (step, controls) =>
        d.source.fetchPage({
          ...controls,
          operation: w.operation,
          params: w.params,
          cursor: step.cursor,
          walkId,
        }),
      unreadable: (failure) => unreadable(failure, w),
      priceOf: (page) =>
        creditsFor(
          { operation: w.operation, httpStatus: page.httpStatus, items: page.received, idsAsked: w.asked?.ids.length },
          d.prices,
        ),
      onFailure: async (failure) => {
        this.calls += failure.calls;
        this.credits += failure.credits;
        await d.store.progressRun(d.runId, { calls: this.calls, credits: this.credits });
      },
      keep: async (page, step) => {
        const kept = await this.keep(ws, page, step);
        read = kept.read;
        return kept;
      },
      onCommitted: async (record) => {
        const note = record.note as Note;
        ws.pages.push(record);
        ws.items.push(...read);
        ws.firstKnown = note.firstKnown;
        ws.ended = note.ended;
        this.calls += record.attempts;
        this.credits += record.credits;
        await d.store.progressRun(d.runId, { calls: this.calls, credits: this.credits });
        d.onPage?.({
          walk: w.key,
          items: record.kept,
          credits: record.credits,
          calls: record.attempts,
          runCredits: this.credits,
        });
      },
      // what the source held for this walk alone (its paging guard's ids) goes with it
    }).finally(() => d.source.endWalk?.(walkId));
    if (outcome.done) {
      ws.ended = true;
      return true;
    }
    switch (outcome.reason) {
      case 'stop':
        ws.ended = true;
        return true;
      case 'unreadable':
        ws.ended = true;
        ws.unavailable = true;
        return true;
      case 'cancelled':
        this.status = 'stopped';
        this.message = STOPPED;
        return false;
      case 'cap':
        this.status = 'capped';
        this.message = `Stopped at ${outcome.cap.name}: the next page could cost up to ${outcome.cap.cost} credits and ${Math.max(0, Math.floor(outcome.cap.left))} are left.`;
        return false;
      case 'error': {
        // the journal could not be written: the run is not settled from what it cannot keep, it is left open
        // and picked up later from where its journal stands
        if (isSkeinError(outcome.error) && outcome.error.code === 'write-failed') throw outcome.error;
        const rateLimited = isSkeinError(outcome.error) && outcome.error.code === 'rate-limited';
        this.status = 'failed';
        this.message = `${outcome.message}${rateLimited ? ' The next run tries again.' : ''}`;
        return false;
      }
    }
  }
}
