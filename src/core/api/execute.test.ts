import { describe, expect, it } from 'vitest';
import { FakeClock } from '../testing/fake-clock';
import { failure } from '../testing/failure';
import { scriptedFetch, type Step } from '../testing/scripted-fetch';
import { DEFAULT_POLICY, execute, type RequestPolicy } from './execute';
import { backoffCeiling } from './policy/backoff';
import { createRateLimiter } from './policy/rate-limiter';

const OK = { status: 200, body: { status: 'success', message: '', tweets: [], has_next_page: false, next_cursor: '' } };

function run(
  steps: Step[],
  opts: {
    policy?: Partial<RequestPolicy>;
    random?: () => number;
    signal?: AbortSignal;
    cancelWaits?: AbortSignal;
    clock?: FakeClock;
    keySent?: boolean;
  } = {},
) {
  const clock = opts.clock ?? new FakeClock(undefined, { autoAdvance: true });
  const fetch = scriptedFetch(steps);
  const answers: number[] = [];
  let unanswered = 0;
  const promise = execute({
    operation: 'postQuotes',
    url: 'http://api.test/social/tweet/quotes?tweetId=1',
    headers: {},
    fetch,
    clock,
    limiter: createRateLimiter(clock, Infinity),
    random: opts.random ?? (() => 0.5),
    policy: { ...DEFAULT_POLICY, ...opts.policy },
    signal: opts.signal ?? new AbortController().signal,
    cancelWaits: opts.cancelWaits,
    keySent: opts.keySent,
    onAnswer: (a) => answers.push(a.status),
    onNoAnswer: () => unanswered++,
  });
  return { promise, clock, fetch, answers, unanswered: () => unanswered };
}

describe('execute: retries', () => {
  it('retries 5xx with jittered, capped backoff and succeeds', async () => {
    const r = run([{ status: 503, body: { message: 'down' } }, { status: 502 }, OK], { random: () => 0.999 });
    const done = await r.promise;
    expect(done.attempts).toBe(3);
    expect(r.answers).toEqual([503, 502, 200]);
    expect(r.clock.sleeps).toHaveLength(2);
    r.clock.sleeps.forEach((ms, i) => {
      expect(ms).toBeGreaterThanOrEqual(0);
      expect(ms).toBeLessThanOrEqual(backoffCeiling(i + 1));
    });
  });

  it('stops after maxAttempts and reports the last failure', async () => {
    const r = run([{ status: 500, body: { message: 'boom' } }], { policy: { maxAttempts: 3 } });
    const e = await failure(r.promise);
    expect(e.code).toBe('upstream');
    expect(e.details?.attempts).toBe(3);
    expect(r.fetch.calls).toHaveLength(3);
  });

  it('keeps every wait within the cap however many retries', async () => {
    const r = run([{ status: 503 }], {
      policy: { maxAttempts: 12, deadlineMs: 10 * 60_000, backoff: { baseMs: 100, capMs: 1_000 } },
      random: () => 0.9999,
    });
    await failure(r.promise);
    expect(r.fetch.calls).toHaveLength(12);
    expect(Math.max(...r.clock.sleeps)).toBeLessThanOrEqual(1_000);
  });

  it('honours Retry-After in seconds', async () => {
    const r = run([{ status: 429, headers: { 'retry-after': '3' } }, OK]);
    await r.promise;
    expect(r.clock.sleeps).toContain(3_000);
  });

  it('honours Retry-After as an HTTP date', async () => {
    const clock = new FakeClock(Date.UTC(2026, 0, 15, 12, 0, 0), { autoAdvance: true });
    const r = run([{ status: 429, headers: { 'retry-after': new Date(clock.now() + 9_000).toUTCString() } }, OK], {
      clock,
    });
    await r.promise;
    expect(r.clock.sleeps).toContain(9_000);
  });

  it('gives up at once when Retry-After reaches past the deadline, saying until when', async () => {
    const clock = new FakeClock(undefined, { autoAdvance: true });
    const r = run([{ status: 429, headers: { 'retry-after': '600' } }], { clock, policy: { deadlineMs: 60_000 } });
    const e = await failure(r.promise);
    expect(e.code).toBe('rate-limited');
    expect(e.details?.retryAt).toBe(clock.now() + 600_000);
    expect(r.fetch.calls).toHaveLength(1);
  });

  it('estimates the end of a rate limit that came without Retry-After', async () => {
    const r = run([{ status: 429 }], { policy: { maxAttempts: 2 } });
    const e = await failure(r.promise);
    expect(e.code).toBe('rate-limited');
    expect(e.details?.retryAt).toBeGreaterThan(r.clock.now());
  });

  it('retries network errors and 408, not 4xx or 501', async () => {
    const net = run([
      { error: new TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } }) },
      { status: 408 },
      OK,
    ]);
    expect((await net.promise).attempts).toBe(3);
    expect(net.unanswered()).toBe(1);
    for (const status of [400, 401, 402, 404, 501]) {
      const r = run([{ status, body: { detail: 'x' } }, OK]);
      await failure(r.promise);
      expect(r.fetch.calls).toHaveLength(1);
    }
  });

  it('maps a network error that persists to offline', async () => {
    const r = run([{ error: new TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } }) }], {
      policy: { maxAttempts: 2 },
    });
    const e = await failure(r.promise);
    expect(e.code).toBe('offline');
    expect(e.message).toContain('ECONNREFUSED');
  });
});

