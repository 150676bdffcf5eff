/**
 * The watch forms' plain logic: a new watch (what it follows, how often, its caps, the estimate asked for and
 * the way of collecting chosen) and a watch's edit (name, schedule, caps). Their fields, first values, what is
 * wrong in words, and the request each sends to main. Kept apart from React so it is tested on its own.
 */
import type {
  WatchCaps,
  WatchDraft,
  WatchKind,
  WatchPatch,
  WatchSpec,
  WatchSpecInput,
  WatchStrategy,
} from '../../../shared/ipc/watch';
import { UNIT_MINUTES, type EveryUnit } from './words';

export interface NewWatchFields {
  name: string;
  kind: WatchKind;
  /** ids, handles or WOEIDs as typed: one per line, or separated by spaces or commas */
  targets: string;
  every: number;
  unit: EveryUnit;
  /** a list of the accounts, whose timeline can be read instead (accounts only; empty: none) */
  listId: string;
  /** posts younger than this many days have their counters read again (0: off) */
  trackDays: number;
  perRun: number;
  perDay: number;
  total: number;
  /** the description the estimate on screen was asked for (null: none asked yet) */
  estimated: WatchDraft | null;
  /** the way of collecting the person picked (null: the cheapest) */
  strategy: WatchStrategy | null;
}

export const NEW_WATCH: NewWatchFields = {
  name: '',
  kind: 'accounts',
  targets: '',
  every: 2,
  unit: 'hours',
  listId: '',
  trackDays: 0,
  perRun: 5_000,
  perDay: 20_000,
  total: 200_000,
  estimated: null,
  strategy: null,
};

/** The targets as typed, one per line or separated by spaces or commas. */
export function targetList(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .map((t) => t.trim())
    .filter(Boolean);
}

/** Kinds whose posts' counters can be read again by id. */
export function tracksCounters(kind: WatchKind): boolean {
  return kind === 'accounts' || kind === 'mentions' || kind === 'list' || kind === 'quotes' || kind === 'replies';
}

/** The schedule in minutes (at least one). */
function everyMinutes(fields: Pick<NewWatchFields, 'every' | 'unit'>): number {
  return Math.max(1, fields.every * UNIT_MINUTES[fields.unit]);
}

function watchOptions(fields: NewWatchFields) {
  return { trackDays: fields.trackDays, trackEvery: Math.max(1, Math.round(1440 / everyMinutes(fields))) };
}

/** The watch as described so far: what the estimate of each way of collecting is asked for. */
export function watchDraft(fields: NewWatchFields): WatchDraft {
  const listId = fields.listId.trim();
  return {
    kind: fields.kind,
    targets: targetList(fields.targets),
    listId: listId === '' ? null : listId,
    everyMinutes: everyMinutes(fields),
    options: watchOptions(fields),
  };
}

/** The estimate on screen is of another description than the form now holds: it must be asked again. */
export function estimateIsStale(fields: NewWatchFields): boolean {
  return fields.estimated !== null && JSON.stringify(fields.estimated) !== JSON.stringify(watchDraft(fields));
}

/** What is wrong with a new watch's caps, in words; null when nothing is. */
export function capsProblem(caps: WatchCaps): string | null {
  if (caps.perRun <= 0 || caps.perDay <= 0 || caps.total <= 0) return 'Every cap must be above zero.';
  if (caps.perRun > caps.perDay || caps.perDay > caps.total)
    return 'A run’s cap cannot exceed the daily cap, nor the daily cap the total.';
  return null;
}

/** The way of collecting that will be used: the one picked, else the cheapest the estimate recommends. */
export function chosenStrategy(fields: NewWatchFields, recommended: WatchStrategy | null): WatchStrategy | null {
  return fields.strategy ?? recommended;
}

/** Whether the watch can be switched on with this strategy (the estimate must be current, checked apart). */
export function canSwitchOn(fields: NewWatchFields, strategy: WatchStrategy | null): boolean {
  return strategy !== null && fields.name.trim() !== '' && capsProblem(fields) === null;
}

/** The watch main is asked to create. */
export function createRequest(fields: NewWatchFields, strategy: WatchStrategy): WatchSpecInput {
  const draft = watchDraft(fields);
  return {
    name: fields.name.trim(),
    kind: fields.kind,
    targets: draft.targets,
    strategy,
    listId: strategy === 'list' ? (draft.listId ?? null) : null,
    schedule: { everyMinutes: draft.everyMinutes },
    caps: { perRun: fields.perRun, perDay: fields.perDay, total: fields.total },
    options: watchOptions(fields),
  };
}

export interface EditWatchFields {
  name: string;
  /** minutes between runs */
  every: number;
  perRun: number;
  perDay: number;
  total: number;
}

/** A watch's edit starts from what it is. */
export function editFields(spec: WatchSpec): EditWatchFields {
  return {
    name: spec.name,
    every: spec.schedule.everyMinutes,
    perRun: spec.caps.perRun,
    perDay: spec.caps.perDay,
    total: spec.caps.total,
  };
}

/** What is wrong with an edited watch's caps, in words; null when nothing is. */
export function editProblem(fields: EditWatchFields): string | null {
  const { perRun, perDay, total } = fields;
  return !(perRun > 0 && perDay > 0 && total > 0) || perRun > perDay || perDay > total
    ? 'A run’s cap cannot exceed the daily cap, nor the daily cap the total; each must be above zero.'
    : null;
}

/** The change main is asked to make (the rest of the schedule kept). */
export function updatePatch(spec: WatchSpec, fields: EditWatchFields): WatchPatch {
  return {
    name: fields.name,
    schedule: { ...spec.schedule, everyMinutes: fields.every },
    caps: { perRun: fields.perRun, perDay: fields.perDay, total: fields.total },
  };
}
