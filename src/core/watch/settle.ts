/**
 * What a run changes, from what it read: presence (seen, missing, re-checked), counters, gaps and the watch's
 * state, written by the store in one transaction. The few things settlement needs from the project (what was
 * due a re-check, what each listing was expected to return, which posts were held, the open gaps) are read up
 * front, in one place (`readForSettle`); `settle` then only computes.
 */
import type { PresenceQuery, PresenceRecord, GapRecord, RunOutcome, PresenceKind } from './tables/records';
import type { RunStatus, WatchSpec } from '../../shared/ipc/watch';
import type { RunRecord, WatchRecord } from './tables/records';
import { KINDS } from './kinds';
import type { Observed } from './observe';
import type { Phase, Walk } from './plan';
import type { WatchState } from './state';
import type { WatchStore } from './store';
import { nextRecheck } from './rules/presence';
import type { WalkState } from './walk';

/** the run as it ended: what it was asked to do and what its walks read */
export interface Settlement {
  watch: WatchRecord;
  spec: WatchSpec;
  state: WatchState;
  run: RunRecord;
  /** when the next run is due, written with the run's end */
  nextDue: number | null;
  order: readonly WalkState[];
  /** the targets the run meant to read (the probe's changed ones): one left unread keeps its old count */
  planned: ReadonlySet<string>;
  status: RunStatus;
  message: string | null;
  calls: number;
  credits: number;
  endedAt: number;
}

/** what settlement reads from the project, all before it computes */
export interface SettleReads {
  /** what was due a re-check (missing, gone), by `kind:id` */
  due: ReadonlyMap<string, PresenceRecord>;
  /** per listing walk (by key): the posts the project held as present across the span it read */
  expected: ReadonlyMap<string, readonly PresenceRecord[]>;
  /** of the posts the run read past their starting point, those the watch already held */
  held: ReadonlySet<string>;
  /** the watch's open gaps */
  openGaps: readonly GapRecord[];
}

/** a listing's posts are its target's (a mentions watch's target is a handle, compared lower-case) */
const handleTargets = (spec: WatchSpec) => spec.kind === 'mentions';

/** a listing: neither a batch lookup nor a snapshot */
const isListing = (spec: WatchSpec, w: Walk) => !w.asked && !(KINDS[spec.kind].snapshot && w.target);

/**
 * A post a listing read that is not new: a first read's posts are the starting point, and an older post a
 * later read meets (another was deleted above it, or the page reached further) is seen, not new; a post of
 * unknown time is the starting point on a first read, new afterwards.
 */
const isBaseline = (w: Walk, o: Observed, watch: WatchRecord) =>
  o.createdAt === null ? w.first : o.createdAt < watch.createdAt;

const postsOf = (ws: WalkState) => ws.items.filter((i) => i.observed?.kind === 'post');

const timesOf = (ws: WalkState) =>
  postsOf(ws)
    .map((i) => i.observed?.createdAt)
    .filter((t): t is number => typeof t === 'number');

/** what the project held as present across a listing's span, which the listing should have returned; null: no span */
function spanQuery(s: Settlement, ws: WalkState): PresenceQuery | null {
  const { spec } = s;
  const w = ws.walk;
  if (w.phase !== 'fetch' || !isListing(spec, w) || ws.unavailable) return null;
  const times = timesOf(ws);
  const wholeListing = w.rule === 'all' && ws.ended;
  if (times.length === 0 && !wholeListing) return null;
  const targets =
    spec.strategy === 'list' ? spec.targets : w.target ? [handleTargets(spec) ? w.target.toLowerCase() : w.target] : [];
  return {
    kind: 'post',
    targets,
    statuses: ['present', 'returned'],
    ...(wholeListing ? {} : { createdSince: Math.min(...times) }),
  };
}

/** Reads what settlement needs from the project, in one place, before it computes. */
export async function readForSettle(store: WatchStore, s: Settlement): Promise<SettleReads> {
  const watchId = s.watch.id;
  const rechecked = s.order.some((ws) => ws.walk.phase === 'recheck' && ws.walk.asked && ws.pages.length > 0);
  const due = rechecked
    ? await store.presenceOf(watchId, { statuses: ['missing', 'gone'], dueBy: s.run.startedAt })
    : [];
  const expected = new Map<string, readonly PresenceRecord[]>();
  for (const ws of s.order) {
    const q = spanQuery(s, ws);
    if (q) expected.set(ws.walk.key, await store.presenceOf(watchId, q));
  }
  // every post read past its starting point (a superset of those settlement counts as new)
  const candidates = new Set<string>();
  for (const ws of s.order) {
    const w = ws.walk;
    const listing = isListing(s.spec, w) && w.phase !== 'probe';
    if (!listing && w.phase !== 'track') continue;
    for (const i of postsOf(ws)) {
      const o = i.observed as Observed;
      if (w.phase === 'track' || !isBaseline(w, o, s.watch)) candidates.add(o.id);
    }
  }
  const held = new Set(candidates.size ? await store.known(watchId, 'post', [...candidates], 0) : []);
  const openGaps = await store.gaps(watchId, true);
  return { due: new Map(due.map((p) => [`${p.kind}:${p.id}`, p])), expected, held, openGaps };
}

