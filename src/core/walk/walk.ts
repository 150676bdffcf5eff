/**
 * The one page walk under export and watch. Before each page: where the walk goes next (the walker says), the
 * caps (the first the page could pass stops the walk before it), a stop asked for. Then the page through
 * `PageSource`; a failed fetch becomes a record in the journal when its requests cost something (so a resume
 * counts them); a rate limit is waited out and the same page asked for again. A page becomes the walker's
 * items and record, appended to the journal in one write: a page counts only once the journal has it, so a
 * walk resumed from its journal never buys a page twice.
 */
import { toWriteError } from '../files/atomic-file';
import type { Clock } from '../ports';
import { capStop, type Budget } from './caps';
import { costly, failureOf, isCancel } from './failure';
import type { FailedFetch, Journal, JournalItem, PageRecord } from './journal';
import type { PageRequest, SourcePage } from './page-source';
import { NOT_WAITED, rateLimitWait } from './rate-limit';

/** a page the walk asks for: which of the walker's requests, from where */
export interface WalkStep {
  request: number;
  /** null for the first page */
  cursor: string | null;
}

/** where the walk goes next: a page, its end, or a stop of the walker's own (a paging guard's, a scope's) */
export type Next<S extends WalkStep, R extends string> =
  { page: S } | { done: true } | { done: false; stop: R; message?: string };

/** what the walker makes of a page: the items and the record the journal keeps */
export interface Kept {
  items: readonly JournalItem[];
  record: PageRecord;
  /** other work on the page (a live file's lines), done after its journal write is made and before it counts */
  alongside?: () => Promise<void>;
}

/** how the fetch is to be stopped and how it reports its own rate-limit waits */
export type FetchControls = Pick<PageRequest, 'signal' | 'cancelWaits' | 'onRateLimitWait' | 'beforeSend'>;

export interface PageWalker<S extends WalkStep, R extends string = string> {
  journal: Journal;
  clock: Clock;
  /** a clean stop (Cancel, a runner stopped): ends a wait at once, lets a request in flight arrive and be kept */
  signal: AbortSignal;
  /** a hard stop (quit, discard) that reaches the request in flight; default: `signal` */
  abort?: AbortSignal;
  next: () => Promise<Next<S, R>>;
  /** the caps as they stand before the page, in the order a stop names them */
  caps?: (step: S) => Promise<readonly Budget<R>[]> | readonly Budget<R>[];
  fetch: (step: S, controls: FetchControls) => Promise<SourcePage>;
  /** a failure the page cannot be read past (its target is gone): this walk ends there, the job goes on */
  unreadable?: (failure: FailedFetch, step: S) => boolean;
  /** a failure the journal now keeps */
  onFailure?: (failure: FailedFetch, step: S) => Promise<void> | void;
  keep: (page: SourcePage, step: S) => Promise<Kept>;
  /**
   * what a page's answer cost when it was bought: a page an earlier life of the walk asked for and was killed
   * before keeping comes back held (free) from the project, and its cost is this walk's all the same
   */
  priceOf?: (page: SourcePage, step: S) => number;
  /** the page is in the journal: it counts */
  onCommitted?: (record: PageRecord, step: S) => Promise<void> | void;
  /** a rate limit is being waited out until this time (epoch ms); null when the wait is over */
  onWait?: (until: number | null) => void;
}

export type WalkOutcome<R extends string = string> =
  | { done: true }
  | { done: false; reason: 'stop'; stop: R; message?: string }
  | { done: false; reason: 'cap'; cap: Budget<R> }
  | { done: false; reason: 'cancelled' }
  | { done: false; reason: 'unreadable'; failure: FailedFetch }
  | { done: false; reason: 'error'; error: unknown; message: string };

/** the journal is flushed to disk at most this often while pages arrive */
const SYNC_EVERY_MS = 1000;

const errorOutcome = (error: unknown) =>
  ({
    done: false,
    reason: 'error',
    error,
    message: error instanceof Error ? error.message : String(error),
  }) as const;

/** Walks pages until the walker's end, a cap, a stop or an error. */
export async function walkPages<S extends WalkStep, R extends string = string>(
  w: PageWalker<S, R>,
): Promise<WalkOutcome<R>> {
  const flush = behindFlush(w.journal, w.clock);
  let outcome: WalkOutcome<R>;
  try {
    outcome = await walk(w, flush);
  } finally {
    await flush.settled();
  }
  // a flush that failed behind the last page is the same trouble as one behind any other: said, not dropped
  flush.check();
  return outcome;
}

/**
 * The journal flushed to disk (for a crash of the machine) at most once a second, the walk going on while the
 * disk does it: waited for, the flush was a tenth of a fast walk's time. A flush that failed stops the walk at
 * its next page, as it did when it was waited for.
 */
function behindFlush(journal: Journal, clock: Clock) {
  let last = clock.now();
  let inFlight: Promise<void> | null = null;
  let failure: { error: unknown } | null = null;
  const check = () => {
    if (failure) throw toWriteError(failure.error, journal.path);
  };
  return {
    check,
    afterPage(): void {
      check();
      if (inFlight || clock.now() - last < SYNC_EVERY_MS) return;
      last = clock.now();
      inFlight = journal.sync().then(
        () => void (inFlight = null),
        (error: unknown) => {
          inFlight = null;
          failure = { error };
        },
      );
    },
    async settled(): Promise<void> {
      await inFlight;
    },
  };
}

