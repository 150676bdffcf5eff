/**
 * Attacks from a compromised page (any bridge call it likes) against a hostile
 * server: the key stays bound to the origin it was entered for, spending stays
 * within what the user confirmed in main, a 429 pauses one base URL for a
 * bounded time. The user's answers to main's dialogs are the test's `answer`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { contract, type ApiCallOutput, type Envelope, type Settings, type UsageSnapshot } from '../../shared/ipc';
import { createClientServices } from './client-services';
import type { ConfirmRequest } from '../ports';
import { FakeClock } from '../testing/fake-clock';
import { fakeSecretStorage } from '../testing/fake-secret-storage';
import { INNOCENT_TEXT, startHostileServer, type HostileServer } from '../testing/hostile-server';
import { createContractDispatcher } from '../bridge/dispatch';
import { createApiHandlers } from '../api/handlers';
import { createSettingsHandlers } from './handlers';

const { api, credentials, settings, usage, cache } = contract;
const shape = { api, credentials, settings, usage, cache };
const cleanup: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

const KEY = 'CANARY-key-0123456789';

async function server(): Promise<HostileServer> {
  const s = await startHostileServer('markup');
  cleanup.push(() => s.close());
  return s;
}

function setup(opts: { dir?: string; clock?: FakeClock } = {}) {
  const dir = opts.dir ?? mkdtempSync(join(tmpdir(), 'skein-hostile-'));
  if (!opts.dir) cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
  const asked: ConfirmRequest[] = [];
  let answer = false;
  const clock = opts.clock ?? new FakeClock(undefined, { autoAdvance: true });
  const services = createClientServices({
    userDataDir: dir,
    secretStorage: fakeSecretStorage('gnome_libsecret'),
    demoBaseUrl: () => Promise.reject(new Error('no demo here')),
    fetch: (url, init) => fetch(url, init),
    clock,
    random: () => 0.5,
    policy: { maxAttempts: 1 },
    confirm: async (request) => {
      asked.push(request);
      return answer;
    },
  });
  const dispatcher = createContractDispatcher(shape, {
    ...createApiHandlers(services),
    ...createSettingsHandlers(services),
  });
  return {
    dir,
    asked,
    clock,
    answer: (yes: boolean) => (answer = yes),
    call: async <T>(channel: string, input?: unknown) =>
      (await dispatcher.dispatch(`skein:${channel}`, input, { senderId: 1 })) as Envelope<T>,
  };
}

const ok = <T>(e: Envelope<T>): T => {
  if (!e.ok) throw new Error(`${e.error.code}: ${e.error.message}`);
  return e.data;
};
const quotes = { operation: 'postQuotes', params: { tweetId: '1' }, fresh: true };

/** the user's own set-up: live mode at server `a`, a key entered for it */
async function userSetUp(s: ReturnType<typeof setup>, a: HostileServer) {
  s.answer(true);
  ok(await s.call('settings.update', { mode: 'live', baseUrl: a.baseUrl }));
  ok(await s.call('credentials.set', { key: KEY }));
  s.answer(false);
}

describe('the key is bound to the origin it was entered for', () => {
  it('a page moving the base URL to another origin gets neither the key nor the change without the user’s yes', async () => {
    const [a, attacker] = [await server(), await server()];
    const s = setup();
    await userSetUp(s, a);
    ok(await s.call<ApiCallOutput>('api.call', quotes));
    expect(a.requests.at(-1)?.key).toBe(KEY);

    const moved = await s.call('settings.update', { baseUrl: attacker.baseUrl });
    expect(moved.ok).toBe(false);
    expect(s.asked.at(-1)?.title).toContain(attacker.baseUrl);
    expect(ok(await s.call<Settings>('settings.get')).baseUrl).toBe(a.baseUrl);
    await s.call('api.call', quotes);
    expect(attacker.requests).toHaveLength(0);
    expect(a.requests.at(-1)?.key).toBe(KEY);
  });

  it('after a restart the binding holds, and a key only moves when the user confirms', async () => {
    const [a, b] = [await server(), await server()];
    const first = setup();
    await userSetUp(first, a);
    const again = setup({ dir: first.dir });
    again.answer(true);
    ok(await again.call('settings.update', { baseUrl: b.baseUrl }));
    ok(await again.call('api.call', quotes));
    expect(b.requests.at(-1)?.key).toBe(KEY);
    expect(a.requests).toHaveLength(0);
    // moved with the user's yes: bound to b now, also after another restart
    const third = setup({ dir: first.dir });
    ok(await third.call('api.call', quotes));
    expect(b.requests.at(-1)?.key).toBe(KEY);
  });

  it('a key entered again for the new origin needs no dialog; clearing it first moves nothing', async () => {
    const [a, b] = [await server(), await server()];
    const s = setup();
    await userSetUp(s, a);
    ok(await s.call('credentials.clear'));
    ok(await s.call('settings.update', { baseUrl: b.baseUrl }));
    await s.call('api.call', quotes);
    expect(b.requests.at(-1)?.key).toBeNull();
    ok(await s.call('credentials.set', { key: KEY }));
    ok(await s.call('api.call', quotes));
    expect(b.requests.at(-1)?.key).toBe(KEY);
    expect(a.requests.every((r) => r.key === KEY)).toBe(true);
  });

  it.each([
    'http://attacker.example',
    'http://10.0.0.1:8080',
    'https://user:pass@attacker.example',
    'ftp://attacker.example',
    'javascript:alert(1)',
  ])('base URL %s is refused: https only, plain http for loopback only, no credentials', async (url) => {
    const s = setup();
    const r = await s.call('settings.update', { baseUrl: url });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.code).toBe('bad-input');
  });

  it('loopback http and any https are accepted', async () => {
    const s = setup();
    s.answer(true);
    for (const url of [
      'http://127.0.0.1:8080',
      'http://localhost:3000',
      'http://[::1]:9000',
      'https://api.provider.example',
    ]) {
      expect((await s.call('settings.update', { baseUrl: url })).ok).toBe(true);
    }
  });
});

