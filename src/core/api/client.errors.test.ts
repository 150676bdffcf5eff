/**
 * Every error class of the one error model, produced by the real sandbox
 * (its faults, or its genuine answers) and mapped to its code, message and
 * action.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { creditsFor } from '../../shared/api/pricing';
import { DEFAULT_ACTIONS, type ErrorCode, type SkeinError } from '../../shared/errors';
import { FakeClock } from '../testing/fake-clock';
import { failure } from '../testing/failure';
import { sandboxHarness, until, type Harness } from '../testing/sandbox-harness';
import type { AttemptRecord } from './client';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const quotes = (hh: Harness) => ({
  operation: 'postQuotes' as const,
  params: { tweetId: hh.sandbox.examples.muchQuotedPostId },
});

function expectShown(e: SkeinError, code: ErrorCode) {
  expect(e.code).toBe(code);
  expect(e.message.length).toBeGreaterThan(10);
  expect(e.details?.action ?? '').not.toBe('');
}

describe('errors from the sandbox, mapped', () => {
  it.each([
    ['400;detail=tweetId is required', 'validation', 400],
    ['401', 'unauthorized', 401],
    ['403', 'unauthorized', 403],
    ['402', 'payment-required', 402],
    ['status-error', 'api-error', 200],
    ['non-json', 'malformed', 200],
  ] as const)('fault %s → %s, one request, no retry', async (fault, code, status) => {
    h = await sandboxHarness();
    h.fault(fault);
    const e = await failure(h.client.fetchPage(quotes(h)));
    expectShown(e, code);
    expect(e.details?.httpStatus).toBe(status);
    expect(await h.requests()).toHaveLength(1);
  });

  it('validation: field names from the spec’s detail list and from the live string form', async () => {
    h = await sandboxHarness();
    const bad = { ...quotes(h), params: { ...quotes(h).params, cursor: 'bogus' } };
    const list = await failure(h.client.fetchPage(bad));
    expect(list.code).toBe('validation');
    expect(list.details?.fields?.[0]?.field).toBe('cursor');
    h.fault('detail-string');
    const str = await failure(h.client.fetchPage(bad));
    expect(str.details?.httpStatus).toBe(400);
    expect(str.details?.fields?.[0]?.field).toBe('cursor');
    expect(str.message).toContain('Invalid cursor');
  });

  it('not-available: 501, never retried, never charged', async () => {
    h = await sandboxHarness();
    const e = await failure(
      h.client.fetchPage({ operation: 'communityMembers', params: { community_id: h.sandbox.examples.communityId } }),
    );
    expectShown(e, 'not-available');
    expect(e.details?.action).toBe(DEFAULT_ACTIONS['not-available']);
    expect(await h.requests()).toHaveLength(1);
    expect((await h.ledger()).totals.credits).toBe(0);
  });

  it('unauthorized: the sandbox refuses a wrong key, and says when none was set', async () => {
    h = await sandboxHarness({ requiredKey: 'right-key', key: 'wrong-key' });
    expectShown(await failure(h.client.fetchPage(quotes(h))), 'unauthorized');
    await h.close();
    h = await sandboxHarness({ requiredKey: 'right-key', key: null });
    expect((await failure(h.client.fetchPage(quotes(h)))).message).toMatch(/No API key is set/);
  });

  it('not-found: an unknown id, and a base URL with a wrong path', async () => {
    h = await sandboxHarness();
    expectShown(await failure(h.client.fetchPage({ operation: 'postQuotes', params: { tweetId: '1' } })), 'not-found');
    await h.close();
    h = await sandboxHarness({ baseUrl: (u) => `${u}/v9` });
    expectShown(await failure(h.client.fetchPage(quotes(h))), 'not-found');
  });

  it('rate-limited: retried as Retry-After says, then reported with the time it ends', async () => {
    const clock = new FakeClock(undefined, { autoAdvance: true });
    h = await sandboxHarness({ clock, policy: { maxAttempts: 3 } });
    h.fault('429;retry-after=4');
    const e = await failure(h.client.fetchPage(quotes(h)));
    expectShown(e, 'rate-limited');
    expect(e.details?.attempts).toBe(3);
    expect(e.details?.retryAt).toBe(clock.now() + 4_000);
    expect(clock.sleeps.filter((s) => s > 0)).toEqual([4_000, 4_000]);
  });

  it('rate-limited: a Retry-After pauses every other call to the same base URL until it ends', async () => {
    const clock = new FakeClock(undefined, { autoAdvance: true });
    h = await sandboxHarness({ clock, policy: { maxAttempts: 1 } });
    h.fault('429;retry-after=4');
    expectShown(await failure(h.client.fetchPage(quotes(h))), 'rate-limited');
    const limitedAt = h.sentAt[0]!;
    h.fault(undefined);
    // another operation, another view: it waits for the pause the service asked for, then goes
    const replies = { operation: 'postRepliesV2' as const, params: { tweetId: h.sandbox.examples.muchQuotedPostId } };
    await h.client.fetchPage(replies);
    expect(h.sentAt).toHaveLength(2);
    expect(h.sentAt[1]! - limitedAt).toBeGreaterThanOrEqual(4_000);
  });

  it('rate-limited: an HTTP-date Retry-After is honoured, and the call succeeds after it', async () => {
    // the sandbox writes the date from its own (real) clock
    const clock = new FakeClock(Date.now(), { autoAdvance: true });
    h = await sandboxHarness({ clock });
    await fetch(`${h.sandbox.baseUrl}/__sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ fault: '429;retry-after=6;as=date', count: 1 }),
    });
    // starting the sandbox takes real time: bring the fake clock up to the real one
    await clock.advance(Math.max(0, Date.now() - clock.now()));
    const page = await h.client.fetchPage(quotes(h));
    expect(page.result.meta.attempts).toBe(2);
    // the date has whole-second precision: the wait is 5–6 s
    const waited = clock.sleeps.find((s) => s > 0) ?? 0;
    expect(waited).toBeGreaterThan(4_000);
    expect(waited).toBeLessThanOrEqual(6_000);
  });

  it('upstream: 5xx retried with backoff up to the attempt bound', async () => {
    const clock = new FakeClock(undefined, { autoAdvance: true });
    h = await sandboxHarness({ clock, policy: { maxAttempts: 4 } });
    h.fault('503');
    const e = await failure(h.client.fetchPage(quotes(h)));
    expectShown(e, 'upstream');
    expect(e.details?.attempts).toBe(4);
    expect(await h.requests()).toHaveLength(4);
  });

  it('upstream then success: a passing 502 costs a retry, not the call', async () => {
    h = await sandboxHarness();
    await fetch(`${h.sandbox.baseUrl}/__sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ fault: '502', count: 1 }),
    });
    const page = await h.client.fetchPage(quotes(h));
    expect(page.result.meta.attempts).toBe(2);
    expect(page.result.items.length).toBeGreaterThan(0);
  });

  it('malformed: a cut body is retried like a network error, and what it cost is on the error', async () => {
    const clock = new FakeClock(undefined, { autoAdvance: true });
    const usage = {
      record: (r: AttemptRecord) => creditsFor({ operation: r.operation, httpStatus: r.httpStatus, items: r.items }),
    };
    h = await sandboxHarness({ clock, policy: { maxAttempts: 3 }, usage });
    h.fault('truncate');
    const e = await failure(h.client.fetchPage(quotes(h)));
    expectShown(e, 'malformed');
    expect(e.details?.httpStatus).toBe(200);
    expect(await h.requests()).toHaveLength(3);
    const ledger = await h.ledger();
    expect(e.details).toMatchObject({ attempts: 3, calls: 3, credits: ledger.totals.credits });
    expect(ledger.totals.credits).toBeGreaterThan(0);

    // cut once, then whole: the page arrives, the cut attempt counted
    h.fault(undefined);
    await fetch(`${h.sandbox.baseUrl}/__sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ fault: 'truncate', count: 1 }),
    });
    const page = await h.client.fetchPage({ ...quotes(h), fresh: true });
    expect(page.result.meta.attempts).toBe(2);
    expect(page.result.items.length).toBeGreaterThan(0);
  });

  it('offline: a connection reset, retried, then reported', async () => {
    h = await sandboxHarness({ policy: { maxAttempts: 2 } });
    h.fault('reset');
    const e = await failure(h.client.fetchPage(quotes(h)));
    expectShown(e, 'offline');
    expect(await h.requests()).toHaveLength(2);
  });

  it('offline: nothing listens at the base URL', async () => {
    h = await sandboxHarness({ policy: { maxAttempts: 1 } });
    await h.close();
    const e = await failure(h.client.fetchPage(quotes(h)));
    expectShown(e, 'offline');
    h = undefined;
  });

  it('timeout: a request that hangs is cut by the per-attempt timeout', async () => {
    const clock = new FakeClock();
    h = await sandboxHarness({ clock, policy: { maxAttempts: 1, attemptTimeoutMs: 10_000 } });
    h.fault('hang');
    const pending = failure(h.client.fetchPage(quotes(h)));
    await until(async () => (await h!.requests()).length === 1);
    await clock.advance(10_000);
    expectShown(await pending, 'timeout');
  });

  it('cancelled: cancel by call id stops a call in flight', async () => {
    h = await sandboxHarness();
    h.fault('hang');
    const pending = failure(h.client.fetchPage({ ...quotes(h), callId: 'c1', senderId: 7 }));
    await until(async () => (await h!.requests()).length === 1);
    expect(h.client.cancel('c1', 8)).toBe(false); // another window cannot cancel it
    expect(h.client.cancel('c1', 7)).toBe(true);
    expectShown(await pending, 'cancelled');
    h.fault(undefined);
    expect((await h.client.fetchPage(quotes(h))).result.items.length).toBeGreaterThan(0);
  });

  it('cancelled: every call of a window that closed', async () => {
    h = await sandboxHarness();
    h.fault('hang');
    const a = failure(h.client.fetchPage({ ...quotes(h), callId: 'a', senderId: 3 }));
    const b = failure(h.client.fetchPage({ operation: 'trends', params: {}, callId: 'b', senderId: 3 }));
    await until(async () => (await h!.requests()).length === 2);
    expect(h.client.cancelSender(3)).toBe(2);
    expect((await a).code).toBe('cancelled');
    expect((await b).code).toBe('cancelled');
  });
});

describe('a project that may not keep what is bought', () => {
  it('sends no request and says why in plain words; once it may write again, the call goes out', async () => {
    let refusal: string | null =
      'ada may only read the team project “lab” on db.example: Skein does not collect into it.';
    const recorded: unknown[] = [];
    h = await sandboxHarness({
      archive: {
        record: (a) => recorded.push(a),
        forget: () => undefined,
        held: async () => null,
        refusal: () => refusal,
      },
    });
    const e = await failure(h.client.fetchPage(quotes(h)));
    expect(e.code).toBe('write-failed');
    expect(e.message).toContain('may only read the team project');
    expect(e.details?.action).toMatch(/Switch to a project you may write to/);
    expect(await h.requests()).toHaveLength(0);
    expect((await h.ledger()).totals.credits).toBe(0);
    refusal = null;
    await h.client.fetchPage(quotes(h));
    expect(await h.requests()).toHaveLength(1);
    expect(recorded).toHaveLength(1);
  });
});
