/**
 * The browser shell under attack from a real browser: a page of another origin
 * in the same browser (which holds Skein's cookie: other local ports are the same
 * site) cannot call the bridge or read anything, and a browser without the
 * printed URL's secret gets nothing but 401.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { channelName } from '../src/shared/ipc';
import { expect, test } from './fixtures';

let evil: Server;
let evilOrigin: string;

test.beforeAll(async () => {
  evil = createServer((_req, res) =>
    res.writeHead(200, { 'Content-Type': 'text/html' }).end('<!doctype html><title>elsewhere</title><p>another site'),
  );
  await new Promise<void>((done) => evil.listen(0, '127.0.0.1', done));
  evilOrigin = `http://127.0.0.1:${(evil.address() as AddressInfo).port}`;
});
test.afterAll(() => new Promise<void>((done) => evil.close(() => done())));

// eslint-disable-next-line no-empty-pattern
test.beforeEach(({}, testInfo) => {
  test.skip(testInfo.project.name === 'electron', 'the browser shell only');
});

test('a page on another local origin, in the same browser, cannot call the bridge', async ({ skein }) => {
  const shellOrigin = new URL(skein.page.url()).origin;
  const other = await skein.page.context().newPage();
  await other.goto(evilOrigin);
  const attempts = await other.evaluate(
    async ([target, channel]) => {
      const body = JSON.stringify({ channel, input: { url: 'https://evil.example/' }, sender: 'evil' });
      const outcomes: string[] = [];
      // a CORS call (preflighted: JSON), and "simple" ones that skip the preflight
      for (const init of [
        { method: 'POST', headers: { 'Content-Type': 'application/json' }, body, credentials: 'include' as const },
        {
          method: 'POST',
          headers: { 'Content-Type': 'text/plain' },
          body,
          credentials: 'include' as const,
          mode: 'no-cors' as const,
        },
        {
          method: 'POST',
          body: new URLSearchParams({ channel }),
          credentials: 'include' as const,
          mode: 'no-cors' as const,
        },
      ]) {
        try {
          const res = await fetch(`${target}/__skein/bridge`, init);
          outcomes.push(`${res.type}:${res.status}:${await res.text()}`);
        } catch (error) {
          outcomes.push(`blocked:${(error as Error).name}`);
        }
      }
      try {
        const res = await fetch(`${target}/index.html`, { credentials: 'include' });
        outcomes.push(`read:${res.status}`);
      } catch (error) {
        outcomes.push(`blocked:${(error as Error).name}`);
      }
      return outcomes;
    },
    [shellOrigin, channelName('app', 'openExternal')] as const,
  );
  // nothing readable came back (refused by CORS, or by the CORP header of the 403), and main never ran the call
  expect(attempts).toHaveLength(4);
  for (const outcome of attempts) expect(outcome).toMatch(/^(blocked:TypeError|opaque:0:)$/);
  if (skein.host) expect(skein.host.openedExternally()).toEqual([]);
  await other.close();
});

test('a browser without the printed URL gets 401 and no Skein', async ({ skein }) => {
  const shellOrigin = new URL(skein.page.url()).origin;
  const stranger = await skein.page.context().browser()!.newContext();
  const page = await stranger.newPage();
  const res = await page.goto(`${shellOrigin}/index.html`);
  expect(res?.status()).toBe(401);
  await expect(page.getByText('Open Skein with the URL printed in its terminal.')).toBeVisible();
  expect(await page.evaluate(() => typeof window.skein)).toBe('undefined');
  const wrong = await page.goto(`${shellOrigin}/__skein/auth?secret=not-the-secret`);
  expect(wrong?.status()).toBe(401);
  expect(await stranger.cookies()).toEqual([]);
  await stranger.close();
});

test('the session survives a reload, and the secret is no longer in the address bar', async ({ skein }) => {
  expect(skein.page.url()).not.toContain('secret');
  await skein.page.reload();
  await expect(skein.page.getByRole('main').first()).toBeVisible();
  const res = await skein.page.evaluate(() => window.skein!.app.info());
  expect(res.ok).toBe(true);
});
