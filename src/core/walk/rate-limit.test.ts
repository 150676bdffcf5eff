import { describe, expect, it } from 'vitest';
import { SkeinError } from '../../shared/errors';
import {
  MAX_RATE_LIMIT_WAIT_MS,
  MAX_RATE_LIMIT_WAITS,
  NOT_WAITED,
  rateLimitWait,
  UNTIMED_RATE_LIMIT_WAIT_MS,
} from './rate-limit';

const NOW = Date.UTC(2026, 0, 15, 12);
const limited = (details?: Record<string, unknown>) => new SkeinError('rate-limited', 'Rate limited.', details);

describe('rateLimitWait', () => {
  it('waits until the time the service gave (Retry-After)', () => {
    expect(rateLimitWait(limited({ retryAt: NOW + 42_000 }), NOW, NOT_WAITED)).toBe(42_000);
  });

  it('prefers the service’s own time over the client’s', () => {
    expect(rateLimitWait(limited({ retryAt: NOW + 1_000, serviceRetryAt: NOW + 9_000 }), NOW, NOT_WAITED)).toBe(9_000);
  });

  it('a time already past is asked again at once', () => {
    expect(rateLimitWait(limited({ retryAt: NOW - 5_000 }), NOW, NOT_WAITED)).toBe(0);
  });

  it('a rate limit without an end is waited out a short while', () => {
    expect(rateLimitWait(limited(), NOW, NOT_WAITED)).toBe(UNTIMED_RATE_LIMIT_WAIT_MS);
  });

  it('a service asking for longer than the bound for one page is not waited for: the walk stops', () => {
    expect(rateLimitWait(limited({ retryAt: NOW + MAX_RATE_LIMIT_WAIT_MS + 1 }), NOW, NOT_WAITED)).toBeNull();
    const almost = { ms: MAX_RATE_LIMIT_WAIT_MS - 1_000, times: 3 };
    expect(rateLimitWait(limited({ retryAt: NOW + 2_000 }), NOW, almost)).toBeNull();
    expect(rateLimitWait(limited({ retryAt: NOW + 1_000 }), NOW, almost)).toBe(1_000);
  });

  it('a storm of zero-second waits ends after a bounded number of tries', () => {
    const many = { ms: 0, times: MAX_RATE_LIMIT_WAITS };
    expect(rateLimitWait(limited({ retryAt: NOW }), NOW, many)).toBeNull();
  });

  it('any other error is not waited out', () => {
    expect(rateLimitWait(new SkeinError('upstream', '503'), NOW, NOT_WAITED)).toBeNull();
    expect(rateLimitWait(new Error('boom'), NOW, NOT_WAITED)).toBeNull();
  });
});
