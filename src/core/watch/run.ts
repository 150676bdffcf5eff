/**
 * One run of a watch. Its walks, in order: the probe (a batch lookup: which targets changed), each target's
 * listing from its newest item until it meets what the project already held (plus an overlap), the holes an
 * earlier run left (read on from where it stopped), the re-checks by id of what went missing, and the re-reads
 * of recent posts' counters. Every page is journaled (export's journal: a page bought is never bought again,
 * a killed run is picked up from its journal) after the answer is written to the project; the caps are
 * checked before each page against its largest possible cost. What the run changes (presence, counters,
 * gaps, the watch's state) is written in one transaction at its end, from the journal.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import { creditsFor, type PriceTable } from '../../shared/api/pricing';
import type { OperationId } from '../../shared/api/catalog';
import { isSkeinError } from '../../shared/errors';
import type { RunStatus, WatchSpec } from '../../shared/ipc/watch';
import type { PresenceKind, RunOutcome, RunRecord, WatchRecord } from './tables/records';
import { Journal, type FailedFetch, type JournalItem, type PageRecord, type PageSource } from '../export';
import type { Clock } from '../ports';
import { KINDS, type KindSpec } from './kinds';
import { observeCommunity, observePost, observeSpace, observeTrends, observeUser, type Observed } from './observe';
import type { WatchState } from './state';
import type { WatchProject } from './store';

const DAY_MS = 86_400_000;
const BATCH = 100;
/** a page the largest answers of its operation have held, at least (a cap's estimate) */
const TYPICAL_PAGE = 20;
/** the attempts one page may take (its retries of an error are charged the minimum each) */
const ATTEMPTS = 4;
/** re-checks of something gone, after 1, 7 and 30 days; then no more */
const RECHECK_AFTER_MS = [DAY_MS, 7 * DAY_MS, 30 * DAY_MS];

export type WalkRule = 'until-known' | 'all' | 'single';
export type Phase = 'probe' | 'fetch' | 'backfill' | 'recheck' | 'track';

export interface Walk {
  key: string;
  phase: Phase;
  operation: OperationId;
  params: Record<string, string | number | boolean>;
  startCursor: string | null;
  /** the target it reads (listings, snapshots) */
  target: string | null;
  /** the ids a batch lookup asks for */
  asked: { kind: PresenceKind; ids: string[] } | null;
  rule: WalkRule;
  /** the target's first read: its starting point */
  first: boolean;
  /** nothing older than this is read */
  floor: number | null;
  maxPages: number | null;
}

/** what a walk's pages carry in the journal, for a run picked up again */
interface Note {
  walk: string;
  ended: boolean;
  /** the walk's position of the first item already held, or null */
  firstKnown: number | null;
}

interface ReadItem {
  observed: Observed | null;
  at: number;
  /** a space's participants (who is new since the last run) */
  participants?: string[];
}

interface WalkState {
  walk: Walk;
  pages: PageRecord[];
  items: ReadItem[];
  ended: boolean;
  /** the target could not be read (not found: suspended, deleted) */
  unavailable: boolean;
  firstKnown: number | null;
}

export interface RunInput {
  watch: WatchRecord;
  spec: WatchSpec;
  state: WatchState;
  /** the run as started (or as left running by a runner that stopped) */
  run: RunRecord;
  resumed: boolean;
  /** where its journal is */
  journalPath: string;
  /** spent by the watch's other runs: in the 24 hours before the run, and in all */
  spentBefore: { lastDay: number; total: number };
  /** when the next run is due, written with the run's end */
  nextDue: number | null;
}

export interface RunDeps {
  project: WatchProject;
  source: PageSource;
  clock: Clock;
  prices: PriceTable;
  /** a clean stop (quit, SIGTERM): the page in flight is kept, then the run ends `stopped` */
  stop: AbortSignal;
  /** a hard stop that reaches the request in flight */
  abort?: AbortSignal;
  onPage?: (p: { walk: string; items: number; credits: number; calls: number; runCredits: number }) => void;
}

export interface RunResult {
  status: RunStatus;
  outcome: RunOutcome;
  message: string | null;
}

