/**
 * What a watch keeps from one run to the next (JSON in the project, `watches.state`): per target its last post
 * count (the probe compares it), when it was first read and how far back that read went (nothing older is
 * read again), and where a read was left off (a hole the next run fills); the trends and participants last
 * seen; how many runs there have been. Read defensively: a state that does not parse starts afresh.
 */
import { WatchProjection, WatchSpec } from '../../shared/ipc/watch';
import type { WatchRecord } from './tables/records';

/** a time as the watches' messages give it: "2026-11-22 06:00 UTC" */
export const isoMinute = (t: number): string => `${new Date(t).toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/** a whole number of credits, with thousands separators */
export const fmt = (n: number): string => Math.round(n).toLocaleString('en-US');

export interface Hole {
  /** the cursor of the next page to read */
  cursor: string;
  /** the run that left it */
  since: number;
}

export interface TargetState {
  /** the count the probe compares (posts of an account, replies or quotes of a post) */
  count?: number;
  /** when its first read (its starting point) completed */
  baselineAt?: number;
  /** the oldest creation time of that first read: a later read never goes further back */
  floor?: number;
  hole?: Hole | null;
}

export interface WatchState {
  /** runs finished so far (the probe's full reads and the counters' re-reads count them) */
  runs: number;
  /** when the last run started: a later gap starts there */
  lastRunAt?: number;
  targets: Record<string, TargetState>;
  /** trends: the names last seen per place; spaces: the participants seen so far */
  names: Record<string, string[]>;
  /** the projection made when the watch was switched on */
  projectedAtStart?: WatchProjection;
}

export function readState(text: string): WatchState {
  const empty: WatchState = { runs: 0, targets: {}, names: {} };
  try {
    const v = JSON.parse(text) as Partial<WatchState> | null;
    if (!v || typeof v !== 'object') return empty;
    const projected = WatchProjection.safeParse(v.projectedAtStart);
    return {
      runs: typeof v.runs === 'number' && v.runs >= 0 ? v.runs : 0,
      ...(typeof v.lastRunAt === 'number' ? { lastRunAt: v.lastRunAt } : {}),
      targets: v.targets && typeof v.targets === 'object' ? v.targets : {},
      names: v.names && typeof v.names === 'object' ? v.names : {},
      ...(projected.success ? { projectedAtStart: projected.data } : {}),
    };
  } catch {
    return empty;
  }
}

/** Why the watch runs no more, as its runner kept it in its state; null when it did not say (or the state is damaged). */
export function endedOf(text: string): string | null {
  try {
    const v = JSON.parse(text) as { ended?: unknown } | null;
    return v && typeof v === 'object' && typeof v.ended === 'string' ? v.ended : null;
  } catch {
    return null;
  }
}

/** The watch's spec as kept (a spec that no longer parses is reported, never run). */
export function readSpec(w: WatchRecord): WatchSpec | null {
  try {
    const parsed = WatchSpec.safeParse(JSON.parse(w.spec));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** The next time a run is due after `now`, on the schedule's grid from `slot` (missed runs are not replayed). */
export function nextSlot(slot: number, everyMinutes: number, now: number): number {
  const step = everyMinutes * 60_000;
  if (slot > now) return slot;
  return slot + step * (Math.floor((now - slot) / step) + 1);
}
