/**
 * Counters over time (likes, views, followers), one row per value: when it was first seen and when last. A
 * reading like the newest value held (and not older than it) only stretches that value's last sighting; a
 * reading older than the newest value's last sighting is kept out (an older reading is kept out of the
 * history, whatever order readings arrive in); anything else is a new value. Pure: the store reads the newest
 * row of each counter a run touches, applies these, and writes the rows back.
 */
import type { CounterRecord, RunOutcome } from '../tables/records';
import { ByItem } from './by-item';

/** One reading of a counter. */
export type CounterReading = RunOutcome['counters'][number];

/** A counter's row: a value, first seen at `at`, last at `lastAt`, by the run that first saw it. */
export interface CounterRow extends CounterRecord {
  run: number | null;
}

/** What a reading makes of the newest row held for its counter (none: undefined); null when it is kept out. */
export function counterReading(newest: CounterRow | undefined, r: CounterReading, run: number): CounterRow | null {
  if (newest && newest.value === r.value && r.at >= newest.at)
    return { ...newest, lastAt: Math.max(newest.lastAt, r.at) };
  if (newest && r.at < newest.lastAt) return null;
  return { kind: r.kind, id: r.id, metric: r.metric, at: r.at, value: r.value, lastAt: r.at, run };
}

/** a counter as a run's end settles it: its newest row, and where that row is among the rows to write (-1: not) */
interface Slot {
  newest: CounterRow | undefined;
  written: number;
}

/**
 * A run's readings, settled in order against the newest row held of each counter (`held`, as the store read
 * them): the rows to write, each once by its counter and first sighting, as they end.
 */
export function settleCounters(
  held: readonly CounterRow[],
  readings: readonly CounterReading[],
  run: number,
): CounterRow[] {
  const counters = new ByItem<Map<string, Slot>>();
  const slot = (c: { kind: string; id: string; metric: string }): Slot => {
    let metrics = counters.get(c.kind, c.id);
    if (!metrics) counters.set(c.kind, c.id, (metrics = new Map<string, Slot>()));
    let s = metrics.get(c.metric);
    if (!s) metrics.set(c.metric, (s = { newest: undefined, written: -1 }));
    return s;
  };
  for (const row of held) slot(row).newest = row;
  const writes: CounterRow[] = [];
  for (const r of readings) {
    const s = slot(r);
    const row = counterReading(s.newest, r, run);
    if (!row) continue;
    // a row's first sighting is the newest row's or a later one: only the newest row's can be written already
    if (s.written >= 0 && writes[s.written]?.at === row.at) writes[s.written] = row;
    else s.written = writes.push(row) - 1;
    s.newest = row;
  }
  return writes;
}