describe('execute: time limits and cancellation', () => {
  it('times an attempt out, retries, then reports timeout', async () => {
    const clock = new FakeClock();
    const r = run([{ hang: true }], { clock, policy: { maxAttempts: 2, attemptTimeoutMs: 5_000 }, random: () => 0 });
    const e = failure(r.promise);
    await clock.advance(5_000);
    await clock.advance(5_000);
    const err = await e;
    expect(err.code).toBe('timeout');
    expect(err.details?.attempts).toBe(2);
    expect(r.unanswered()).toBe(2);
  });

  it('ends the call at the overall deadline', async () => {
    const clock = new FakeClock();
    const r = run([{ hang: true }], {
      clock,
      policy: { maxAttempts: 10, attemptTimeoutMs: 60_000, deadlineMs: 20_000 },
    });
    const e = failure(r.promise);
    await clock.advance(20_000);
    expect((await e).code).toBe('timeout');
    expect(r.fetch.calls).toHaveLength(1);
  });

  it('stops at once when cancelled in flight, without retrying', async () => {
    const clock = new FakeClock();
    const ac = new AbortController();
    const r = run([{ hang: true }], { clock, signal: ac.signal });
    const e = failure(r.promise);
    await clock.advance(10);
    ac.abort(new Error('The call was cancelled.'));
    const err = await e;
    expect(err.code).toBe('cancelled');
    expect(r.fetch.calls).toHaveLength(1);
    expect(clock.pending).toBe(0);
  });

  it('stops a backoff wait when cancelled', async () => {
    const clock = new FakeClock();
    const ac = new AbortController();
    const r = run([{ status: 503 }, OK], { clock, signal: ac.signal, random: () => 0.99 });
    const e = failure(r.promise);
    await clock.advance(1);
    ac.abort();
    expect((await e).code).toBe('cancelled');
    expect(r.fetch.calls).toHaveLength(1);
  });
});

describe('execute: what goes on the wire', () => {
  it('never follows a redirect (the key stays with the base URL)', async () => {
    const r = run([{ status: 302, headers: { location: 'https://evil.example/' } }]);
    const e = await failure(r.promise);
    expect(e.code).toBe('api-error');
    expect(r.fetch.calls).toHaveLength(1);
  });

  it('refuses an answer over the size cap and a non-JSON answer', async () => {
    const big = run([{ status: 200, text: JSON.stringify({ status: 'success', tweets: 'x'.repeat(5_000) }) }], {
      policy: { maxBytes: 1_000 },
    });
    expect((await failure(big.promise)).code).toBe('malformed');
    const html = run([{ status: 200, text: '<html></html>', headers: { 'content-type': 'text/html' } }]);
    const e = await failure(html.promise);
    expect(e.code).toBe('malformed');
    expect(e.message).toContain('text/html');
    const broken = run([{ status: 200, text: '{"status": "succ' }]);
    expect((await failure(broken.promise)).message).toMatch(/invalid JSON/);
  });
});

/** wait until `cond` holds, turn by turn of the event loop */
async function until(cond: () => boolean): Promise<void> {
  for (let i = 0; i < 1000 && !cond(); i++) await new Promise((r) => setImmediate(r));
  expect(cond()).toBe(true);
}

