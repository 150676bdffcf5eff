/**
 * Inter-coder agreement, computed from a reliability data matrix: units (items) × coders, each cell a value or
 * missing. Krippendorff's α at the nominal, ordinal and interval levels (any number of coders, missing data:
 * Krippendorff, "Computing Krippendorff's Alpha-Reliability", 2011), Cohen's κ (two coders), Fleiss' κ (a
 * constant number of ratings per unit), and percent agreement (pairs of values that agree). Pure functions,
 * checked against the published worked examples to three decimals (stats.test.ts).
 *
 * Values are indices into the field's ordered values (`0 … k-1`); an interval metric takes a number per index.
 */

/** A unit's values: one per coder who coded it (missing values are simply absent). */
export type Unit = readonly number[];

export type Level = 'nominal' | 'ordinal' | 'interval';

/** The coincidence matrix of the pairable values (units with two values or more) and its margins. */
export interface Coincidences {
  o: number[][];
  /** n_c: how often each value was paired */
  nc: number[];
  /** n: pairable values */
  n: number;
  /** units with two values or more */
  units: number;
}

export function coincidences(units: readonly Unit[], k: number): Coincidences {
  const o = Array.from({ length: k }, () => new Array<number>(k).fill(0));
  const counts = new Array<number>(k).fill(0);
  let pairable = 0;
  for (const unit of units) {
    const m = unit.length;
    if (m < 2) continue;
    pairable++;
    counts.fill(0);
    for (const v of unit) counts[v]!++;
    for (let c = 0; c < k; c++) {
      const nc = counts[c]!;
      if (nc === 0) continue;
      const row = o[c]!;
      for (let d = 0; d < k; d++) {
        const nd = counts[d]!;
        if (nd === 0) continue;
        row[d]! += (nc * (c === d ? nd - 1 : nd)) / (m - 1);
      }
    }
  }
  const nc = o.map((row) => row.reduce((s, x) => s + x, 0));
  return { o, nc, n: nc.reduce((s, x) => s + x, 0), units: pairable };
}

/** δ² between two values at a level; `numbers` are the interval level's values per index (default: the index). */
function distances(level: Level, nc: readonly number[], numbers?: readonly number[]): number[][] {
  const k = nc.length;
  const d = Array.from({ length: k }, () => new Array<number>(k).fill(0));
  for (let c = 0; c < k; c++) {
    for (let e = 0; e < k; e++) {
      if (c === e) continue;
      if (level === 'nominal') d[c]![e] = 1;
      else if (level === 'interval') {
        const x = numbers?.[c] ?? c;
        const y = numbers?.[e] ?? e;
        d[c]![e] = (x - y) ** 2;
      } else {
        const lo = Math.min(c, e);
        const hi = Math.max(c, e);
        let between = 0;
        for (let g = lo; g <= hi; g++) between += nc[g]!;
        d[c]![e] = (between - (nc[c]! + nc[e]!) / 2) ** 2;
      }
    }
  }
  return d;
}

/**
 * Krippendorff's α = 1 − D_o / D_e over the pairable values. Null when it is undefined: fewer than two pairable
 * values, or no variation at all (every value the same: expected disagreement is zero).
 */
export function krippendorffAlpha(
  units: readonly Unit[],
  k: number,
  level: Level,
  numbers?: readonly number[],
): number | null {
  const { o, nc, n } = coincidences(units, k);
  if (n < 2) return null;
  const delta = distances(level, nc, numbers);
  let observed = 0;
  let expected = 0;
  for (let c = 0; c < k; c++) {
    for (let e = 0; e < k; e++) {
      const d = delta[c]![e]!;
      if (d === 0) continue;
      observed += o[c]![e]! * d;
      expected += nc[c]! * nc[e]! * d;
    }
  }
  if (expected === 0) return null;
  return 1 - ((n - 1) * observed) / expected;
}

