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
import { usdToCredits, type PriceTable } from '../../../shared/api/pricing';
import { readTargets, targetsProblem, tokens, type Resolutions, type TargetsRead } from './targets';
import { UNIT_MINUTES, type EveryUnit } from './words';

export interface NewWatchFields {
  name: string;
  kind: WatchKind;
  /** ids, @handles, profile links or WOEIDs as typed: one per line, or separated by spaces or commas */
  targets: string;
  /** what resolving each @handle gave (by handle, lower case) */
  resolutions: Resolutions;
  every: number;
  unit: EveryUnit;
  /** the last day it runs (YYYY-MM-DD, UTC): its window's end; empty: no end */
  until: string;
  /** a list of the accounts, whose timeline can be read instead (accounts only; empty: none) */
  listId: string;
  /** posts younger than this many days have their counters read again (0: off) */
  trackDays: number;
  /** keep the media of its posts after each run (kinds whose items are posts) */
  keepMedia: boolean;
  /** the caps in credits, and the total as a budget in dollars; null: the ones the estimate proposes */
  perRun: number | null;
  perDay: number | null;
  budgetUsd: number | null;
  /** the description the estimate on screen was asked for (null: none asked yet) */
  estimated: WatchDraft | null;
  /** the way of collecting the person picked (null: the cheapest) */
  strategy: WatchStrategy | null;
}

const DAY = 86_400_000;
/** caps before any estimate proposes its own */
const FALLBACK_CAPS = { perRun: 5_000, perDay: 20_000, total: 200_000 };
/** a watch runs this many days unless told otherwise */
const DEFAULT_DAYS = 7;

/** `YYYY-MM-DD` of a time, in UTC */
const utcDay = (t: number): string => new Date(t).toISOString().slice(0, 10);

/** A new watch's first values: it runs for a week from today. */
export function newWatch(now: number): NewWatchFields {
  return {
    name: '',
    kind: 'accounts',
    targets: '',
    resolutions: {},
    every: 2,
    unit: 'hours',
    until: utcDay(now + DEFAULT_DAYS * DAY),
    listId: '',
    trackDays: 0,
    keepMedia: false,
    perRun: null,
    perDay: null,
    budgetUsd: null,
    estimated: null,
    strategy: null,
  };
}

/** The targets as typed, one per line or separated by spaces or commas. */
export const targetList = tokens;

/** The targets read: ids, handles to resolve, what is not a target. */
export function targetsOf(fields: Pick<NewWatchFields, 'targets' | 'kind' | 'resolutions'>): TargetsRead {
  return readTargets(fields.targets, fields.kind, fields.resolutions);
}

/** Kinds whose posts' counters can be read again by id. */
export function tracksCounters(kind: WatchKind): boolean {
  return kind === 'accounts' || kind === 'mentions' || kind === 'list' || kind === 'quotes' || kind === 'replies';
}

/** The schedule in minutes (at least one). */
function everyMinutes(fields: Pick<NewWatchFields, 'every' | 'unit'>): number {
  return Math.max(1, fields.every * UNIT_MINUTES[fields.unit]);
}

/** Kinds whose items are posts, whose media can be kept after each run. */
export function keepsMedia(kind: WatchKind): boolean {
  return tracksCounters(kind);
}

function watchOptions(fields: NewWatchFields) {
  return {
    trackDays: fields.trackDays,
    trackEvery: Math.max(1, Math.round(1440 / everyMinutes(fields))),
    ...(fields.keepMedia && keepsMedia(fields.kind) ? { keepMedia: true } : {}),
  };
}

/** The days from today to the end of the "Run until" day (null: no end, or not a date). */
export function daysUntil(until: string, now: number): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(until.trim());
  if (!m) return null;
  const end = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  const today = Date.UTC(new Date(now).getUTCFullYear(), new Date(now).getUTCMonth(), new Date(now).getUTCDate());
  if (!Number.isFinite(end)) return null;
  return Math.round((end - today) / DAY);
}