describe('spending is bounded by main', () => {
  it('a page cannot raise the pace above the confirmed ceiling, nor the hourly budget', async () => {
    const s = setup();
    const before = ok(await s.call<Settings>('settings.get'));
    const pace = await s.call('settings.update', { requestsPerSecond: 50 });
    expect(pace.ok).toBe(false);
    const budget = await s.call('settings.update', { creditsPerHour: before.creditsPerHour * 100 });
    expect(budget.ok).toBe(false);
    expect(s.asked.map((r) => r.title)).toEqual([
      expect.stringContaining('50 requests per second'),
      expect.stringContaining('credits an hour'),
    ]);
    expect(ok(await s.call<Settings>('settings.get'))).toMatchObject({
      requestsPerSecond: before.requestsPerSecond,
      creditsPerHour: before.creditsPerHour,
    });
    // lowering needs no dialog
    expect((await s.call('settings.update', { creditsPerHour: 100, requestsPerSecond: 0.1 })).ok).toBe(true);
    expect(s.asked).toHaveLength(2);
    // a confirmed ceiling lets the page move within it
    s.answer(true);
    ok(await s.call('settings.update', { requestsPerSecond: 5 }));
    s.answer(false);
    ok(await s.call('settings.update', { requestsPerSecond: 1 }));
    ok(await s.call('settings.update', { requestsPerSecond: 5 }));
    expect((await s.call('settings.update', { requestsPerSecond: 6 })).ok).toBe(false);
  });

  it('past the hourly budget no request leaves, until the hour frees it', async () => {
    const a = await server();
    const s = setup();
    await userSetUp(s, a);
    // the markup body has 2 posts: perPost pricing, at least the minimum per call
    ok(await s.call('settings.update', { creditsPerHour: 40 }));
    let calls = 0;
    let refused: Envelope<unknown> | undefined;
    for (let i = 0; i < 20 && !refused; i++) {
      const r = await s.call('api.call', quotes);
      if (r.ok) calls++;
      else refused = r;
    }
    expect(calls).toBeGreaterThan(0);
    expect(calls).toBeLessThan(20);
    expect(refused && !refused.ok && refused.error.message).toMatch(/budget of 40 credits an hour/);
    expect(a.requests).toHaveLength(calls);
    // a reset of the meter frees nothing, and is recorded
    ok(await s.call('usage.reset'));
    expect((await s.call('api.call', quotes)).ok).toBe(false);
    expect(a.requests).toHaveLength(calls);
    const snap = ok(await s.call<UsageSnapshot>('usage.get'));
    expect(snap.history?.map((h) => h.kind)).toEqual(['reset', 'budget']);
    expect(snap.lastHour?.credits).toBeGreaterThanOrEqual(40);
    // an hour later the budget has room again
    await s.clock.advance(60 * 60 * 1000 + 1);
    ok(await s.call('api.call', quotes));
  });

  it('price edits and pace changes are recorded in the usage history', async () => {
    const s = setup();
    const before = ok(await s.call<Settings>('settings.get'));
    ok(await s.call('settings.update', { prices: { ...before.prices, perPost: 0 } }));
    ok(await s.call('settings.update', { requestsPerSecond: 0.1 }));
    const history = ok(await s.call<UsageSnapshot>('usage.get')).history ?? [];
    expect(history.map((h) => h.kind)).toEqual(['pace', 'prices']);
    expect(history[1]?.detail).toMatch(/perPost .* → 0/);
  });
});