/** the journal of a run, beside the project (`<project>-watch/run-<id>.log`) */
export function journalPathFor(location: string, runId: number): string {
  return `${location}-watch/run-${runId}.log`;
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
    items = Math.max(TYPICAL_PAGE, await largest(w.operation));
  const full = creditsFor({ operation: w.operation, httpStatus: 200, items, idsAsked: asked }, prices);
  return Math.max(full, prices.minimumPerCall * ATTEMPTS);
}

export async function executeRun(input: RunInput, deps: RunDeps): Promise<RunResult> {
  const { spec, state, run } = input;
  const store = deps.project.store;
  const kind = KINDS[spec.kind];
  const started = run.startedAt;
  const walks = new Map<string, WalkState>();
  const order: WalkState[] = [];
  const failures: FailedFetch[] = [];

  await mkdir(input.journalPath.slice(0, input.journalPath.lastIndexOf('/')), { recursive: true });
  // a run picked up again: its pages and failures, by walk (walks are planned again in the same order)
  const replayPages: PageRecord[] = [];
  const journal = await Journal.open(input.journalPath, {
    onPage: (page) => replayPages.push(page),
    onFailure: (f) => failures.push(f),
  });
  const replayItems: JournalItem[] = [];
  if (replayPages.length > 0) for await (const item of journal.items()) replayItems.push(item);
  const pagesByWalk = new Map<string, Array<{ page: PageRecord; raws: unknown[] }>>();
  {
    let at = 0;
    for (const page of replayPages) {
      const raws = replayItems.slice(at, at + page.kept).map((i) => {
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
  }
  let runCalls = replayPages.reduce((n, p) => n + p.attempts, 0) + failures.reduce((n, f) => n + f.calls, 0);
  let runCredits = replayPages.reduce((n, p) => n + p.credits, 0) + failures.reduce((n, f) => n + f.credits, 0);

  let status: RunStatus = 'done';
  let message: string | null = null;
  /** the targets the run meant to read (the probe's changed ones): one left unread keeps its old count */
  const planned = new Set<string>();

  const capLeft = () => {
    const { caps } = spec;
    const left = [
      { name: 'the run’s cap', left: caps.perRun - runCredits },
      { name: 'the daily cap', left: caps.perDay - input.spentBefore.lastDay - runCredits },
      { name: 'the total cap', left: caps.total - input.spentBefore.total - runCredits },
    ];
    return left.reduce((a, b) => (b.left < a.left ? b : a));
  };

  /** the walk's state, from the journal when the run is picked up again */
  function stateOf(w: Walk, index: number): WalkState {
    const existing = walks.get(w.key);
    if (existing) return existing;
    const ws: WalkState = { walk: w, pages: [], items: [], ended: false, unavailable: false, firstKnown: null };
    for (const { page, raws } of pagesByWalk.get(w.key) ?? []) {
      ws.pages.push(page);
      ws.items.push(...readItems(w.operation, raws, page.fetchedAt));
      const note = page.note as Note;
      ws.ended = note.ended;
      ws.firstKnown = note.firstKnown;
    }
    const failed = failures.find((f) => f.request === index && f.code === 'not-found');
    if (failed) {
      ws.ended = true;
      ws.unavailable = true;
    }
    walks.set(w.key, ws);
    order.push(ws);
    return ws;
  }

  /** reads a walk's pages until it ends, or the run must stop; false when the run stops */
  async function walkOne(w: Walk): Promise<boolean> {
    const ws = walks.get(w.key) ?? stateOf(w, order.length);
    while (!ws.ended) {
      const last = ws.pages.at(-1);
      const cursor = last ? last.nextCursor : w.startCursor;
      if (last && (!last.hasNextPage || !cursor)) {
        ws.ended = true;
        break;
      }
      if (deps.stop.aborted) {
        status = 'stopped';
        message = 'The runner was stopped during the run; the next run reads on from where it left off.';
        return false;
      }
      const estimate = await pageEstimate(w, deps.prices, store.largestPage);
      const cap = capLeft();
      if (estimate > cap.left) {
        status = 'capped';
        message = `Stopped at ${cap.name}: the next page could cost up to ${estimate} credits and ${Math.max(0, Math.floor(cap.left))} are left.`;
        return false;
      }
      let page;
      try {
        page = await deps.source.fetchPage({
          operation: w.operation,
          params: w.params,
          cursor,
          walkId: `watch:${run.id}:${w.key}`,
          signal: deps.abort ?? deps.stop,
          cancelWaits: deps.stop,
        });
      } catch (error) {
        const d = (isSkeinError(error) ? error.details : undefined) as { calls?: number; credits?: number } | undefined;
        const failure: FailedFetch = {
          request: order.indexOf(ws),
          cursor,
          at: deps.clock.now(),
          calls: typeof d?.calls === 'number' ? d.calls : 0,
          credits: typeof d?.credits === 'number' ? d.credits : 0,
          code: isSkeinError(error) ? error.code : 'internal',
          message: error instanceof Error ? error.message : String(error),
        };
        await journal.appendFailure(failure);
        failures.push(failure);
        runCalls += failure.calls;
        runCredits += failure.credits;
        await store.progressRun(run.id, { calls: runCalls, credits: runCredits });
        if (failure.code === 'not-found' && w.target !== null) {
          // the target is not there (suspended, deleted, a wrong id): the run goes on without it
          ws.ended = true;
          ws.unavailable = true;
          return true;
        }
        if (failure.code === 'validation' && w.phase === 'backfill') {
          // the service no longer takes the place a read was left off: that hole cannot be filled
          ws.ended = true;
          ws.unavailable = true;
          return true;
        }
        if (failure.code === 'cancelled' || deps.stop.aborted) {
          status = 'stopped';
          message = 'The runner was stopped during the run; the next run reads on from where it left off.';
        } else {
          status = 'failed';
          message = `${failure.message}${failure.code === 'rate-limited' ? ' The next run tries again.' : ''}`;
        }
        return false;
      }
      const read = readItems(w.operation, page.rawItems, page.fetchedAt);
      const observed = read.map((r) => r.observed);
      let firstKnown = ws.firstKnown;
      let ended = false;
      if (w.rule === 'single') ended = true;
      if (w.rule === 'until-known' || w.rule === 'all') {
        const ids = observed.filter((o): o is Observed => o !== null && o.kind === 'post').map((o) => o.id);
        const known = new Set(ids.length ? await store.known(input.watch.id, 'post', ids, started) : []);
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
          position >= firstKnown + 1 + spec.options.overlap
        )
          ended = true;
        if (w.floor !== null && observed.some((o) => o && o.createdAt !== null && o.createdAt < (w.floor as number)))
          ended = true;
        if (w.maxPages !== null && pagesRead >= w.maxPages) ended = true;
      }
      const record: PageRecord = {
        request: order.indexOf(ws),
        cursor,
        nextCursor: page.paging?.nextCursor ?? null,
        hasNextPage: page.paging ? page.paging.hasNextPage : null,
        fetchedAt: page.fetchedAt,
        fromCache: page.fromCache,
        httpStatus: page.httpStatus,
        credits: page.credits,
        attempts: page.attempts,
        received: page.received,
        kept: page.rawItems.length,
        duplicates: page.duplicatesRemoved,
        dropped: [...page.dropped],
        notFound: [...page.notFound],
        stop: page.paging?.stop ?? null,
        note: { walk: w.key, ended, firstKnown } satisfies Note,
      };
      const items: JournalItem[] = page.rawItems.map((raw, i) => ({
        id: observed[i]?.id ?? null,
        position: 'null',
        raw: JSON.stringify(raw),
      }));
      // the answer is in the project before its page is in the journal
      await store.flush();
      await journal.appendPage(items, record);
      ws.pages.push(record);
      ws.items.push(...read);
      ws.firstKnown = firstKnown;
      ws.ended = ended;
      runCalls += page.attempts;
      runCredits += page.credits;
      await store.progressRun(run.id, { calls: runCalls, credits: runCredits });
      deps.onPage?.({
        walk: w.key,
        items: page.rawItems.length,
        credits: page.credits,
        calls: page.attempts,
        runCredits,
      });
    }
    return true;
  }

  const seenIds = () => {
    const ids = new Set<string>();
    for (const ws of order) for (const i of ws.items) if (i.observed) ids.add(`${i.observed.kind}:${i.observed.id}`);
    return ids;
  };

  try {
    if (input.resumed) await store.progressRun(run.id, { resumed: true });
    const plan = planner(input, kind);
    let going = true;
    // 1. the probe
    for (const w of plan.probe()) if (going) going = await walkOne(w);
    // 2. each target's listing (or snapshot), 3. holes
    const fetchWalks = going ? plan.fetch(order) : [];
    for (const w of fetchWalks) planned.add(w.target ?? w.key);
    for (const w of fetchWalks) if (going) going = await walkOne(w);
    if (going) for (const w of plan.backfill()) if (going) going = await walkOne(w);
    // 4. re-checks of what went missing, 5. counters of recent posts
    if (going) {
      const due = await store.presenceOf(input.watch.id, { statuses: ['missing', 'gone'], dueBy: started });
      for (const w of plan.recheck(due, seenIds())) if (going) going = await walkOne(w);
    }
    if (going && spec.options.trackDays > 0 && state.runs % spec.options.trackEvery === 0) {
      const recent = await store.presenceOf(input.watch.id, {
        kind: 'post',
        statuses: ['present', 'returned'],
        createdSince: started - spec.options.trackDays * DAY_MS,
      });
      const rechecking = new Set(
        order.filter((o) => o.walk.phase === 'recheck').flatMap((o) => o.walk.asked?.ids ?? []),
      );
      for (const w of plan.track(recent, seenIds(), rechecking)) if (going) going = await walkOne(w);
    }
    const outcome = await settle({ input, deps, order, planned, status, message, runCalls, runCredits });
    await store.finishRun(outcome);
    await journal.close();
    await rm(input.journalPath, { force: true });
    return { status, outcome, message };
  } catch (error) {
    await journal.close().catch(() => undefined);
    throw error;
  }
}

/** The walks of each phase, planned the same way when a run is picked up again. */
function planner(input: RunInput, kind: KindSpec) {
  const { spec, state } = input;
  const targets = spec.targets;
  const tstate = (t: string) => state.targets[t] ?? {};
  const listingWalk = (t: string, key: string, phase: Phase, startCursor: string | null): Walk => {
    const listing = kind.listing as NonNullable<KindSpec['listing']>;
    const first = tstate(t).baselineAt === undefined;
    const floor = Math.max(tstate(t).floor ?? -Infinity, spec.schedule.from ?? -Infinity);
    return {
      key,
      phase,
      operation: listing.operation,
      params: listing.params(t),
      startCursor,
      target: t,
      asked: null,
      rule: listing.order === 'newest' ? 'until-known' : 'all',
      first,
      floor: Number.isFinite(floor) ? floor : null,
      maxPages: first ? spec.options.firstPages : null,
    };
  };
  const batches = (phase: Phase, prefix: string, operation: 'usersByIds' | 'postsByIds', ids: string[]): Walk[] => {
    const out: Walk[] = [];
    for (let i = 0; i < ids.length; i += BATCH) {
      const chunk = ids.slice(i, i + BATCH);
      out.push({
        key: `${prefix}:${i / BATCH}`,
        phase,
        operation,
        params: operation === 'usersByIds' ? { userIds: chunk.join(',') } : { tweet_ids: chunk.join(',') },
        startCursor: null,
        target: null,
        asked: { kind: operation === 'usersByIds' ? 'user' : 'post', ids: chunk },
        rule: 'single',
        first: false,
        floor: null,
        maxPages: null,
      });
    }
    return out;
  };
  const LIST = 'list';
  return {
    probe: (): Walk[] =>
      spec.strategy === 'probe' && kind.probe ? batches('probe', 'probe', kind.probe.operation, targets) : [],
    fetch: (done: readonly WalkState[]): Walk[] => {
      if (kind.snapshot) {
        const snap = kind.snapshot;
        return targets.map((t) => ({
          key: `snap:${t}`,
          phase: 'fetch' as const,
          operation: snap.operation,
          params: snap.params(t),
          startCursor: null,
          target: t,
          asked: null,
          rule: 'single' as const,
          first: false,
          floor: null,
          maxPages: null,
        }));
      }
      if (spec.strategy === 'list' && spec.listId) {
        const first = tstate(LIST).baselineAt === undefined;
        return [
          {
            key: 'list',
            phase: 'fetch',
            operation: 'listTimeline',
            params: { listId: spec.listId },
            startCursor: null,
            target: null,
            asked: null,
            rule: 'until-known',
            first,
            floor: tstate(LIST).floor ?? null,
            maxPages: first ? spec.options.firstPages : null,
          },
        ];
      }
      const changed = changedTargets(input, kind, done);
      return changed.map((t) => listingWalk(t, `tl:${t}`, 'fetch', null));
    },
    backfill: (): Walk[] => {
      if (!kind.listing) return [];
      const keys = spec.strategy === 'list' ? [LIST] : targets;
      return keys.flatMap((t) => {
        const hole = tstate(t).hole;
        if (!hole) return [];
        if (t === LIST && spec.listId)
          return [
            {
              key: 'bf:list',
              phase: 'backfill' as const,
              operation: 'listTimeline' as const,
              params: { listId: spec.listId },
              startCursor: hole.cursor,
              target: null,
              asked: null,
              rule: 'until-known' as const,
              first: false,
              floor: tstate(LIST).floor ?? null,
              maxPages: null,
            },
          ];
        return [{ ...listingWalk(t, `bf:${t}`, 'backfill', hole.cursor), first: false, maxPages: null }];
      });
    },
    recheck: (due: ReadonlyArray<{ kind: PresenceKind; id: string }>, seen: ReadonlySet<string>): Walk[] => {
      const left = due.filter((p) => !seen.has(`${p.kind}:${p.id}`));
      return [
        ...batches(
          'recheck',
          'rc:post',
          'postsByIds',
          left.filter((p) => p.kind === 'post').map((p) => p.id),
        ),
        ...batches(
          'recheck',
          'rc:user',
          'usersByIds',
          left.filter((p) => p.kind === 'user').map((p) => p.id),
        ),
      ];
    },
    track: (
      recent: ReadonlyArray<{ id: string }>,
      seen: ReadonlySet<string>,
      rechecking: ReadonlySet<string>,
    ): Walk[] =>
      batches(
        'track',
        'tr',
        'postsByIds',
        recent.map((p) => p.id).filter((id) => !seen.has(`post:${id}`) && !rechecking.has(id)),
      ),
  };
}

/** the targets whose listing this run reads: all of them, or (probe) those whose count changed, and every few runs all */
function changedTargets(input: RunInput, kind: KindSpec, done: readonly WalkState[]): string[] {
  const { spec, state } = input;
  if (spec.strategy !== 'probe' || !kind.probe) return spec.targets;
  const fullRead = state.runs % spec.options.fullEvery === 0;
  const counted = new Map<string, number | undefined>();
  for (const ws of done)
    if (ws.walk.phase === 'probe')
      for (const i of ws.items) if (i.observed) counted.set(i.observed.id, i.observed.counts[kind.probe.count]);
  return spec.targets.filter((t) => {
    if (!counted.has(t)) return false; // not returned: missing (suspended, deleted), nothing to read
    const before = state.targets[t];
    return fullRead || before?.count === undefined || before.count !== counted.get(t) || !!before.hole;
  });
}

interface SettleInput {
  input: RunInput;
  deps: RunDeps;
  order: WalkState[];
  planned: ReadonlySet<string>;
  status: RunStatus;
  message: string | null;
  runCalls: number;
  runCredits: number;
}

/** What the run changes, from what it read: presence, counters, gaps, the watch's state. */
async function settle(s: SettleInput): Promise<RunOutcome> {
  const { input, deps, order } = s;
  const { spec, run } = input;
  const store = deps.project.store;
  const kind = KINDS[spec.kind];
  const watchId = input.watch.id;
  const started = run.startedAt;
  const endedAt = deps.clock.now();
  const state: WatchState = structuredClone(input.state);
  const iso = (t: number) => new Date(t).toISOString().replace('.000Z', 'Z');

  const seen: RunOutcome['seen'] = [];
  const missing: RunOutcome['missing'] = [];
  const rechecked: RunOutcome['rechecked'] = [];
  const counters: RunOutcome['counters'] = [];
  const seenKeys = new Set<string>();
  const targetSet = new Set(spec.targets);
  const handleTargets = spec.kind === 'mentions';

  const addCounters = (o: Observed, at: number, id = o.id) => {
    for (const [metric, value] of Object.entries(o.counters)) counters.push({ kind: o.kind, id, metric, at, value });
  };
  const addSeen = (
    kind: PresenceKind,
    id: string,
    target: string | null,
    createdAt: number | null,
    at: number,
    baseline: boolean,
  ) => {
    const key = `${kind}:${id}`;
    if (seenKeys.has(key)) return;
    seenKeys.add(key);
    seen.push({ kind, id, target, createdAt, at, baseline });
  };

  /** the target a listed post belongs to */
  const targetOf = (ws: WalkState, o: Observed): string | null => {
    if (ws.walk.operation === 'listTimeline' && spec.strategy === 'list')
      return o.author && targetSet.has(o.author) ? o.author : null;
    if (handleTargets) return ws.walk.target?.toLowerCase() ?? null;
    return ws.walk.target;
  };

  const completed = new Set<string>();
  let rechecks = 0;
  let goneNow = 0;
  let returnedNow = 0;
  const newNames: string[] = [];

  for (const ws of order) {
    const w = ws.walk;
    if (w.phase === 'probe' && w.asked) {
      const got = new Map<string, { o: Observed; at: number }>();
      for (const i of ws.items) if (i.observed) got.set(i.observed.id, { o: i.observed, at: i.at });
      for (const id of w.asked.ids) {
        const hit = got.get(id);
        if (hit) {
          addSeen('user', id, id, hit.o.createdAt, hit.at, false);
          addCounters(hit.o, hit.at);
        } else if (ws.pages.length > 0) {
          missing.push({
            kind: 'user',
            id,
            at: started,
            reason: 'not returned by the batch lookup (suspended, deleted, or protected)',
          });
          completed.add(id);
        }
      }
      continue;
    }
    if (w.phase === 'recheck' && w.asked) {
      if (ws.pages.length === 0) continue;
      const got = new Map<string, { o: Observed; at: number }>();
      for (const i of ws.items) if (i.observed) got.set(i.observed.id, { o: i.observed, at: i.at });
      const before = await store.presenceOf(watchId, {
        kind: w.asked.kind,
        statuses: ['missing', 'gone'],
        dueBy: started,
      });
      const byId = new Map(before.map((p) => [p.id, p]));
      for (const id of w.asked.ids) {
        const p = byId.get(id);
        const hit = got.get(id);
        rechecks++;
        if (hit) {
          addCounters(hit.o, hit.at);
          if (p?.status === 'gone') returnedNow++;
          rechecked.push({
            kind: w.asked.kind,
            id,
            at: hit.at,
            found: true,
            reason:
              p?.status === 'gone'
                ? `back: found when asked by id on ${iso(hit.at)}`
                : 'found when asked by id (it was left out of a listing)',
            nextCheck: null,
          });
        } else {
          const n = (p?.rechecks ?? 0) + 1;
          const at = ws.pages[0]?.fetchedAt ?? started;
          const after = RECHECK_AFTER_MS[n - 1];
          if (p?.status === 'missing') goneNow++;
          rechecked.push({
            kind: w.asked.kind,
            id,
            at,
            found: false,
            reason: `not returned when asked by id (${n} re-check${n === 1 ? '' : 's'})`,
            nextCheck: after === undefined ? null : at + after,
          });
        }
      }
      continue;
    }
    if (w.phase === 'track' && w.asked) {
      if (ws.pages.length === 0) continue;
      const got = new Map<string, { o: Observed; at: number }>();
      for (const i of ws.items) if (i.observed) got.set(i.observed.id, { o: i.observed, at: i.at });
      for (const id of w.asked.ids) {
        const hit = got.get(id);
        if (hit) {
          addSeen('post', id, null, hit.o.createdAt, hit.at, false);
          addCounters(hit.o, hit.at);
        } else
          missing.push({
            kind: 'post',
            id,
            at: ws.pages[0]?.fetchedAt ?? started,
            reason: 'not returned when its counters were read again by id',
          });
      }
      continue;
    }
    // listings and snapshots
    if (kind.snapshot && w.target) {
      const t = w.target;
      if (ws.unavailable || ws.ended) completed.add(t);
      const at = ws.items[0]?.at ?? started;
      if (spec.kind === 'trends') {
        const names = ws.items.map((i) => i.observed?.id).filter((n): n is string => !!n);
        if (names.length) {
          const before = new Set(state.names[t] ?? []);
          newNames.push(...names.filter((n) => !before.has(n)));
          state.names[t] = names;
          for (const i of ws.items) if (i.observed) addCounters(i.observed, i.at, `${t}:${i.observed.id}`);
        }
      } else if (spec.kind === 'space') {
        const read = ws.pages.length ? ws.items[0] : undefined;
        if (read?.observed) addCounters(read.observed, read.at, t);
        const people = read?.participants ?? [];
        const before = new Set(state.names[t] ?? []);
        newNames.push(...people.filter((p) => !before.has(p)));
        state.names[t] = [...new Set([...(state.names[t] ?? []), ...people])].slice(-5_000);
      } else if (ws.items[0]?.observed) addCounters(ws.items[0].observed, at, t);
      continue;
    }
    // a listing: what it read, what it expected and did not read, where it was left off
    const spanItems = ws.items.filter((i) => i.observed?.kind === 'post');
    for (const i of spanItems) {
      const o = i.observed as Observed;
      if (o.id === w.target) continue; // a conversation's first post
      const target = targetOf(ws, o);
      addCounters(o, i.at);
      // a post made before the watch began is never new: a first read's posts are the starting point, and an
      // older post a later read meets (another was deleted above it, or the page reached further) is seen,
      // not new; a post of unknown time is the starting point on a first read, new afterwards
      const baseline = o.createdAt === null ? w.first : o.createdAt < input.watch.createdAt;
      if (target !== null || spec.strategy !== 'list') addSeen('post', o.id, target, o.createdAt, i.at, baseline);
    }
    const key = w.key.startsWith('bf:') ? w.key.slice(3) : w.key.startsWith('tl:') ? w.key.slice(3) : w.key;
    const stateKey = key === 'list' ? 'list' : (w.target ?? key);
    const ts = (state.targets[stateKey] ??= {});
    if (ws.unavailable) {
      if (w.phase === 'backfill') ts.hole = null;
      else if (w.target && spec.kind === 'accounts')
        missing.push({
          kind: 'user',
          id: w.target,
          at: started,
          reason: 'its timeline was not found (suspended, deleted, or protected)',
        });
      continue;
    }
    if (ws.ended) {
      if (w.first) {
        ts.baselineAt = started;
        const times = spanItems.map((i) => i.observed?.createdAt).filter((t): t is number => typeof t === 'number');
        if (times.length) ts.floor = Math.min(...times);
      }
      if (w.phase === 'backfill' || (w.phase === 'fetch' && !ts.hole)) {
        ts.hole = null;
        if (spec.strategy === 'list') for (const t of spec.targets) completed.add(t);
        else if (w.target) completed.add(w.target);
      }
    } else if (ws.pages.length > 0) {
      const next = ws.pages.at(-1)?.nextCursor;
      if (next) ts.hole = { cursor: next, since: started };
    }
    // missing: what this target had that the read covered and did not return
    const times = spanItems.map((i) => i.observed?.createdAt).filter((t): t is number => typeof t === 'number');
    const wholeListing = w.rule === 'all' && ws.ended;
    if (w.phase === 'fetch' && (times.length > 0 || wholeListing)) {
      const spanTargets =
        spec.strategy === 'list' ? spec.targets : w.target ? [handleTargets ? w.target.toLowerCase() : w.target] : [];
      const expected = await store.presenceOf(watchId, {
        kind: 'post',
        targets: spanTargets,
        statuses: ['present', 'returned'],
        ...(wholeListing ? {} : { createdSince: Math.min(...times) }),
      });
      const readAt = ws.pages[0]?.fetchedAt ?? started;
      for (const p of expected)
        if (!seenKeys.has(`post:${p.id}`))
          missing.push({
            kind: 'post',
            id: p.id,
            at: readAt,
            reason: `left out of ${w.operation === 'listTimeline' ? 'the list’s timeline' : `the listing of ${p.target ?? 'its target'}`} read at ${iso(readAt)}`,
          });
    }
  }

  // the probe's counts, for the targets read (or found unchanged) in full
  if (spec.strategy === 'probe' && kind.probe) {
    const readTargets = new Set(order.filter((o) => o.walk.phase === 'fetch' && o.ended).map((o) => o.walk.target));
    for (const ws of order) {
      if (ws.walk.phase !== 'probe') continue;
      for (const i of ws.items) {
        const o = i.observed;
        if (!o || !targetSet.has(o.id)) continue;
        const count = o.counts[kind.probe.count];
        const ts = (state.targets[o.id] ??= {});
        const fetched = s.planned.has(o.id);
        if (!fetched || readTargets.has(o.id)) {
          if (count !== undefined) ts.count = count;
          if (!fetched && !ts.hole) completed.add(o.id);
        }
      }
    }
  }

  // new: read for the first time by this watch, past its starting point
  const candidates = seen.filter((x) => !x.baseline && x.kind === 'post');
  const held = new Set(
    candidates.length
      ? await store.known(
          watchId,
          'post',
          candidates.map((x) => x.id),
          0,
        )
      : [],
  );
  const newItems =
    spec.kind === 'trends' || spec.kind === 'space'
      ? newNames.length
      : candidates.filter((x) => !held.has(x.id)).length;

  // gaps: open ones lose the targets completed; a run that stopped short leaves one of its own
  const open = await store.gaps(watchId, true);
  const progress = open
    .map((g) => ({ id: g.id, pending: g.pending.filter((t) => !completed.has(t)), before: g.pending.length }))
    .filter((g) => g.pending.length !== g.before)
    .map(({ id, pending }) => ({ id, pending }));
  const add: RunOutcome['gaps']['add'] = [];
  if (s.status !== 'done') {
    const pending = spec.targets.filter((t) => !completed.has(t));
    if (pending.length > 0)
      add.push({
        watch: watchId,
        from: input.state.lastRunAt ?? input.watch.createdAt,
        to: started,
        reason: s.status === 'capped' ? 'cap' : s.status === 'failed' ? 'failed' : 'stopped',
        detail: `${s.message ?? 'The run stopped early.'} ${pending.length} of ${spec.targets.length} targets are read back by the next runs, within their caps.`,
        recordedAt: endedAt,
        pending,
      });
  }

  state.runs += 1;
  state.lastRunAt = started;
  const asked = describe(order, spec);
  const outcomeStatus = s.status;
  return {
    run: {
      id: run.id,
      status: outcomeStatus,
      endedAt,
      message: s.message,
      calls: s.runCalls,
      credits: s.runCredits,
      newItems,
      seenItems: seen.length,
      rechecked: rechecks,
      gone: goneNow,
      returned: returnedNow,
      asked,
    },
    seen,
    missing: missing.filter((m) => !seenKeys.has(`${m.kind}:${m.id}`)),
    rechecked,
    counters,
    gaps: { add, progress },
    watch: { id: watchId, state: JSON.stringify(state), nextDue: input.nextDue },
  };
}

/** "probe 20 accounts · 3 timelines (4 pages) · 2 re-checks" */
function describe(order: readonly WalkState[], spec: WatchSpec): string {
  const parts: string[] = [];
  const count = (phase: Phase) => order.filter((o) => o.walk.phase === phase);
  const pages = (list: WalkState[]) => list.reduce((n, o) => n + o.pages.length, 0);
  const probe = count('probe');
  if (probe.length) parts.push(`probe of ${probe.reduce((n, o) => n + (o.walk.asked?.ids.length ?? 0), 0)}`);
  const fetch = count('fetch');
  if (fetch.length) {
    const noun = KINDS[spec.kind].snapshot ? 'answer' : spec.strategy === 'list' ? 'list timeline' : 'listing';
    parts.push(
      `${fetch.length} ${noun}${fetch.length === 1 ? '' : 's'} (${pages(fetch)} page${pages(fetch) === 1 ? '' : 's'})`,
    );
  }
  const backfill = count('backfill');
  if (backfill.length) parts.push(`${backfill.length} read back (${pages(backfill)} pages)`);
  const recheck = count('recheck');
  if (recheck.length) parts.push(`re-check of ${recheck.reduce((n, o) => n + (o.walk.asked?.ids.length ?? 0), 0)}`);
  const track = count('track');
  if (track.length) parts.push(`counters of ${track.reduce((n, o) => n + (o.walk.asked?.ids.length ?? 0), 0)} posts`);
  return parts.join(' · ') || 'nothing';
}

/** a runner's identity in the project (the lock) and on its runs */
export function newToken(): string {
  return randomUUID();
}
