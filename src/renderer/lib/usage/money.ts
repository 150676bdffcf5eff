/**
 * Credits and dollars as the app shows them. Estimates, caps and budgets read like money ("$12.40", and "< $0.01"
 * below a cent: `usdLabel`, shared with the core's confirmations). The usage meter is the one place where a sum of
 * a few calls must stay visible to the last digit ("$0.00015"): it uses `formatUsdExact` and says its figures are exact.
 */
import { creditsToUsd, usdLabel, type PriceTable } from '../../../shared/api/pricing';
import { numberFormat } from '../../../shared/intl-cache';

/** "$0.00", "< $0.01", "$0.45", "$12.40". */
export function formatUsd(usd: number, locale?: string): string {
  return usdLabel(usd, locale);
}

/** "$0.00", "$0.00015", "$0.0123", "$12.40": as the ledger counts it, for the usage meter. */
export function formatUsdExact(usd: number, locale?: string): string {
  const abs = Math.abs(usd);
  const max = abs === 0 || abs >= 1 ? 2 : abs >= 0.01 ? 4 : 6;
  return numberFormat(locale, {
    style: 'currency',
    currency: 'USD',
    minimumFractionDigits: 2,
    maximumFractionDigits: max,
  }).format(usd);
}

/** "1,234 credits" (one decimal at most). */
export function formatCredits(credits: number, locale?: string): string {
  const n = numberFormat(locale, { maximumFractionDigits: 1 }).format(credits);
  return `${n} ${credits === 1 ? 'credit' : 'credits'}`;
}

/** "≈ $0.12", or "< $0.01" (which is its own approximation) for a sum under a cent. */
export function aboutUsd(usd: number, locale?: string): string {
  const label = formatUsd(usd, locale);
  return label.startsWith('<') ? label : `≈ ${label}`;
}

/** "1,234 credits ≈ $0.12" with the given price table's exchange rate. */
export function formatCost(credits: number, prices: PriceTable, locale?: string): string {
  return `${formatCredits(credits, locale)} ${aboutUsd(creditsToUsd(credits, prices), locale)}`;
}
