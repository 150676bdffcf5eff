import { describe, expect, it } from 'vitest';
import { DEFAULT_PRICES } from '../../../shared/api/pricing';
import { formatCost, formatCredits, formatUsd } from './money';

describe('formatUsd', () => {
  it('keeps the cost of a single call visible instead of rounding it to zero', () => {
    expect(formatUsd(0.00015, 'en-US')).toBe('$0.00015');
    expect(formatUsd(0.0000015, 'en-US')).toBe('$0.000002');
  });
  it('reads like money for larger sums', () => {
    expect(formatUsd(0, 'en-US')).toBe('$0.00');
    expect(formatUsd(0.0123, 'en-US')).toBe('$0.0123');
    expect(formatUsd(0.5, 'en-US')).toBe('$0.50');
    expect(formatUsd(12.4, 'en-US')).toBe('$12.40');
    expect(formatUsd(1234.567, 'en-US')).toBe('$1,234.57');
  });
});

describe('formatCredits and formatCost', () => {
  it('uses the price table rate', () => {
    expect(formatCredits(1, 'en-US')).toBe('1 credit');
    expect(formatCredits(1500, 'en-US')).toBe('1,500 credits');
    expect(formatCost(180, DEFAULT_PRICES, 'en-US')).toBe('180 credits ≈ $0.0018');
    expect(formatCost(180, { ...DEFAULT_PRICES, creditsPerUsd: 1000 }, 'en-US')).toBe('180 credits ≈ $0.18');
  });
});