/** What is wrong with "Run until", in words (null: nothing). */
export function untilProblem(until: string, now: number): string | null {
  if (until.trim() === '') return null;
  const days = daysUntil(until, now);
  if (days === null) return 'Run until: give a day (year, month, day).';
  if (days < 1) return 'Run until: give a day after today.';
  if (days > 3_650) return 'Run until: give a day within ten years.';
  return null;
}

/** the longest a schedule may wait between runs, and the oldest posts whose counters are read again */
const MAX_EVERY_MINUTES = 31 * 24 * 60;
const MAX_TRACK_DAYS = 365;

/**
 * What is wrong with the rest of the description, in words naming each field (null: nothing): caught here, so
 * nothing the person typed reaches main as something it must refuse.
 */
export function describeProblem(
  fields: Pick<NewWatchFields, 'every' | 'unit' | 'listId' | 'trackDays' | 'kind'>,
): string | null {
  const said: string[] = [];
  if (!(fields.every >= 1) || everyMinutes(fields) > MAX_EVERY_MINUTES)
    said.push('Run every: from 1 minute to 31 days.');
  if (fields.kind === 'accounts' && fields.listId.trim() !== '' && !/^\d{1,25}$/.test(fields.listId.trim()))
    said.push('A list of these accounts: give the list’s numeric id, or leave it empty.');
  if (!(fields.trackDays >= 0 && fields.trackDays <= MAX_TRACK_DAYS))
    said.push('Counters of posts younger than (days): from 0 to 365.');
  return said.length > 0 ? said.join(' ') : null;
}

/** The watch as described so far: what the estimate of each way of collecting is asked for. */
export function watchDraft(fields: NewWatchFields, now: number): WatchDraft {
  const listId = fields.listId.trim();
  const read = targetsOf(fields);
  const days = untilProblem(fields.until, now) === null ? daysUntil(fields.until, now) : null;
  return {
    kind: fields.kind,
    targets: read.ids,
    unresolved: read.unresolved.length,
    listId: listId === '' ? null : listId,
    everyMinutes: everyMinutes(fields),
    days,
    options: watchOptions(fields),
  };
}

/** The estimate on screen is of another description than the form now holds: it must be asked again. */
export function estimateIsStale(fields: NewWatchFields, now: number): boolean {
  return fields.estimated !== null && JSON.stringify(fields.estimated) !== JSON.stringify(watchDraft(fields, now));
}

/** The caps that will be asked for: the ones typed, else the estimate's proposal, else Skein's defaults. */
export function capsOf(
  fields: Pick<NewWatchFields, 'perRun' | 'perDay' | 'budgetUsd'>,
  proposed: WatchCaps | null,
  prices: PriceTable,
): WatchCaps {
  const base = proposed ?? FALLBACK_CAPS;
  return {
    perRun: fields.perRun ?? base.perRun,
    perDay: fields.perDay ?? base.perDay,
    total: fields.budgetUsd !== null ? usdToCredits(fields.budgetUsd, prices) : base.total,
  };
}

/** The budget in dollars as the field shows it (the typed one, else the proposed total's, rounded up to cents). */
export function budgetOf(fields: Pick<NewWatchFields, 'budgetUsd'>, caps: WatchCaps, prices: PriceTable): number {
  return fields.budgetUsd ?? Math.ceil((caps.total / prices.creditsPerUsd) * 100) / 100;
}

/** What is wrong with a new watch's caps, in words naming the fields; null when nothing is. */
export function capsProblem(caps: WatchCaps): string | null {
  if (!(caps.perRun > 0) || !(caps.perDay > 0)) return 'Every cap must be above zero.';
  if (!(caps.total > 0)) return 'Budget ($): give an amount above zero.';
  if (caps.perRun > caps.perDay) return 'A run’s cap cannot exceed the cap in any 24 hours.';
  if (caps.perDay > caps.total) return 'Budget ($) is below the cap in any 24 hours: raise it, or lower that cap.';
  return null;
}