describe('execute: a cancel that waits for the request in flight (cancelWaits)', () => {
  it('returns the answer of a request already in flight, which was paid for', async () => {
    const clock = new FakeClock();
    const cancel = new AbortController();
    let answer: ((r: Response) => void) | undefined;
    const fetch = () => new Promise<Response>((resolve) => (answer = resolve));
    const promise = execute({
      operation: 'postQuotes',
      url: 'http://api.test/social/tweet/quotes?tweetId=1',
      headers: {},
      fetch,
      clock,
      limiter: createRateLimiter(clock, Infinity),
      random: () => 0.5,
      policy: DEFAULT_POLICY,
      signal: new AbortController().signal,
      cancelWaits: cancel.signal,
    });
    await until(() => answer !== undefined);
    cancel.abort(new Error('cancelled by the user'));
    answer?.(new Response(JSON.stringify(OK.body), { status: 200, headers: { 'content-type': 'application/json' } }));
    expect((await promise).attempts).toBe(1);
  });

  it('ends a backoff at once and starts no other attempt', async () => {
    const clock = new FakeClock();
    const cancel = new AbortController();
    const r = run([{ status: 503 }, OK], { clock, cancelWaits: cancel.signal });
    await until(() => r.answers.length === 1);
    cancel.abort(new Error('cancelled by the user'));
    const e = await failure(r.promise);
    expect(e.code).toBe('cancelled');
    expect(e.details?.attempts).toBe(1);
    expect(r.fetch.calls).toHaveLength(1);
  });
});

describe('execute: the live 429 and 403 bodies', () => {
  const FREE_TIER = {
    error: 'Too Many Requests',
    message: 'For free-tier users, the QPS limit is one request every 5 seconds.',
  };
  const KEY_REQUIRED = {
    error: 'Forbidden',
    message: 'API key required. Please include x-api-key in your request header.',
    code: -1,
  };

  it('a 429 without Retry-After waits the pace its words name, and keeps them in the error', async () => {
    const r = run(
      [
        { status: 429, body: FREE_TIER },
        { status: 429, body: FREE_TIER },
      ],
      { policy: { maxAttempts: 2 } },
    );
    const started = r.clock.now();
    const e = await failure(r.promise);
    expect(r.clock.now() - started).toBe(5_000);
    expect(e.code).toBe('rate-limited');
    expect(e.message).toContain('“For free-tier users, the QPS limit is one request every 5 seconds.”');
    expect(e.details?.serviceMessage).toBe(FREE_TIER.message);
    expect(e.details?.action).toMatch(
      /^Lower the pace in Settings \(Requests per second: 0\.2 or less, one request every 5 s\); a higher balance/,
    );
  });

  it('a 403 "API key required" to a key that was sent: waits, asks once more, and an answer says it was throttling', async () => {
    const r = run([{ status: 403, body: KEY_REQUIRED }, OK], { keySent: true });
    const started = r.clock.now();
    const done = await r.promise;
    expect(done.attempts).toBe(2);
    expect(r.clock.now() - started).toBe(6_000);
    expect(done.notice).toMatch(
      /waited 6 s and asked again, and it answered\. It was the service throttling, not your key\.$/,
    );
  });

  it('the same 403 twice is the key (most likely): said so, once asked again, the stored key kept', async () => {
    const r = run([{ status: 403, body: KEY_REQUIRED }, { status: 403, body: KEY_REQUIRED }, OK], { keySent: true });
    const e = await failure(r.promise);
    expect(r.fetch.calls).toHaveLength(2);
    expect(e.code).toBe('unauthorized');
    expect(e.message).toContain('waited 6 s and asked again: same answer, so it is most likely the key, not the pace');
    expect(e.message).toContain('Your stored key was kept.');
    expect(e.details).toMatchObject({ keySent: true, httpStatus: 403, attempts: 2 });
  });

  it('a relay that delivers the 403 inside an HTTP 200 is read as the 403', async () => {
    const r = run(
      [
        { status: 200, body: KEY_REQUIRED },
        { status: 200, body: KEY_REQUIRED },
      ],
      { keySent: true },
    );
    const e = await failure(r.promise);
    expect(r.fetch.calls).toHaveLength(2);
    expect(e.code).toBe('unauthorized');
  });

  it('without a key sent, the 403 is not retried', async () => {
    const r = run([{ status: 403, body: KEY_REQUIRED }, OK]);
    const e = await failure(r.promise);
    expect(r.fetch.calls).toHaveLength(1);
    expect(e.code).toBe('unauthorized');
  });

  it('a call whose deadline leaves no time to ask again says so', async () => {
    const r = run([{ status: 403, body: KEY_REQUIRED }, OK], { keySent: true, policy: { deadlineMs: 3_000 } });
    const e = await failure(r.promise);
    expect(r.fetch.calls).toHaveLength(1);
    expect(e.code).toBe('unauthorized');
    expect(e.message).toContain('Skein could not wait and ask again within this call');
  });
});
