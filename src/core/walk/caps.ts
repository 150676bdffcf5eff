/**
 * The cap rule of a walk: a page is asked for only when it cannot pass a cap. Each cap says how much of it is
 * left and what the next page takes of it (for credits, the most the page may cost), so a walk stops before
 * the page that would pass a cap, never after it.
 */

/** One cap on a walk, as it stands before the next page. */
export interface Budget<N extends string = string> {
  /** how the walker names it (export: `cap-credits`; a watch: "the daily cap") */
  name: N;
  /** how much of it is left */
  left: number;
  /** what the next page takes of it: one page, at least one item, the most its credits may come to */
  cost: number;
}

/** The first cap (in the order given) the next page could pass, or null when the page may be asked for. */
export function capStop<N extends string>(budgets: readonly Budget<N>[]): Budget<N> | null {
  return budgets.find((b) => b.cost > b.left) ?? null;
}