/** The way of collecting that will be used: the one picked, else the cheapest the estimate recommends. */
export function chosenStrategy(fields: NewWatchFields, recommended: WatchStrategy | null): WatchStrategy | null {
  return fields.strategy ?? recommended;
}

/** Whether the watch can be switched on with this strategy (the estimate must be current, checked apart). */
export function canSwitchOn(
  fields: NewWatchFields,
  strategy: WatchStrategy | null,
  caps: WatchCaps,
  now: number,
): boolean {
  const read = targetsOf(fields);
  return (
    strategy !== null &&
    fields.name.trim() !== '' &&
    read.ids.length > 0 &&
    read.unresolved.length === 0 &&
    targetsProblem(read) === null &&
    describeProblem(fields) === null &&
    untilProblem(fields.until, now) === null &&
    capsProblem(caps) === null
  );
}

/** The watch main is asked to create: the ids it reads, each with the handle it was given as. */
export function createRequest(
  fields: NewWatchFields,
  strategy: WatchStrategy,
  caps: WatchCaps,
  now: number,
): WatchSpecInput {
  const draft = watchDraft(fields, now);
  const read = targetsOf(fields);
  return {
    name: fields.name.trim(),
    kind: fields.kind,
    targets: draft.targets,
    handles: read.handles,
    strategy,
    listId: strategy === 'list' ? (draft.listId ?? null) : null,
    schedule: {
      everyMinutes: draft.everyMinutes,
      from: null,
      until: draft.days ? now + draft.days * DAY : null,
    },
    caps,
    options: watchOptions(fields),
  };
}

export interface EditWatchFields {
  name: string;
  /** minutes between runs */
  every: number;
  /** the last day it runs (YYYY-MM-DD, UTC); empty: no end */
  until: string;
  perRun: number;
  perDay: number;
  /** the total cap, as a budget in dollars */
  budgetUsd: number;
  /** keep the media of its posts after each run */
  keepMedia: boolean;
}

/** A watch's edit starts from what it is. */
export function editFields(spec: WatchSpec, prices: PriceTable): EditWatchFields {
  return {
    name: spec.name,
    every: spec.schedule.everyMinutes,
    until: spec.schedule.until === null ? '' : utcDay(spec.schedule.until),
    perRun: spec.caps.perRun,
    perDay: spec.caps.perDay,
    budgetUsd: spec.caps.total / prices.creditsPerUsd,
    keepMedia: spec.options.keepMedia === true,
  };
}

/** What is wrong with an edited watch, in words naming the field; null when nothing is. */
export function editProblem(fields: EditWatchFields, prices: PriceTable, now: number): string | null {
  if (!(fields.every >= 1 && fields.every <= MAX_EVERY_MINUTES))
    return 'Run every (minutes): from 1 to 44,640 (31 days).';
  const until = fields.until.trim() === '' ? null : untilProblem(fields.until, now);
  if (until) return until;
  return capsProblem({ perRun: fields.perRun, perDay: fields.perDay, total: usdToCredits(fields.budgetUsd, prices) });
}

/**
 * The change main is asked to make (the rest of the schedule kept). "Run until" keeps the window's end time of
 * day when its day did not change, so saving a name does not move it.
 */
export function updatePatch(spec: WatchSpec, fields: EditWatchFields, prices: PriceTable, now: number): WatchPatch {
  const before = spec.schedule.until;
  const days = fields.until.trim() === '' ? null : daysUntil(fields.until, now);
  const until =
    days === null ? null : before !== null && utcDay(before) === fields.until.trim() ? before : now + days * DAY;
  return {
    name: fields.name,
    schedule: { ...spec.schedule, everyMinutes: fields.every, until },
    caps: { perRun: fields.perRun, perDay: fields.perDay, total: usdToCredits(fields.budgetUsd, prices) },
    ...(keepsMedia(spec.kind) ? { options: { keepMedia: fields.keepMedia } } : {}),
  };
}
