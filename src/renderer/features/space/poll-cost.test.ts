import { describe, expect, it } from 'vitest';
import { DEFAULT_PRICES } from '../../../shared/api/pricing';
import { callsPerMinuteLabel, pollCost, safeInterval } from './poll-cost';

describe('pollCost', () => {
  it('prices one space call per poll interval with the price table', () => {
    const c = pollCost(5, DEFAULT_PRICES);
    expect(c.callsPerMinute).toBe(12);
    expect(c.creditsPerCall).toBe(15);
    expect(c.creditsPerMinute).toBe(180);
    expect(c.creditsPerHour).toBe(10_800);
    expect(c.usdPerMinute).toBeCloseTo(0.0018, 10);
    expect(callsPerMinuteLabel(c, 'en-US')).toBe('12 calls a minute');
  });

  it('follows an edited price table', () => {
    const c = pollCost(10, { ...DEFAULT_PRICES, minimumPerCall: 20 });
    expect(c.callsPerMinute).toBe(6);
    expect(c.creditsPerMinute).toBe(120);
  });

  it('never polls faster than once a second, and assumes 5 s when the API gives nothing usable', () => {
    expect(safeInterval(0)).toBe(5);
    expect(safeInterval(-3)).toBe(5);
    expect(safeInterval(Number.NaN)).toBe(5);
    expect(safeInterval(undefined)).toBe(5);
    expect(safeInterval(0.2)).toBe(1);
    expect(callsPerMinuteLabel(pollCost(40, DEFAULT_PRICES), 'en-US')).toBe('1.5 calls a minute');
    expect(callsPerMinuteLabel(pollCost(60, DEFAULT_PRICES), 'en-US')).toBe('1 call a minute');
  });
});