/** Cohen's κ for two coders over the units both coded: `pairs` of [coder A's value, coder B's value]. */
export function cohenKappa(pairs: ReadonlyArray<readonly [number, number]>, k: number): number | null {
  const n = pairs.length;
  if (n === 0) return null;
  const a = new Array<number>(k).fill(0);
  const b = new Array<number>(k).fill(0);
  let agree = 0;
  for (const [x, y] of pairs) {
    a[x]!++;
    b[y]!++;
    if (x === y) agree++;
  }
  const po = agree / n;
  let pe = 0;
  for (let c = 0; c < k; c++) pe += (a[c]! / n) * (b[c]! / n);
  if (pe === 1) return null;
  return (po - pe) / (1 - pe);
}

/**
 * Fleiss' κ over units rated the same number of times: each unit as counts per value (`counts[i][c]`: how many
 * coders gave unit i value c). Units with another number of ratings than the first one's are refused.
 */
export function fleissKappa(counts: ReadonlyArray<readonly number[]>): number | null {
  const N = counts.length;
  if (N === 0) return null;
  const m = counts[0]!.reduce((s, x) => s + x, 0);
  if (m < 2) return null;
  const k = counts[0]!.length;
  const p = new Array<number>(k).fill(0);
  let sumP = 0;
  for (const row of counts) {
    if (row.reduce((s, x) => s + x, 0) !== m)
      throw new RangeError('Fleiss’ κ needs the same number of ratings per unit');
    let sq = 0;
    for (let c = 0; c < k; c++) {
      sq += row[c]! * row[c]!;
      p[c]! += row[c]!;
    }
    sumP += (sq - m) / (m * (m - 1));
  }
  const pBar = sumP / N;
  let pe = 0;
  for (let c = 0; c < k; c++) pe += (p[c]! / (N * m)) ** 2;
  if (pe === 1) return null;
  return (pBar - pe) / (1 - pe);
}

/** Percent agreement: the share of pairs of values within a unit that agree, over units with two values or more. */
export function percentAgreement(units: readonly Unit[]): number | null {
  let agreeing = 0;
  let pairs = 0;
  for (const unit of units) {
    const m = unit.length;
    if (m < 2) continue;
    let unitAgree = 0;
    for (let i = 0; i < m; i++) for (let j = i + 1; j < m; j++) if (unit[i] === unit[j]) unitAgree++;
    const unitPairs = (m * (m - 1)) / 2;
    // each unit weighs the same, whatever its number of coders
    agreeing += unitAgree / unitPairs;
    pairs++;
  }
  return pairs === 0 ? null : agreeing / pairs;
}

/** A small seeded generator (mulberry32): the same seed draws the same bootstrap samples everywhere. */
function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface Interval {
  low: number;
  high: number;
  /** resamples the interval is made of (those where the statistic was defined) */
  draws: number;
}

/** Main's event loop gets a turn after this much work (the report runs on main's thread). */
const SLICE_MS = 8;

/**
 * A percentile bootstrap interval (95 % by default) of a statistic over units: `draws` resamples of the units
 * with replacement, from a fixed seed, so a report is reproducible. Null with fewer than two units, or when
 * fewer than half of the resamples define the statistic. It gives the event loop a turn every few
 * milliseconds: thousands of items take hundreds of milliseconds, which must not freeze main.
 */
export async function bootstrapInterval<U>(
  units: readonly U[],
  statistic: (sample: readonly U[]) => number | null,
  options: { draws?: number; seed?: number; level?: number } = {},
): Promise<Interval | null> {
  const draws = options.draws ?? 1000;
  const level = options.level ?? 0.95;
  if (units.length < 2) return null;
  const random = seededRandom(options.seed ?? 1);
  const values: number[] = [];
  const sample = new Array<U>(units.length);
  let slice = performance.now();
  for (let b = 0; b < draws; b++) {
    if (performance.now() - slice > SLICE_MS) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      slice = performance.now();
    }
    for (let i = 0; i < units.length; i++) sample[i] = units[Math.floor(random() * units.length)]!;
    const v = statistic(sample);
    if (v !== null && Number.isFinite(v)) values.push(v);
  }
  if (values.length < draws / 2) return null;
  values.sort((x, y) => x - y);
  const at = (q: number) => values[Math.min(values.length - 1, Math.max(0, Math.round(q * (values.length - 1))))]!;
  return { low: at((1 - level) / 2), high: at(1 - (1 - level) / 2), draws: values.length };
}
