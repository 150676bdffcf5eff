/**
 * What live-updating a space costs: one `spaceDetail` call per poll
 * interval, priced by the (editable) price table. Shown on the pause switch
 * and in the confirmation before auto-polling starts.
 */
import { creditsFor, creditsToUsd, type PriceTable } from '../../../shared/api/pricing';
import { numberFormat } from '../../../shared/intl-cache';

export interface PollCost {
  intervalSec: number;
  callsPerMinute: number;
  creditsPerCall: number;
  creditsPerMinute: number;
  usdPerMinute: number;
  creditsPerHour: number;
}

/** The API's `poll_interval_sec`, made safe: at least 1 s; 5 s when missing or unreadable. */
export function safeInterval(pollIntervalSec: number | null | undefined): number {
  if (typeof pollIntervalSec !== 'number' || !Number.isFinite(pollIntervalSec) || pollIntervalSec <= 0) return 5;
  return Math.max(1, Math.round(pollIntervalSec));
}

export function pollCost(pollIntervalSec: number | null | undefined, prices: PriceTable): PollCost {
  const intervalSec = safeInterval(pollIntervalSec);
  const callsPerMinute = 60 / intervalSec;
  const creditsPerCall = creditsFor({ operation: 'spaceDetail', httpStatus: 200, items: 0 }, prices);
  const creditsPerMinute = callsPerMinute * creditsPerCall;
  return {
    intervalSec,
    callsPerMinute,
    creditsPerCall,
    creditsPerMinute,
    usdPerMinute: creditsToUsd(creditsPerMinute, prices),
    creditsPerHour: creditsPerMinute * 60,
  };
}

/** "12 calls a minute" / "1.5 calls a minute". */
export function callsPerMinuteLabel(cost: PollCost, locale?: string): string {
  const n = numberFormat(locale, { maximumFractionDigits: 1 }).format(cost.callsPerMinute);
  return `${n} ${cost.callsPerMinute === 1 ? 'call' : 'calls'} a minute`;
}
