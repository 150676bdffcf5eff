import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { backoffCeiling, backoffDelay, DEFAULT_BACKOFF } from './backoff';

const options = fc.record({ baseMs: fc.integer({ min: 1, max: 5_000 }), capMs: fc.integer({ min: 1, max: 120_000 }) });
const unit = fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true });

describe('backoff with full jitter', () => {
  it('stays within [0, min(cap, base·2^(n-1))] for every retry', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2_000 }), unit, options, (n, r, opts) => {
        const d = backoffDelay(n, () => r, opts);
        expect(d).toBeGreaterThanOrEqual(0);
        expect(d).toBeLessThanOrEqual(Math.min(opts.capMs, opts.baseMs * 2 ** (n - 1)));
        expect(d).toBeLessThanOrEqual(opts.capMs);
        expect(Number.isInteger(d)).toBe(true);
      }),
    );
  });

  it('has a ceiling that doubles until the cap and never shrinks', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 200 }), options, (n, opts) => {
        const a = backoffCeiling(n, opts);
        const b = backoffCeiling(n + 1, opts);
        expect(b).toBeGreaterThanOrEqual(a);
        expect(b).toBe(Math.min(opts.capMs, opts.baseMs * 2 ** n));
      }),
    );
  });

  it('uses the whole range: a random near 1 waits near the ceiling, 0 waits nothing', () => {
    expect(backoffDelay(1, () => 0)).toBe(0);
    expect(backoffDelay(3, () => 0.999_999)).toBe(backoffCeiling(3) - 1);
    expect(backoffCeiling(1)).toBe(DEFAULT_BACKOFF.baseMs);
    expect(backoffCeiling(50)).toBe(DEFAULT_BACKOFF.capMs);
  });

  it('clamps a misbehaving random source', () => {
    expect(backoffDelay(2, () => -3)).toBe(0);
    expect(backoffDelay(2, () => 7)).toBe(backoffCeiling(2));
  });
});
