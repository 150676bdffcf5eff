/**
 * What a burst of calls will cost before it is made: loading many pages at
 * once, or polling for a while. Page sizes are not documented (about 20 is
 * usual), so the estimate says what it assumed.
 */
import { operation, type OperationId } from '../../../shared/api/catalog';
import { creditsFor, creditsToUsd, type PriceTable } from '../../../shared/api/pricing';

/** Loading more pages than this at once asks first. */
const CONFIRM_ABOVE_PAGES = 10;
/** The usual page size; the API does not document one. */
const TYPICAL_PAGE_SIZE = 20;

export interface CostEstimate {
  calls: number;
  credits: number;
  usd: number;
  /** how the numbers were worked out, in plain words */
  basis: string;
}

export function estimatePages(
  op: OperationId,
  pages: number,
  prices: PriceTable,
  pageSize = TYPICAL_PAGE_SIZE,
): CostEstimate {
  const calls = Math.max(0, Math.ceil(pages));
  const perCall = creditsFor({ operation: op, httpStatus: 200, items: pageSize }, prices);
  const credits = calls * perCall;
  const byItem = ['perPost', 'perProfile', 'batchUsers'].includes(operation(op).priceClass);
  const basis = byItem
    ? `${calls} ${calls === 1 ? 'page' : 'pages'} of about ${pageSize} items, priced per item (page sizes are not documented)`
    : `${calls} ${calls === 1 ? 'call' : 'calls'} at ${perCall} credits each`;
  return { calls, credits, usd: creditsToUsd(credits, prices), basis };
}

/** Whether an action that loads `pages` pages should ask first. */
export function needsConfirmation(pages: number): boolean {
  return pages > CONFIRM_ABOVE_PAGES;
}
