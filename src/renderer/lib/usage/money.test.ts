import { describe, expect, it } from 'vitest';
import { DEFAULT_PRICES } from '../../../shared/api/pricing';
import { formatCost, formatCredits, formatUsd, formatUsdExact } from './money';

describe('formatUsd (estimates, caps, budgets)', () => {
  it('reads like money: whole cents, never four to six decimals', () => {
    expect(formatUsd(0, 'en-US')).toBe('$0.00');
    expect(formatUsd(0.004512, 'en-US')).toBe('< $0.01');
    expect(formatUsd(0.0123, 'en-US')).toBe('$0.01');
    expect(formatUsd(0.456, 'en-US')).toBe('$0.46');
    expect(formatUsd(0.5, 'en-US')).toBe('$0.50');
    expect(formatUsd(12.4, 'en-US')).toBe('$12.40');
    expect(formatUsd(1234.567, 'en-US')).toBe('$1,234.57');
  });
  it('says a sum under a cent is under a cent, not free', () => {
    expect(formatUsd(0.00015, 'en-US')).toBe('< $0.01');
    expect(formatUsd(0.0099, 'en-US')).toBe('< $0.01');
    expect(formatUsd(0.01, 'en-US')).toBe('$0.01');
  });
});

describe('formatUsdExact (the usage meter)', () => {
  it('keeps the cost of a single call visible instead of rounding it away', () => {
    expect(formatUsdExact(0.00015, 'en-US')).toBe('$0.00015');
    expect(formatUsdExact(0.0000015, 'en-US')).toBe('$0.000002');
    expect(formatUsdExact(0.0123, 'en-US')).toBe('$0.0123');
    expect(formatUsdExact(12.4, 'en-US')).toBe('$12.40');
  });
});

describe('formatCredits and formatCost', () => {
  it('uses the price table rate', () => {
    expect(formatCredits(1, 'en-US')).toBe('1 credit');
    expect(formatCredits(1500, 'en-US')).toBe('1,500 credits');
    expect(formatCost(180, DEFAULT_PRICES, 'en-US')).toBe('180 credits < $0.01');
    expect(formatCost(180, { ...DEFAULT_PRICES, creditsPerUsd: 1000 }, 'en-US')).toBe('180 credits ≈ $0.18');
  });
});
