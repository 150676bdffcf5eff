import { describe, expect, it } from 'vitest';
import { refreshNote, trendingAsOf, utcClock } from './as-of';

const AT = Date.UTC(2025, 9, 7, 0, 40);

describe('trends’ own time and place', () => {
  it('says "Trending worldwide as of 00:40 UTC" the same UTC day, with the date another day', () => {
    const snapshot = { asOf: AT, refreshIntervalMs: 300_000, place: { name: 'Worldwide', woeid: 1 } };
    expect(trendingAsOf(snapshot, AT + 3_600_000)).toBe('Trending worldwide as of 00:40 UTC');
    expect(trendingAsOf(snapshot, AT + 86_400_000)).toBe('Trending worldwide as of 7 Oct 2025, 00:40 UTC');
    expect(refreshNote(snapshot)).toBe('renewed every 5 minutes');
  });

  it('names another place, and says when the service gave no time (never 1 January 1970)', () => {
    expect(trendingAsOf({ asOf: null, refreshIntervalMs: null, place: { name: 'Paris', woeid: 615702 } }, AT)).toBe(
      'Trending in Paris (the service gave no time)',
    );
    expect(trendingAsOf(undefined, AT)).toBeNull();
    expect(utcClock(AT, AT)).toBe('00:40 UTC');
    expect(refreshNote({ asOf: AT, refreshIntervalMs: 90_000, place: null })).toBe('renewed every 90 s');
  });
});