/** What the run changes, from what it read and what was read up front. */
export function settle(s: Settlement, reads: SettleReads): RunOutcome {
  const { spec, run, order, endedAt } = s;
  const kind = KINDS[spec.kind];
  const watchId = s.watch.id;
  const started = run.startedAt;
  const state: WatchState = structuredClone(s.state);
  const iso = (t: number) => new Date(t).toISOString().replace('.000Z', 'Z');

  const seen: RunOutcome['seen'] = [];
  const missing: RunOutcome['missing'] = [];
  const rechecked: RunOutcome['rechecked'] = [];
  const counters: RunOutcome['counters'] = [];
  const seenKeys = new Set<string>();
  const targetSet = new Set(spec.targets);
  const handles = handleTargets(spec);

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
  const hits = (ws: WalkState) => {
    const got = new Map<string, { o: Observed; at: number }>();
    for (const i of ws.items) if (i.observed) got.set(i.observed.id, { o: i.observed, at: i.at });
    return got;
  };

  /** the target a listed post belongs to */
  const targetOf = (ws: WalkState, o: Observed): string | null => {
    if (ws.walk.operation === 'listTimeline' && spec.strategy === 'list')
      return o.author && targetSet.has(o.author) ? o.author : null;
    if (handles) return ws.walk.target?.toLowerCase() ?? null;
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
      const got = hits(ws);
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
      const got = hits(ws);
      for (const id of w.asked.ids) {
        const p = reads.due.get(`${w.asked.kind}:${id}`);
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
          if (p?.status === 'missing') goneNow++;
          rechecked.push({
            kind: w.asked.kind,
            id,
            at,
            found: false,
            reason: `not returned when asked by id (${n} re-check${n === 1 ? '' : 's'})`,
            nextCheck: nextRecheck(n, at),
          });
        }
      }
      continue;
    }
    if (w.phase === 'track' && w.asked) {
      if (ws.pages.length === 0) continue;
      const got = hits(ws);
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
    const spanItems = postsOf(ws);
    for (const i of spanItems) {
      const o = i.observed as Observed;
      if (o.id === w.target) continue; // a conversation's first post
      const target = targetOf(ws, o);
      addCounters(o, i.at);
      if (target !== null || spec.strategy !== 'list')
        addSeen('post', o.id, target, o.createdAt, i.at, isBaseline(w, o, s.watch));
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
        const times = timesOf(ws);
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
    const expected = reads.expected.get(w.key);
    if (expected) {
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
  const newItems =
    spec.kind === 'trends' || spec.kind === 'space'
      ? newNames.length
      : candidates.filter((x) => !reads.held.has(x.id)).length;

  // gaps: open ones lose the targets completed; a run that stopped short leaves one of its own
  const progress = reads.openGaps
    .map((g) => ({ id: g.id, pending: g.pending.filter((t) => !completed.has(t)), before: g.pending.length }))
    .filter((g) => g.pending.length !== g.before)
    .map(({ id, pending }) => ({ id, pending }));
  const add: RunOutcome['gaps']['add'] = [];
  if (s.status !== 'done') {
    const pending = spec.targets.filter((t) => !completed.has(t));
    if (pending.length > 0)
      add.push({
        watch: watchId,
        from: s.state.lastRunAt ?? s.watch.createdAt,
        to: started,
        reason: s.status === 'capped' ? 'cap' : s.status === 'failed' ? 'failed' : 'stopped',
        detail: `${s.message ?? 'The run stopped early.'} ${pending.length} of ${spec.targets.length} targets are read back by the next runs, within their caps.`,
        recordedAt: endedAt,
        pending,
      });
  }

  state.runs += 1;
  state.lastRunAt = started;
  return {
    run: {
      id: run.id,
      status: s.status,
      endedAt,
      message: s.message,
      calls: s.calls,
      credits: s.credits,
      newItems,
      seenItems: seen.length,
      rechecked: rechecks,
      gone: goneNow,
      returned: returnedNow,
      asked: describe(order, spec),
    },
    seen,
    missing: missing.filter((m) => !seenKeys.has(`${m.kind}:${m.id}`)),
    rechecked,
    counters,
    gaps: { add, progress },
    watch: { id: watchId, state: JSON.stringify(state), nextDue: s.nextDue },
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
