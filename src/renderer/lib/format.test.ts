import { describe, expect, it } from 'vitest';
import { compactCount, countLabel, creditsLabel, fullCount, readCount } from './format';

describe('readCount', () => {
  it('accepts numbers and numeric strings', () => {
    expect(readCount(12)).toBe(12);
    expect(readCount('1234')).toBe(1234);
    expect(readCount(0)).toBe(0);
  });
  it('treats anything else as unknown, never 0', () => {
    for (const v of [null, undefined, '', 'n/a', [0], {}, -1, Number.NaN, '1.5e3']) expect(readCount(v)).toBeNull();
  });
});

describe('counts', () => {
  it('formats compactly and fully, and keeps unknown distinct from zero', () => {
    expect(compactCount(1234, 'en-US')).toBe('1.2K');
    expect(compactCount(0, 'en-US')).toBe('0');
    expect(compactCount(null)).toBe('unknown');
    expect(fullCount(1234567, 'en-US')).toBe('1,234,567');
    expect(countLabel(1, 'reply', 'replies', 'en-US')).toBe('1 reply');
    expect(countLabel(0, 'reply', 'replies', 'en-US')).toBe('0 replies');
    expect(countLabel(null, 'reply', 'replies')).toBe('unknown replies');
  });
  it('shows credits with dollars', () => {
    expect(creditsLabel(1500, 0.015, 'en-US')).toBe('1,500 credits ($0.015)');
    expect(creditsLabel(15, null, 'en-US')).toBe('15 credits');
  });
});
