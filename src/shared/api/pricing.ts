/**
 * Estimated credits per call: one function shared by the sandbox's ledger and
 * the app's usage meter so the two cannot disagree. Defaults come from
 * `shared/api-field-notes.md` ("Cost and pace"); the table is editable.
 */
import { z } from 'zod';
import { operation, type OperationId } from './catalog';
import { numberFormat } from '../intl-cache';

export const PriceTable = z.object({
  minimumPerCall: z.number().nonnegative(),
  perPost: z.number().nonnegative(),
  perProfile: z.number().nonnegative(),
  perUserBatchLarge: z.number().nonnegative(),
  batchLargeThreshold: z.number().int().positive(),
  communityPerCall: z.number().nonnegative(),
  listPerCall: z.number().nonnegative(),
  articlePerCall: z.number().nonnegative(),
  creditsPerUsd: z.number().positive(),
});
export type PriceTable = z.infer<typeof PriceTable>;

export const DEFAULT_PRICES: PriceTable = Object.freeze({
  minimumPerCall: 15,
  perPost: 15,
  perProfile: 18,
  perUserBatchLarge: 10,
  batchLargeThreshold: 100,
  communityPerCall: 20,
  listPerCall: 150,
  articlePerCall: 100,
  creditsPerUsd: 100_000,
});

export interface ChargeInput {
  operation: OperationId;
  /** HTTP status of the answer; 0 when none arrived (network error, timeout) */
  httpStatus: number;
  /** items in the answer's collection (raw count, before any de-duplication) */
  items: number;
  /** ids asked for in a batch lookup */
  idsAsked?: number;
}

/**
 * Whether a call is charged at all. Never charged: 501 (announced, not
 * available), 401/403 (no valid key), 402 (no credits), 429 (refused before
 * work), and calls that got no answer. Everything else that was answered,
 * empty pages and validation errors included, costs at least the minimum.
 */
export function isCharged(httpStatus: number): boolean {
  if (httpStatus === 0) return false;
  return ![501, 401, 403, 402, 429].includes(httpStatus);
}

export function creditsFor(input: ChargeInput, prices: PriceTable = DEFAULT_PRICES): number {
  if (!isCharged(input.httpStatus)) return 0;
  const op = operation(input.operation);
  if (input.httpStatus >= 300 || !op.available) return prices.minimumPerCall;
  let amount: number;
  switch (op.priceClass) {
    case 'perPost':
      amount = prices.perPost * input.items;
      break;
    case 'perProfile':
      amount = prices.perProfile * input.items;
      break;
    case 'batchUsers':
      amount =
        ((input.idsAsked ?? 0) >= prices.batchLargeThreshold ? prices.perUserBatchLarge : prices.perProfile) *
        input.items;
      break;
    case 'community':
      amount = prices.communityPerCall;
      break;
    case 'list':
      amount = prices.listPerCall;
      break;
    case 'article':
      amount = prices.articlePerCall;
      break;
    case 'minimum':
      amount = 0;
      break;
  }
  return Math.max(prices.minimumPerCall, amount);
}

export function creditsToUsd(credits: number, prices: PriceTable = DEFAULT_PRICES): number {
  return credits / prices.creditsPerUsd;
}

/** A dollar amount in credits, rounded down (a budget never buys more than it says). */
export function usdToCredits(usd: number, prices: PriceTable = DEFAULT_PRICES): number {
  return Math.floor(usd * prices.creditsPerUsd + 1e-6);
}

const DOLLARS: Intl.NumberFormatOptions = {
  style: 'currency',
  currency: 'USD',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
};

/**
 * Dollars as a person reads money: to the cent, and "< $0.01" for a sum that is not zero but under a cent (one call
 * costs a few hundred-thousandths of a dollar, which rounds to a misleading "$0.00"). Estimates, caps and budgets are
 * said this way everywhere; only the usage meter keeps exact sub-cent figures, and says that it does.
 */
export function usdLabel(usd: number, locale?: string): string {
  const money = numberFormat(locale, DOLLARS);
  const abs = Math.abs(usd);
  if (abs > 0 && abs < 0.01) return `< ${money.format(usd < 0 ? -0.01 : 0.01)}`;
  return money.format(usd);
}
