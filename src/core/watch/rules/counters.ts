/**
 * Counters over time (likes, views, followers), one row per value: when it was first seen and when last. A
 * reading like the newest value held (and not older than it) only stretches that value's last sighting; a
 * reading older than the newest value's last sighting is kept out (an older reading is kept out of the
 * history, whatever order readings arrive in); anything else is a new value. Pure: the store reads the newest
 * row of each counter a run touches, applies these, and writes the rows back.
 */

/** One reading of a counter. */
export interface CounterReading {
  kind: string;
  id: string;
  metric: string;
  at: number;
  value: number;
}

/** A counter's row: a value, first seen at `at`, last at `lastAt`, by the run that first saw it. */
export interface CounterRow {
  kind: string;
  id: string;
  metric: string;
  at: number;
  value: number;
  lastAt: number;
  run: number | null;
}

/** What a reading makes of the newest row held for its counter (none: undefined); null when it is kept out. */
export function counterReading(newest: CounterRow | undefined, r: CounterReading, run: number): CounterRow | null {
  if (newest && newest.value === r.value && r.at >= newest.at)
    return { ...newest, lastAt: Math.max(newest.lastAt, r.at) };
  if (newest && r.at < newest.lastAt) return null;
  return { kind: r.kind, id: r.id, metric: r.metric, at: r.at, value: r.value, lastAt: r.at, run };
}

/** The key a counter's newest row is found by. */
export const counterKey = (kind: string, id: string, metric: string): string =>
  `${kind.length}:${kind}${id.length}:${id}${metric}`;

/**
 * A run's readings, settled in order against the newest row held of each counter (by `counterKey`): the rows
 * to write, each once by its counter and first sighting, as they end.
 */
export function settleCounters(
  newest: ReadonlyMap<string, CounterRow>,
  readings: readonly CounterReading[],
  run: number,
): CounterRow[] {
  const latest = new Map(newest);
  const writes = new Map<string, CounterRow>();
  for (const r of readings) {
    const k = counterKey(r.kind, r.id, r.metric);
    const row = counterReading(latest.get(k), r, run);
    if (!row) continue;
    latest.set(k, row);
    writes.set(`${k}@${row.at}`, row);
  }
  return [...writes.values()];
}
