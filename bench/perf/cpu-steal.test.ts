import { describe, expect, it } from 'vitest';
import { parseProcStat, stealShare } from './cpu-steal';

describe('cpu steal', () => {
  it('reads the steal column of /proc/stat and turns two readings into a share', () => {
    const a = parseProcStat('cpu  100 0 50 800 10 0 0 40 0 0\ncpu0 1 2 3\n');
    const b = parseProcStat('cpu  150 0 60 920 10 0 0 60 0 0\n');
    expect(a).toEqual({ total: 1000, steal: 40 });
    expect(stealShare(a, b)).toBe(10);
  });
  it('says nothing when it cannot know', () => {
    expect(parseProcStat('intr 1 2 3')).toBeNull();
    expect(parseProcStat('cpu  1 2 x 4 5 6 7 8')).toBeNull();
    expect(stealShare(null, { total: 1, steal: 0 })).toBeNull();
    expect(stealShare({ total: 5, steal: 0 }, { total: 5, steal: 0 })).toBeNull();
  });
});
