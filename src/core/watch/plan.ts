/**
 * What a run reads, walk by walk: the probe (a batch lookup: which targets changed), each target's listing
 * (or snapshot), the holes an earlier run left, the re-checks by id of what went missing, and the counters of
 * recent posts. Planned the same way when a run is picked up again, so its journal's pages find their walks.
 */
import type { OperationId } from '../../shared/api/catalog';
import type { WatchSpec } from '../../shared/ipc/watch';
import type { PresenceKind } from './tables/records';
import type { KindSpec } from './kinds';
import type { Observed } from './observe';
import type { WatchState } from './state';

/** a batch lookup asks for at most this many ids */
const BATCH = 100;
/** the list timeline's key (in the walks and in the watch's state) */
const LIST = 'list';

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

/** A walk: one page of an operation unless it says more (a listing's rule, its start, its bounds). */
export function walkOf(w: Pick<Walk, 'key' | 'phase' | 'operation' | 'params'> & Partial<Walk>): Walk {
  return {
    startCursor: null,
    target: null,
    asked: null,
    rule: 'single',
    first: false,
    floor: null,
    maxPages: null,
    ...w,
  };
}

/** The walks of each phase, planned the same way when a run is picked up again. */
export function planner(spec: WatchSpec, state: WatchState, kind: KindSpec) {
  const targets = spec.targets;
  const tstate = (t: string) => state.targets[t] ?? {};
  /** a listing read from its newest item (`fetch`), or from where an earlier run left it (`backfill`) */
  const listingWalk = (t: string, key: string, phase: Phase, startCursor: string | null): Walk => {
    const listing = kind.listing as NonNullable<KindSpec['listing']>;
    const first = phase === 'fetch' && tstate(t).baselineAt === undefined;
    const floor = Math.max(tstate(t).floor ?? -Infinity, spec.schedule.from ?? -Infinity);
    return walkOf({
      key,
      phase,
      operation: listing.operation,
      params: listing.params(t),
      startCursor,
      target: t,
      rule: listing.order === 'newest' ? 'until-known' : 'all',
      first,
      floor: Number.isFinite(floor) ? floor : null,
      maxPages: first ? spec.options.firstPages : null,
    });
  };
  /** the list's timeline, from its newest post or from where an earlier run left it */
  const listWalk = (listId: string, phase: Phase, startCursor: string | null): Walk => {
    const first = phase === 'fetch' && tstate(LIST).baselineAt === undefined;
    return walkOf({
      key: phase === 'fetch' ? LIST : `bf:${LIST}`,
      phase,
      operation: 'listTimeline',
      params: { listId },
      startCursor,
      rule: 'until-known',
      first,
      floor: tstate(LIST).floor ?? null,
      maxPages: first ? spec.options.firstPages : null,
    });
  };
  const batches = (phase: Phase, prefix: string, operation: 'usersByIds' | 'postsByIds', ids: string[]): Walk[] => {
    const out: Walk[] = [];
    for (let i = 0; i < ids.length; i += BATCH) {
      const chunk = ids.slice(i, i + BATCH);
      out.push(
        walkOf({
          key: `${prefix}:${i / BATCH}`,
          phase,
          operation,
          params: operation === 'usersByIds' ? { userIds: chunk.join(',') } : { tweet_ids: chunk.join(',') },
          asked: { kind: operation === 'usersByIds' ? 'user' : 'post', ids: chunk },
        }),
      );
    }
    return out;
  };
  return {
    probe: (): Walk[] =>
      spec.strategy === 'probe' && kind.probe ? batches('probe', 'probe', kind.probe.operation, targets) : [],
    /** `probed`: what the probe read (its counts say which targets changed) */
    fetch: (probed: readonly Observed[]): Walk[] => {
      const snap = kind.snapshot;
      if (snap) {
        return targets.map((t) =>
          walkOf({ key: `snap:${t}`, phase: 'fetch', operation: snap.operation, params: snap.params(t), target: t }),
        );
      }
      if (spec.strategy === 'list' && spec.listId) return [listWalk(spec.listId, 'fetch', null)];
      return changedTargets(spec, state, kind, probed).map((t) => listingWalk(t, `tl:${t}`, 'fetch', null));
    },
    backfill: (): Walk[] => {
      if (!kind.listing) return [];
      const keys = spec.strategy === 'list' ? [LIST] : targets;
      return keys.flatMap((t) => {
        const hole = tstate(t).hole;
        if (!hole) return [];
        if (t === LIST && spec.listId) return [listWalk(spec.listId, 'backfill', hole.cursor)];
        return [listingWalk(t, `bf:${t}`, 'backfill', hole.cursor)];
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
function changedTargets(spec: WatchSpec, state: WatchState, kind: KindSpec, probed: readonly Observed[]): string[] {
  if (spec.strategy !== 'probe' || !kind.probe) return spec.targets;
  const fullRead = state.runs % spec.options.fullEvery === 0;
  const counted = new Map<string, number | undefined>();
  for (const o of probed) counted.set(o.id, o.counts[kind.probe.count]);
  return spec.targets.filter((t) => {
    if (!counted.has(t)) return false; // not returned: missing (suspended, deleted), nothing to read
    const before = state.targets[t];
    return fullRead || before?.count === undefined || before.count !== counted.get(t) || !!before.hole;
  });
}
