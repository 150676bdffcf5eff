/**
 * The performance budgets (GUIDE.md, BENCHMARKS.md), and the one shape every measured number takes in
 * the report: a metric with its value, unit, budget (if any) and status.
 */

export type Status = 'pass' | 'fail' | 'info' | 'skipped';

export interface Metric {
  /** stable id, e.g. `scroll.2400.p95` */
  id: string;
  section: string;
  name: string;
  value: number | null;
  unit: string;
  /** the budget: value must be at most this (plus `tolerance`) */
  max?: number;
  /** measurement resolution allowed above `max` (frame intervals: rAF timestamp jitter) */
  tolerance?: number;
  status: Status;
  note?: string;
}

export const BUDGETS = {
  scrollP95Ms: 16.7,
  scrollP99Ms: 33.4,
  /** share of frames over 25 ms */
  slowFrameShare: 0.01,
  slowFrameMs: 25,
  longTasks: 0,
  blankFramesAt2400: 0,
  anchorJumpPx: 1,
  prependDriftPx: 1,
  domNodes: 1400,
  /** 150 MB (10^6 bytes), as MiB: heap figures are MiB */
  heap100kMiB: 143,
  heapGrowth: 0.05,
  firstContentFromCacheMs: 100,
  /** a page arriving: the renderer's main-thread time from the answer to the painted frame after it, p95 */
  pageArrivalP95Ms: 4,
  /** frames dropped (a frame interval over `slowFrameMs`) around a page arriving while scrolling */
  pageArrivalDroppedFrames: 0,
  bridgeMessageBytes: 1024 * 1024,
  interactionP98Ms: 100,
} as const;

/**
 * requestAnimationFrame timestamps of a steady 60 Hz cadence read 16.6–16.8 ms
 * (see the idle baseline): an interval within this of a budget of whole
 * frames is that many frames.
 */
export const FRAME_JITTER_MS = 0.5;

/** A metric with a budget: pass when measured and at most `max` (+ `tolerance`). */
export function budget(
  id: string,
  section: string,
  name: string,
  value: number | null,
  unit: string,
  max: number,
  note?: string,
  tolerance?: number,
): Metric {
  const status: Status = value === null ? 'skipped' : value <= max + (tolerance ?? 0) ? 'pass' : 'fail';
  return {
    id,
    section,
    name,
    value,
    unit,
    max,
    tolerance,
    status,
    note,
  };
}

/** A number reported for context, without a budget. */
export function info(
  id: string,
  section: string,
  name: string,
  value: number | null,
  unit: string,
  note?: string,
): Metric {
  return { id, section, name, value, unit, status: 'info', note };
}

/** A budgeted metric that could not be measured here, and why. */
export function skipped(
  id: string,
  section: string,
  name: string,
  unit: string,
  max: number | undefined,
  note: string,
): Metric {
  return { id, section, name, value: null, unit, max, status: 'skipped', note };
}
