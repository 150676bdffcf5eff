/**
 * The built app against a hostile server (any server may answer Skein): one category of
 * adversarial answers at a time, and script in the page calling the bridge as
 * a compromised page would. Every attack is survived: nothing from data runs,
 * no single item freezes the page, the key goes to no other origin, spending
 * stays within what the user confirmed in main.
 */
import type { Page } from '@playwright/test';
import { startHostileServer, type HostileCategory, type HostileServer } from '../src/core/testing/hostile-server';
import { expect, hostOf, type SkeinApp, test } from './fixtures';
import { hostOnly, openRoute } from './support/explorer';

const KEY = 'CANARY-e2e-key-42';
const POST = '1900000000000000001';

let server: HostileServer;
test.beforeEach(async () => {
  server = await startHostileServer('markup');
});
test.afterEach(async () => {
  await server.close();
});

type Bridge = Record<
  string,
  Record<
    string,
    (input?: unknown) => Promise<{ ok: boolean; data?: unknown; error?: { code: string; message: string } }>
  >
>;
const bridge = (page: Page, ns: string, fn: string, input?: unknown) =>
  page.evaluate(([n, f, i]) => (window as unknown as { skein: Bridge }).skein[n]![f]!(i), [ns, fn, input] as const);

async function openPost(app: SkeinApp, category: HostileCategory, id = '1900000000000000009') {
  server.use(category);
  await openRoute(app.page, `#/post/${id}`);
}

