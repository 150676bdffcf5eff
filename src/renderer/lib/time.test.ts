import { describe, expect, it } from 'vitest';
import { relativeTime, stamp } from './time';

describe('relativeTime', () => {
  const now = Date.UTC(2026, 5, 15, 12, 0, 0);
  it('uses the largest whole unit under a week', () => {
    expect(relativeTime(now - 2_000, now)).toBe('now');
    expect(relativeTime(now - 42_000, now)).toBe('42s');
    expect(relativeTime(now - 5 * 60_000 - 59_000, now)).toBe('5m');
    expect(relativeTime(now - 3 * 3_600_000, now)).toBe('3h');
    expect(relativeTime(now - 6 * 86_400_000, now)).toBe('6d');
  });
  it('treats future times (clock skew) as now', () => {
    expect(relativeTime(now + 60_000, now)).toBe('now');
  });
  it('shows a date after a week, with the year only when it differs', () => {
    expect(relativeTime(Date.UTC(2026, 2, 5, 12), now, 'en-US')).toBe('Mar 5');
    expect(relativeTime(Date.UTC(2023, 2, 5, 12), now, 'en-US')).toBe('Mar 5, 2023');
  });
});

describe('stamp', () => {
  it('writes when something was kept one way, in UTC as the exports do', () => {
    expect(stamp(Date.UTC(2026, 10, 28, 16, 16, 59))).toBe('2026-11-28 16:16 UTC');
    expect(stamp(Number.NaN)).toBe('Invalid Date');
  });
});
