/**
 * Credits and dollars as the cost meter shows them. One API call costs a
 * few hundred-thousandths of a dollar, so small amounts keep enough digits to
 * be non-zero ("$0.00015"), and bigger ones read like money ("$12.40").
 */
import { creditsToUsd, type PriceTable } from '../../../shared/api/pricing';

/** "$0.00", "$0.00015", "$0.0123", "$12.40". */
export function formatUsd(usd: number, locale?: string): string {
  const abs = Math.abs(usd);
  const max = abs === 0 || abs >= 1 ? 2 : abs >= 0.01 ? 4 : 6;
  return new Intl.NumberFormat(locale, {
    style: 'currency',
    currency: 'USD',
    minimumFractionDigits: 2,
    maximumFractionDigits: max,
  }).format(usd);
}

/** "1,234 credits" (one decimal at most). */
export function formatCredits(credits: number, locale?: string): string {
  const n = new Intl.NumberFormat(locale, { maximumFractionDigits: 1 }).format(credits);
  return `${n} ${credits === 1 ? 'credit' : 'credits'}`;
}

/** "1,234 credits ≈ $0.0123" with the given price table's exchange rate. */
export function formatCost(credits: number, prices: PriceTable, locale?: string): string {
  return `${formatCredits(credits, locale)} ≈ ${formatUsd(creditsToUsd(credits, prices), locale)}`;
}
