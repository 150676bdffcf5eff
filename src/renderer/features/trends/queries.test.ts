import { beforeEach, describe, expect, it } from 'vitest';
import { countFor as read, useTrendsCount } from './queries';
import { DEFAULT_COUNT } from './woeids';

const countFor = (woeid: number) => read(useTrendsCount.getState(), woeid);

describe('the trends count', () => {
  beforeEach(() => useTrendsCount.setState({ last: DEFAULT_COUNT, byPlace: {} }));

  it('goes back to the count each place was shown with, so Back finds the cached answer', () => {
    const { choose } = useTrendsCount.getState();
    choose(44418, 30);
    choose(2459115, 10);
    expect(countFor(44418)).toBe(30);
    expect(countFor(2459115)).toBe(10);
  });

  it('uses the count last chosen for a place not seen yet', () => {
    expect(countFor(1)).toBe(DEFAULT_COUNT);
    useTrendsCount.getState().choose(44418, 12);
    expect(countFor(1)).toBe(12);
  });
});
