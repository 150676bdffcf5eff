import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_RETRY_AFTER_MS, parseRetryAfter } from './retry-after';

const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);

describe('parseRetryAfter', () => {
  it('reads delay-seconds as milliseconds', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 86_400 }), (n) => {
        expect(parseRetryAfter(String(n), NOW)).toBe(n * 1000);
        expect(parseRetryAfter(` ${n} `, NOW)).toBe(n * 1000);
      }),
    );
  });

  it('reads an HTTP date (IMF-fixdate) as the time left until it', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 86_400 }), fc.integer({ min: 0, max: 10_000_000 }), (secs, baseSecs) => {
        const now = NOW + baseSecs * 1000;
        const header = new Date(now + secs * 1000).toUTCString();
        expect(parseRetryAfter(header, now)).toBe(secs * 1000);
      }),
    );
  });

  it('reads the obsolete RFC 850 and asctime date forms', () => {
    expect(parseRetryAfter('Thursday, 15-Jan-26 12:00:30 GMT', NOW)).toBe(30_000);
    expect(parseRetryAfter('Thu Jan 15 12:01:00 2026', NOW)).toBe(60_000);
  });

  it("reads asctime as GMT whatever the machine's time zone", () => {
    const saved = process.env.TZ;
    try {
      for (const zone of ['Pacific/Chatham', 'America/St_Johns', 'Asia/Kathmandu', 'UTC']) {
        process.env.TZ = zone; // Node drops its cached zone when TZ is assigned
        expect(new Date(NOW).getTimezoneOffset() !== 0 || zone === 'UTC').toBe(true);
        expect(parseRetryAfter('Thu Jan 15 12:01:00 2026', NOW)).toBe(60_000);
        expect(parseRetryAfter('Thu Jan 15 12:00:05 2026', NOW)).toBe(5_000);
      }
    } finally {
      if (saved === undefined) delete process.env.TZ;
      else process.env.TZ = saved;
    }
  });

  it('treats a date in the past as "now"', () => {
    expect(parseRetryAfter(new Date(NOW - 60_000).toUTCString(), NOW)).toBe(0);
  });

  it('caps absurd waits', () => {
    expect(parseRetryAfter('999999999', NOW)).toBe(MAX_RETRY_AFTER_MS);
    expect(parseRetryAfter(new Date(NOW + 400 * 86_400_000).toUTCString(), NOW)).toBe(MAX_RETRY_AFTER_MS);
  });

  it('returns null for absent or unreadable values', () => {
    for (const v of [null, undefined, '', '   ', '-5', '1.5', '10s', 'soon', '0x10', '2026-01-15']) {
      expect(parseRetryAfter(v, NOW)).toBeNull();
    }
  });

  it('never returns a negative or non-finite wait, whatever the header', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        const r = parseRetryAfter(s, NOW);
        expect(r === null || (Number.isFinite(r) && r >= 0 && r <= MAX_RETRY_AFTER_MS)).toBe(true);
      }),
    );
  });
});
