import { describe, expect, it } from 'vitest';
import { FakeClock } from '../../testing/fake-clock';
import { createRateLimiter } from './rate-limiter';

/** start `n` acquisitions at once; returns the virtual time each one was granted */
async function grants(
  clock: FakeClock,
  limiter: ReturnType<typeof createRateLimiter>,
  n: number,
  stepMs: number,
  steps: number,
) {
  const t0 = clock.now();
  const at: number[] = [];
  const all = Array.from({ length: n }, () => limiter.acquire().then(() => at.push(clock.now() - t0)));
  for (let i = 0; i < steps; i++) await clock.advance(stepMs);
  await Promise.all(all);
  return at;
}

describe('rate limiter', () => {
  it('grants slots 1/rate apart, the first at once, in call order', async () => {
    const clock = new FakeClock();
    const limiter = createRateLimiter(clock, 2);
    expect(await grants(clock, limiter, 5, 100, 25)).toEqual([0, 500, 1000, 1500, 2000]);
  });

  it('does not pace at an infinite rate (demo mode)', async () => {
    const clock = new FakeClock();
    const limiter = createRateLimiter(clock, Infinity);
    expect(await grants(clock, limiter, 4, 0, 1)).toEqual([0, 0, 0, 0]);
  });

  it('lets a request through at once after a quiet period', async () => {
    const clock = new FakeClock();
    const limiter = createRateLimiter(clock, 0.2);
    await limiter.acquire();
    await clock.advance(60_000);
    const t = clock.now();
    await limiter.acquire();
    expect(clock.now()).toBe(t);
  });

  it('honours a pause (Retry-After) for every caller', async () => {
    const clock = new FakeClock();
    const limiter = createRateLimiter(clock, 10);
    limiter.pauseUntil(clock.now() + 3_000);
    expect(await grants(clock, limiter, 2, 100, 40)).toEqual([3_000, 3_100]);
  });

  it('follows a changed rate', async () => {
    const clock = new FakeClock();
    const limiter = createRateLimiter(clock, 1);
    limiter.setRate(4);
    expect(await grants(clock, limiter, 3, 50, 20)).toEqual([0, 250, 500]);
    expect(() => limiter.setRate(0)).toThrow(RangeError);
  });

  it('gives the slot back when a waiting caller is cancelled', async () => {
    const clock = new FakeClock();
    const limiter = createRateLimiter(clock, 1);
    await limiter.acquire();
    const ac = new AbortController();
    const waiting = limiter.acquire(ac.signal);
    ac.abort(new Error('cancelled'));
    await expect(waiting).rejects.toThrow('cancelled');
    const t0 = clock.now();
    let at = -1;
    const next = limiter.acquire().then(() => (at = clock.now() - t0));
    await clock.advance(1_000);
    await next;
    expect(at).toBe(1_000);
    expect(clock.pending).toBe(0);
  });
});