describe('keeping the key without a keyring', () => {
  it('a page cannot turn it on without the user’s yes in main', async () => {
    const s = setup();
    const r = await s.call('settings.update', { persistKeyWithoutKeyring: true });
    expect(r.ok).toBe(false);
    expect(s.asked.at(-1)?.title).toMatch(/without a keyring/);
    expect(ok(await s.call<Settings>('settings.get')).persistKeyWithoutKeyring).toBe(false);
    s.answer(true);
    expect(
      ok(await s.call<Settings>('settings.update', { persistKeyWithoutKeyring: true })).persistKeyWithoutKeyring,
    ).toBe(true);
  });
});

describe('a 429 pauses one base URL, for a bounded time', () => {
  it('a day-long Retry-After: shown in the service’s words, paused ≤ 15 min, other calls to that URL wait without a request, try now clears it', async () => {
    const a = await server();
    const s = setup();
    await userSetUp(s, a);
    a.use('retry-after');
    const first = await s.call('api.call', quotes);
    expect(first.ok).toBe(false);
    if (first.ok) return;
    expect(first.error.code).toBe('rate-limited');
    expect(first.error.message).toContain('Retry-After: “86400”');
    expect(first.error.message).toContain('come back tomorrow');
    const retryAt = first.error.details?.retryAt ?? 0;
    expect(retryAt - s.clock.now()).toBeLessThanOrEqual(15 * 60 * 1000);
    expect(retryAt).toBeGreaterThan(s.clock.now());

    // another call to the same base URL: paused, said at once, no request sent
    a.use('markup');
    const sent = a.requests.length;
    const second = await s.call('api.call', { operation: 'postsByIds', params: { tweet_ids: '1' }, fresh: true });
    expect(second.ok).toBe(false);
    if (!second.ok) expect(second.error).toMatchObject({ code: 'rate-limited', details: { retryAt } });
    if (!second.ok) expect(second.error.message).toContain('Retry-After: “86400”');
    expect(a.requests).toHaveLength(sent);

    // another base URL is not paused
    const b = await server();
    s.answer(true);
    ok(await s.call('settings.update', { baseUrl: b.baseUrl }));
    ok(await s.call('api.call', quotes));
    ok(await s.call('settings.update', { baseUrl: a.baseUrl }));

    // "try now" asks the service again at once
    expect(ok(await s.call<{ cleared: boolean }>('api.tryNow')).cleared).toBe(true);
    ok(await s.call('api.call', quotes));
    expect(a.requests).toHaveLength(sent + 1);
  });

  it.each(['Fri, 31 Dec 9999 23:59:59 GMT', '99999999999999999999', '-5', 'soon', ''])(
    'Retry-After “%s” never pauses longer than 15 minutes',
    async (value) => {
      const a = await server();
      const s = setup();
      await userSetUp(s, a);
      a.use('retry-after');
      a.retryAfter(value);
      const r = await s.call('api.call', quotes);
      expect(r.ok).toBe(false);
      if (!r.ok && r.error.details?.retryAt !== undefined)
        expect(r.error.details.retryAt - s.clock.now()).toBeLessThanOrEqual(15 * 60 * 1000);
    },
  );
});

describe('hostile bodies from the server', () => {
  it('a retweet chain and an unknown field 10,000 deep are cut and reported; the page, its innocent post and its raw items cross the bridge', async () => {
    const a = await server();
    const s = setup();
    await userSetUp(s, a);
    a.use('deep');
    const r = await s.call<ApiCallOutput>('api.call', quotes);
    const page = ok(r);
    // what the bridge does with an answer (Electron's structured clone, the e2e host's JSON)
    const text = JSON.stringify(r);
    structuredClone(r);
    expect(text.length).toBeLessThan(200_000);
    expect(page.items.map((p) => (p as { text: string }).text)).toEqual([
      'A post with a deep retweet chain',
      INNOCENT_TEXT,
    ]);
    expect(page.report.cut?.map((c) => c.message)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/post nested more than 3/),
        expect.stringMatching(/deeper than 64/),
      ]),
    );
  });

  it('prototype keys as keys and values do not pollute or crash main', async () => {
    const a = await server();
    const s = setup();
    await userSetUp(s, a);
    a.use('proto-keys');
    const page = ok(await s.call<ApiCallOutput>('api.call', quotes));
    expect(page.items.length).toBeGreaterThan(1);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype.toString.call([])).toBe('[object Array]');
  });
});
