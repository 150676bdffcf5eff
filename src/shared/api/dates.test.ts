import { describe, expect, it } from 'vitest';
import { parseApiDate } from './dates';

describe('parseApiDate', () => {
  it('reads "" and the epoch itself as none, never 1 January 1970', () => {
    for (const v of ['', 0, -5, 'Thu Jan 01 00:00:00 +0000 1970', '1970-01-01T00:00:00Z'])
      expect(parseApiDate(v)).toBeNull();
  });
  it('reads the API format as UTC', () => {
    expect(parseApiDate('Sun Nov 22 02:13:21 +0000 2026')).toBe(Date.UTC(2026, 10, 22, 2, 13, 21));
  });
  it('honours a non-zero offset', () => {
    expect(parseApiDate('Mon Jan 05 10:00:00 +0200 2026')).toBe(Date.UTC(2026, 0, 5, 8, 0, 0));
  });
  it('accepts ISO dates and epoch ms', () => {
    expect(parseApiDate('2026-01-05T08:00:00Z')).toBe(Date.UTC(2026, 0, 5, 8));
    expect(parseApiDate(1234)).toBe(1234);
  });
  it('honours a negative offset with minutes, across midnight', () => {
    expect(parseApiDate('Mon Jan 05 23:59:59 -0130 2026')).toBe(Date.UTC(2026, 0, 6, 1, 29, 59));
  });
  it('returns null for garbage and empty values', () => {
    expect(parseApiDate('yesterday-ish')).toBeNull();
    expect(parseApiDate('')).toBeNull();
    expect(parseApiDate(null)).toBeNull();
    expect(parseApiDate(Number.NaN)).toBeNull();
  });
});
