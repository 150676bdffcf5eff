/** The middle of a bench's repeated figures: one run on a shared machine moves with whatever else ran beside it. */
export const median = (xs: readonly number[]): number =>
  [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