test('markup in text and names stays text; nothing runs', async ({ launch }, testInfo) => {
  hostOnly(testInfo);
  const app = await launch({ apiBaseUrl: server.baseUrl, apiKey: KEY });
  await openPost(app, 'markup', POST);
  await expect(
    app.page.locator('article.post').getByText('<script>window.__pwned=2</script>', { exact: false }).first(),
  ).toBeVisible();
  expect(await app.page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  expect(server.requests.every((r) => r.key === KEY)).toBe(true);
});

test('a 1 MB post with bad entity indices renders without freezing the page', async ({ launch }, testInfo) => {
  hostOnly(testInfo);
  const app = await launch({ apiBaseUrl: server.baseUrl, apiKey: KEY });
  server.use('bad-indices');
  const watchLongTasks = () =>
    app.page.evaluate(() => {
      const w = window as unknown as { __longest: number; __observer?: PerformanceObserver };
      w.__longest = 0;
      w.__observer?.disconnect();
      w.__observer = new PerformanceObserver((list) => {
        for (const e of list.getEntries()) w.__longest = Math.max(w.__longest, e.duration);
      });
      w.__observer.observe({ type: 'longtask', buffered: false });
    });
  const longest = () => app.page.evaluate(() => (window as unknown as { __longest: number }).__longest);
  const shown = app.page
    .locator(`article[data-post-id="${POST}"] p`)
    .filter({ hasText: /^a{100}/ })
    .first();
  // first visit: the 1.5 MB answer crosses the bridge, then renders
  await watchLongTasks();
  await openRoute(app.page, `#/post/${POST}`);
  await expect(shown).toBeVisible({ timeout: 20_000 });
  const first = await longest();
  // later visits render it again from the cache: the item's own cost. The fastest of three is that cost; a
  // slower one measured the other browser of the run or a collection as well (seen 2× on a loaded runner)
  const visits: number[] = [];
  for (let i = 0; i < 3; i++) {
    await openRoute(app.page, '#/settings');
    await expect(app.page.getByRole('heading', { name: 'Settings' })).toBeVisible();
    await watchLongTasks();
    await openRoute(app.page, `#/post/${POST}`);
    await expect(shown).toBeVisible();
    visits.push(await longest());
  }
  const again = Math.min(...visits);
  testInfo.annotations.push({
    type: 'longest task (ms)',
    description: `first visit ${Math.round(first)}, again ${visits.map(Math.round).join(' / ')}`,
  });
  await expect(app.page.getByRole('button', { name: /Show all 999,999 characters/ }).first()).toBeVisible();
  // the quadratic search blocked the page 23 s (5.7 s at 0.5 MB) on every visit
  expect(first).toBeLessThan(1000);
  expect(again).toBeLessThan(250);
});

test('deep nesting is cut and the innocent post of the page still shows', async ({ launch }, testInfo) => {
  hostOnly(testInfo);
  const app = await launch({ apiBaseUrl: server.baseUrl, apiKey: KEY });
  server.use('deep');
  await openRoute(app.page, `#/post/${POST}/quotes`);
  await expect(app.page.getByText('An innocent post that must still show').first()).toBeVisible();
  if (app.host) expect(app.host.internalErrors()).toEqual([]);
});

test('spoofing characters in handles are shown as codes and flagged; names are isolated', async ({
  launch,
}, testInfo) => {
  hostOnly(testInfo);
  const app = await launch({ apiBaseUrl: server.baseUrl, apiKey: KEY });
  server.use('spoofing');
  await openRoute(app.page, `#/post/${POST}/quotes`);
  await expect(app.page.getByText('@ada⟨U+202E⟩gnp⟨U+002E⟩exe').first()).toBeVisible();
  await expect(app.page.getByText('@a⟨U+200B⟩da').first()).toBeVisible();
  await expect(app.page.getByRole('img', { name: 'Unusual handle' }).first()).toBeVisible();
});

test('links: the real domain shows, http asks in main, user:password@ is not a link', async ({ launch }, testInfo) => {
  hostOnly(testInfo);
  const app = await launch({ apiBaseUrl: server.baseUrl, apiKey: KEY });
  server.use('links');
  await openRoute(app.page, `#/post/${POST}/quotes`);
  const evil = app.page.getByRole('link', { name: /bank\.example \(evil\.example\)/ }).first();
  await expect(evil).toBeVisible();
  await app.setConfirmAnswer(false);
  await app.page
    .getByRole('link', { name: /plain\.example/ })
    .first()
    .click();
  await expect(app.page.getByText(/Not opened: an unencrypted http: link/).first()).toBeVisible();
  expect(hostOf(app).openedExternally()).toEqual([]);
  expect(hostOf(app).confirmRequests().at(-1)?.title).toContain('plain.example');
  await expect(app.page.locator('a[href*="pw@evil.example"]')).toHaveCount(0);
  expect((await bridge(app.page, 'app', 'openExternal', { url: 'https://bank.example:pw@evil.example/' })).ok).toBe(
    false,
  );
});

test('media on a local port is never requested', async ({ launch }, testInfo) => {
  hostOnly(testInfo);
  const app = await launch({ apiBaseUrl: server.baseUrl, apiKey: KEY });
  const blocked: string[] = [];
  app.page.on('console', (m) => {
    if (/Content Security Policy/.test(m.text())) blocked.push(m.text());
  });
  server.use('local-media');
  await openRoute(app.page, `#/post/${POST}/quotes`);
  await expect(app.page.getByText('Local media').first()).toBeVisible();
  await expect.poll(() => blocked.length).toBeGreaterThan(0);
  // the media URLs point at this very server: it never saw a request for them
  expect(server.requests.filter((r) => r.path.startsWith('/local-media/'))).toEqual([]);
});

test('a compromised page cannot send the key elsewhere, raise spending, or keep the key without a keyring', async ({
  launch,
}, testInfo) => {
  hostOnly(testInfo);
  const attacker = await startHostileServer('markup');
  try {
    const app = await launch();
    const { page } = app;
    // the user: live mode at the hostile-but-trusted server, a key entered for it (confirmations: yes)
    expect((await bridge(page, 'settings', 'update', { mode: 'live', baseUrl: server.baseUrl })).ok).toBe(true);
    expect((await bridge(page, 'credentials', 'set', { key: KEY })).ok).toBe(true);
    // the page from now on; the user says no to whatever main asks
    await app.setConfirmAnswer(false);
    const asked = hostOf(app).confirmRequests().length;
    expect((await bridge(page, 'settings', 'update', { baseUrl: attacker.baseUrl })).ok).toBe(false);
    expect((await bridge(page, 'settings', 'update', { baseUrl: 'http://attacker.example' })).error?.code).toBe(
      'bad-input',
    );
    expect((await bridge(page, 'settings', 'update', { requestsPerSecond: 50 })).ok).toBe(false);
    expect((await bridge(page, 'settings', 'update', { creditsPerHour: 1e9 })).ok).toBe(false);
    expect((await bridge(page, 'settings', 'update', { persistKeyWithoutKeyring: true })).ok).toBe(false);
    expect(hostOf(app).confirmRequests().length - asked).toBe(4);
    expect(
      (await bridge(page, 'api', 'call', { operation: 'postQuotes', params: { tweetId: '1' }, fresh: true })).ok,
    ).toBe(true);
    expect(attacker.requests).toHaveLength(0);
    expect(server.requests.at(-1)?.key).toBe(KEY);
    // a reset of the meter is recorded, not hidden
    await bridge(page, 'usage', 'reset');
    const usage = (await bridge(page, 'usage', 'get')).data as { history: Array<{ kind: string }> };
    expect(usage.history[0]?.kind).toBe('reset');
  } finally {
    await attacker.close();
  }
});

test('a day-long Retry-After: a bounded countdown in the service’s words, and Try now', async ({
  launch,
}, testInfo) => {
  hostOnly(testInfo);
  const app = await launch({ apiBaseUrl: server.baseUrl, apiKey: KEY });
  server.use('retry-after');
  await openRoute(app.page, `#/post/${POST}/quotes`);
  // the post view looks its post up first: that call is the one refused
  const alert = app.page.getByRole('alert').filter({ hasText: /Rate limited — (the post|quotes)/ });
  await expect(alert).toContainText('Retry-After: “86400”');
  await expect(alert).toContainText(/\(\d+ s\)/);
  const seconds = Number((await alert.textContent())?.match(/\((\d+) s\)/)?.[1]);
  expect(seconds).toBeLessThanOrEqual(15 * 60);
  server.use('markup');
  await alert.getByRole('button', { name: 'Try now' }).click();
  // the post, then its quotes: two calls at live mode's default pace (one every 5 s)
  await expect(app.page.getByText('An innocent post that must still show').first()).toBeVisible({ timeout: 20_000 });
});