async function walk<S extends WalkStep, R extends string>(
  w: PageWalker<S, R>,
  flush: ReturnType<typeof behindFlush>,
): Promise<WalkOutcome<R>> {
  const { journal, clock, signal } = w;
  let waited = NOT_WAITED;
  for (;;) {
    const next = await w.next();
    if (!('page' in next))
      return next.done ? next : { done: false, reason: 'stop', stop: next.stop, message: next.message };
    const step = next.page;
    const cap = capStop(w.caps ? await w.caps(step) : []);
    if (cap) return { done: false, reason: 'cap', cap };
    if (signal.aborted) return { done: false, reason: 'cancelled' };

    const asksBefore = journal.asksBefore(step.request, step.cursor);
    // said as the request leaves (after the limiter's wait, never for a page answered from what is held): a
    // walk killed after paying and before keeping the page still counts it
    const beforeSend = async () => {
      try {
        await journal.appendAsked({ request: step.request, cursor: step.cursor, at: clock.now() });
      } catch (e) {
        throw toWriteError(e, journal.path);
      }
    };
    const read = await fetchAndKeep(w, step, asksBefore, beforeSend);
    if ('error' in read) {
      const { error } = read;
      const failure = failureOf(error, step.request, step.cursor, clock.now());
      const unreadable = w.unreadable?.(failure, step) ?? false;
      // a failure the walk got past is kept too, so a walk resumed from the journal gets past it the same way
      if (costly(failure) || unreadable) {
        try {
          await journal.appendFailure(failure);
        } catch (e) {
          return errorOutcome(toWriteError(e, journal.path));
        }
        await w.onFailure?.(failure, step);
      }
      if (unreadable) return { done: false, reason: 'unreadable', failure };
      if (isCancel(error, signal) || w.abort?.aborted) return { done: false, reason: 'cancelled' };
      const wait = rateLimitWait(error, clock.now(), waited);
      if (wait === null) return errorOutcome(error);
      waited = { ms: waited.ms + wait, times: waited.times + 1 };
      w.onWait?.(clock.now() + wait);
      try {
        await clock.sleep(wait, signal);
      } catch {
        return { done: false, reason: 'cancelled' };
      } finally {
        w.onWait?.(null);
      }
      continue;
    }
    waited = NOT_WAITED;

    const { kept } = read;
    const appended = journal.appendPage(kept.items, kept.record);
    appended.catch(() => undefined); // awaited below
    await kept.alongside?.();
    try {
      await appended;
    } catch (error) {
      return errorOutcome(toWriteError(error, journal.path));
    }
    await w.onCommitted?.(kept.record, step);
    flush.afterPage();
  }
}

/**
 * The page, made what the journal keeps of it, or the fetch's error. The answer is held only in here: a long
 * walk (a hydration's million items) passes through one page at a time, never holding one while it is written.
 */
async function fetchAndKeep<S extends WalkStep, R extends string>(
  w: PageWalker<S, R>,
  step: S,
  asksBefore: readonly number[],
  beforeSend: () => Promise<void>,
): Promise<{ kept: Kept } | { error: unknown }> {
  let page: SourcePage;
  try {
    page = await w.fetch(step, {
      signal: w.abort ?? w.signal,
      cancelWaits: w.signal,
      // the client's own Retry-After waits within the fetch are the walk's waits too
      onRateLimitWait: w.onWait,
      beforeSend,
    });
  } catch (error) {
    return { error };
  }
  const bought = w.priceOf ? boughtBefore(asksBefore, page) : 0;
  if (bought > 0 && w.priceOf)
    page = {
      ...page,
      fromCache: false,
      credits: page.credits + bought * w.priceOf(page, step),
      attempts: page.attempts + bought,
    };
  return { kept: await w.keep(page, step) };
}

/**
 * How many of the asks earlier, killed lives of the walk made for this page to count as bought, at this
 * page's price. Held in the project since then: the ask that brought it bought it, and asks before it left
 * and lost their answers; asks after it were answered from the project, free. Bought afresh now: every
 * earlier ask lost its answer in flight. The service may have charged each (a request that left before the
 * kill reached it); one killed before its request left was not charged, and is counted all the same — spend is
 * recorded before the request, so the records never say less than the service charged.
 */
function boughtBefore(asks: readonly number[], page: SourcePage): number {
  if (asks.length === 0) return 0;
  const held = page.fromCache && page.credits === 0;
  return held ? asks.filter((at) => at <= page.fetchedAt).length : asks.length;
}

/** What the journal keeps of a page as the source sent it; the walker adds what is its own. */
export function pageRecord(page: SourcePage, step: WalkStep, kept: { kept: number; duplicates: number }): PageRecord {
  return {
    request: step.request,
    cursor: step.cursor,
    nextCursor: page.paging?.nextCursor ?? null,
    hasNextPage: page.paging ? page.paging.hasNextPage : null,
    fetchedAt: page.fetchedAt,
    fromCache: page.fromCache,
    httpStatus: page.httpStatus,
    credits: page.credits,
    attempts: page.attempts,
    received: page.received,
    kept: kept.kept,
    duplicates: kept.duplicates,
    dropped: [...page.dropped],
    notFound: [...page.notFound],
    stop: page.paging?.stop ?? null,
    ...(page.snapshot ? { snapshot: page.snapshot } : {}),
  };
}
