/** Small statistics for the bench: nearest-rank percentiles, rounding, shares. */

/** Nearest-rank percentile (p in 0..100) of unsorted samples; null when there are none. */
export function percentile(samples: readonly number[], p: number): number | null {
  if (samples.length === 0) return null;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1] ?? null;
}

export interface Distribution {
  n: number;
  p50: number | null;
  p95: number | null;
  p98: number | null;
  p99: number | null;
  max: number | null;
}

export function distribution(samples: readonly number[], digits = 2): Distribution {
  const r = (v: number | null) => (v === null ? null : round(v, digits));
  return {
    n: samples.length,
    p50: r(percentile(samples, 50)),
    p95: r(percentile(samples, 95)),
    p98: r(percentile(samples, 98)),
    p99: r(percentile(samples, 99)),
    max: r(samples.length ? Math.max(...samples) : null),
  };
}

export function round(v: number, digits = 2): number {
  const f = 10 ** digits;
  return Math.round(v * f) / f;
}

/** Share (0..1) of samples above a threshold. */
export function shareAbove(samples: readonly number[], threshold: number): number {
  if (samples.length === 0) return 0;
  return samples.filter((s) => s > threshold).length / samples.length;
}

export const MiB = 1024 * 1024;
