import { describe, expect, it } from 'vitest';
import { marginOfError } from './margin';

describe('what a sample size represents', () => {
  it('the margin of error of a share, with the finite population correction', () => {
    expect(marginOfError(100, 1_000_000)).toBeCloseTo(0.098, 3);
    expect(marginOfError(100, 1000)).toBeCloseTo(0.093, 3);
    expect(marginOfError(400, 10_000)).toBeCloseTo(0.048, 3);
    expect(marginOfError(10, 10)).toBe(0);
    expect(marginOfError(0, 10)).toBeNull();
    expect(marginOfError(11, 10)).toBeNull();
  });
});
