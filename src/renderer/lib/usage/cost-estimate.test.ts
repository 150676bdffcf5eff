import { describe, expect, it } from 'vitest';
import { DEFAULT_PRICES } from '../../../shared/api/pricing';
import { estimatePages, needsConfirmation } from './cost-estimate';

describe('estimatePages', () => {
  it('prices post pages per item with the assumed page size', () => {
    const e = estimatePages('listTimeline', 12, DEFAULT_PRICES);
    expect(e.calls).toBe(12);
    expect(e.credits).toBe(12 * 150);
    const posts = estimatePages('userTimeline', 11, DEFAULT_PRICES);
    expect(posts.credits).toBe(11 * 20 * 15);
    expect(posts.usd).toBeCloseTo(0.033, 10);
    expect(posts.basis).toContain('about 20 items');
  });
  it('follows the price table and a given page size', () => {
    expect(estimatePages('userTimeline', 2, { ...DEFAULT_PRICES, perPost: 1 }, 10).credits).toBe(2 * 15);
    expect(estimatePages('listFollowers', 1, { ...DEFAULT_PRICES, listPerCall: 99 }).basis).toBe(
      '1 call at 99 credits each',
    );
  });
  it('asks first only above ten pages', () => {
    expect(needsConfirmation(10)).toBe(false);
    expect(needsConfirmation(11)).toBe(true);
  });
});
