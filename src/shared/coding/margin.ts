/**
 * What a sample's size represents: the margin of error (95 %) of a share measured on a simple random sample
 * of `n` out of `N`, at its widest (a share of one half), with the finite population correction. In points of
 * a proportion (0.05 = ±5 points); null when it means nothing.
 */
export function marginOfError(n: number, N: number): number | null {
  if (n <= 0 || N <= 0 || n > N) return null;
  if (n === N) return 0;
  return 1.96 * Math.sqrt(0.25 / n) * Math.sqrt((N - n) / (N - 1));
}
