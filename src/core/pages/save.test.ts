/**
 * Sending linked pages to a web archive's save service, on a project file and a team's PostgreSQL schema: to
 * the sandbox's stand-in, each URL ends with the capture's address or the service's reason, the requests paced
 * (the stand-in's log times), and sending again sends nothing. To a hostile service (a local server): an answer
 * without the capture's address, a capture address on this computer (recorded as refused, never followed), a 429
 * whose Retry-After is waited out and one too long to wait (the rest left for the next run), a failure whose body
 * never ends, a service that never answers.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox as RunningSandbox } from '../../sandbox';
import { DEFAULT_SEED } from '../../sandbox/server';
import { webKind, type WebKind } from '../../sandbox/web';
import { systemClock } from '../clock';
import { migrateParts } from '../db';
import { DIALECTS } from '../db/testing/dialects';
import { DEFAULT_FETCH_POLICY } from '../net';
import { saveToArchive, type SaveDeps } from './save';
import { PAGES_PART } from './tables/part';

const pathOf = (kind: WebKind, host = 'news.example'): string => {
  for (let i = 0; i < 1_000; i++) if (webKind(DEFAULT_SEED, host, `story-${i}`) === kind) return `story-${i}`;
  throw new Error(`no ${kind} page`);
};

let sandbox: RunningSandbox;
let hostile: Server;
let hostileOrigin: string;
const asked: Array<{ at: number; url: string }> = [];
const open = new Set<ServerResponse>();
let busyOnce = true;

beforeAll(async () => {
  // the sandbox's clock is the real one: its log's times show the pace
  sandbox = await startSandbox({ size: 'small' });
  hostile = createServer((req, res) => {
    open.add(res);
    res.on('close', () => open.delete(res));
    const url = decodeURIComponent((req.url ?? '').replace(/^\/save\//, ''));
    asked.push({ at: Date.now(), url });
    switch (new URL(url).pathname) {
      case '/no-location':
        return res.writeHead(200, { 'content-type': 'text/html' }).end('<p>Saved! (but where?)</p>');
      case '/content-location':
        return res.writeHead(200, { 'content-location': `/web/20261101000000/${url}` }).end();
      case '/to-loopback':
        return res.writeHead(302, { location: 'http://127.0.0.1/web/1/x' }).end();
      case '/to-loopback-https':
        return res.writeHead(302, { location: 'https://127.0.0.1:8443/web/1/x' }).end();
      case '/busy':
        if (busyOnce) {
          busyOnce = false;
          return res.writeHead(429, { 'retry-after': '1' }).end();
        }
        return res.writeHead(302, { location: `/web/20261101000001/${url}` }).end();
      case '/busy-for-an-hour':
        return res.writeHead(429, { 'retry-after': '3600' }).end();
      case '/endless': {
        // a failure whose explanation never ends
        res.writeHead(520, { 'content-type': 'text/plain' });
        res.write('Job failed: <b>the\u202e site</b> is down. ');
        const t = setInterval(() => res.write('more '), 20);
        return res.on('close', () => clearInterval(t));
      }
      case '/silent':
        return; // never answers
      default:
        return res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => hostile.listen(0, '127.0.0.1', resolve));
  hostileOrigin = `http://127.0.0.1:${(hostile.address() as AddressInfo).port}`;
}, 60_000);

afterAll(async () => {
  for (const res of open) res.destroy();
  await new Promise((resolve) => hostile.close(resolve));
  await sandbox.close();
});

const saveLog = async () =>
  (
    (await (await fetch(`${sandbox.baseUrl}/__sandbox/save-requests`)).json()) as {
      requests: Array<{ at: number; url: string; status: number }>;
    }
  ).requests;

describe.each(DIALECTS)('sending linked pages to a save service on $name', (d) => {
  beforeAll(d.setup, 120_000);
  afterAll(d.teardown);
  const maybe = d.skip ? it.skip : it;
  if (d.skip) it.skip(`(${d.skip})`, () => undefined);

  const storeOn = async () => {
    const db = await d.fresh();
    await migrateParts(db, [PAGES_PART], 0);
    return PAGES_PART.open(db, { now: Date.now });
  };

  maybe(
    'each URL ends with its capture address or the reason, paced; sending again sends nothing',
    async () => {
      const store = await storeOn();
      const urls = [
        ...(['page', 'moved', 'slow', 'gone', 'inner'] as const).map((k) => `https://news.example/${pathOf(k)}`),
        'https://nowhere.invalid/story',
      ];
      await fetch(`${sandbox.baseUrl}/__sandbox/save-requests`, { method: 'DELETE' });
      const deps: SaveDeps = {
        store,
        service: `${sandbox.baseUrl}/save/`,
        paceMs: 400,
        policy: { ...DEFAULT_FETCH_POLICY, trustedOrigins: [new URL(sandbox.baseUrl).origin] },
        clock: systemClock,
      };
      const seen: number[] = [];
      const first = await saveToArchive([...urls, urls[0] as string], deps, undefined, (p) => seen.push(p.done));
      expect(first).toMatchObject({ total: 6, done: 6, saved: 3, failed: 3, alreadySaved: 0, reasons: { failed: 3 } });
      expect(seen.at(-1)).toBe(6);

      const rows = new Map((await store.saves(urls)).map((r) => [r.url, r]));
      for (const k of ['page', 'moved', 'slow'] as const) {
        const url = `https://news.example/${pathOf(k)}`;
        const row = rows.get(url);
        expect(row).toMatchObject({ state: 'saved', status: 302, service: deps.service, reason: null });
        expect(row?.captureUrl).toMatch(new RegExp(`^${sandbox.baseUrl}/web-archive/\\d{14}/${url}$`));
        // the capture is there, at the address recorded
        expect((await fetch(row?.captureUrl as string)).status).toBe(200);
      }
      expect(rows.get(`https://news.example/${pathOf('gone')}`)).toMatchObject({ state: 'failed', reason: 'failed' });
      expect(rows.get(`https://news.example/${pathOf('gone')}`)?.message).toBe(
        'the save service answered 520: The page is gone: the site answered 404.',
      );
      expect(rows.get('https://nowhere.invalid/story')?.message).toMatch(/520: Couldn't resolve host/);

      // one request at a time, at most one every 400 ms (less a little: the log's times are when each arrived)
      const log = await saveLog();
      expect(log.map((r) => r.url)).toEqual(urls);
      for (let i = 1; i < log.length; i++)
        expect((log[i]?.at as number) - (log[i - 1]?.at as number)).toBeGreaterThanOrEqual(350);

      // again: what was saved is not sent, what failed is asked again
      await fetch(`${sandbox.baseUrl}/__sandbox/save-requests`, { method: 'DELETE' });
      const again = await saveToArchive(urls, deps);
      expect(again).toMatchObject({ total: 3, saved: 0, failed: 3, alreadySaved: 3 });
      expect((await saveLog()).map((r) => r.url).sort()).toEqual(
        urls.filter((u) => rows.get(u)?.state === 'failed').sort(),
      );
      expect((await store.saves(urls)).find((r) => r.url === 'https://nowhere.invalid/story')?.attempts).toBe(2);
    },
    30_000,
  );

  maybe(
    'a hostile service: no address, an address on this computer, 429s, an endless body, silence',
    async () => {
      const store = await storeOn();
      const url = (path: string) => `https://site.example/${path}`;
      const urls = [
        'no-location',
        'content-location',
        'to-loopback',
        'to-loopback-https',
        'busy',
        'endless',
        'silent',
        'busy-for-an-hour',
        'never-sent',
      ].map(url);
      asked.length = 0;
      busyOnce = true;
      const started = Date.now();
      const result = await saveToArchive(urls, {
        store,
        service: `${hostileOrigin}/save/`,
        paceMs: 50,
        policy: { ...DEFAULT_FETCH_POLICY, trustedOrigins: [hostileOrigin] },
        clock: systemClock,
        timeoutMs: 1_500,
        maxWaitMs: 5_000,
      });
      expect(Date.now() - started).toBeLessThan(12_000);
      expect(result).toMatchObject({ total: 9, done: 9, saved: 2 });
      const rows = new Map((await store.saves(urls)).map((r) => [r.url, r]));
      const row = (path: string) => rows.get(url(path));

      expect(row('no-location')).toMatchObject({ state: 'failed', reason: 'failed', captureUrl: null });
      expect(row('no-location')?.message).toMatch(/without the capture’s address/);
      expect(row('content-location')).toMatchObject({
        state: 'saved',
        captureUrl: `${hostileOrigin}/web/20261101000000/${url('content-location')}`,
      });
      // a capture address on this computer: recorded as refused, never followed (nothing asked it)
      for (const p of ['to-loopback', 'to-loopback-https']) {
        expect(row(p)).toMatchObject({ state: 'failed', reason: 'refused', captureUrl: null });
        expect(row(p)?.message).toMatch(/127\.0\.0\.1.*it was not followed/);
      }
      expect(asked.every((a) => !a.url.includes('/web/1/x'))).toBe(true);

      // a short Retry-After is waited out, then asked once more
      expect(row('busy')).toMatchObject({ state: 'saved', status: 302 });
      const busy = asked.filter((a) => a.url === url('busy'));
      expect(busy).toHaveLength(2);
      expect((busy[1]?.at as number) - (busy[0]?.at as number)).toBeGreaterThanOrEqual(990);

      // a failure's endless body: a little of it, as plain words, and on to the next
      expect(row('endless')).toMatchObject({ state: 'failed', reason: 'failed', status: 520 });
      expect(row('endless')?.message).toMatch(/^the save service answered 520: Job failed: the site is down\. more/);
      expect((row('endless')?.message ?? '').length).toBeLessThan(400);
      expect(row('silent')).toMatchObject({ state: 'failed', reason: 'timed-out', status: null });

      // a Retry-After too long to wait: recorded, and the rest is not sent this run
      expect(row('busy-for-an-hour')).toMatchObject({ state: 'failed', reason: 'rate-limited', status: 429 });
      expect(row('busy-for-an-hour')?.message).toMatch(/asked Skein to wait until \d\d:\d\d:\d\d UTC/);
      expect(row('never-sent')).toMatchObject({ state: 'failed', reason: 'rate-limited' });
      expect(asked.some((a) => a.url === url('never-sent'))).toBe(false);
      expect(result.reasons).toMatchObject({ 'rate-limited': 2, refused: 2, 'timed-out': 1, failed: 2 });
    },
    30_000,
  );

  maybe('a service that is not https, or on a private address, is never asked', async () => {
    const store = await storeOn();
    const result = await saveToArchive(['https://site.example/a'], {
      store,
      service: 'http://archive.example/save/',
      paceMs: 10,
      policy: DEFAULT_FETCH_POLICY,
      clock: systemClock,
    });
    expect(result).toMatchObject({ saved: 0, failed: 1, reasons: { refused: 1 } });
    expect((await store.saves(['https://site.example/a']))[0]?.message).toMatch(/only https/);
    await saveToArchive(['https://site.example/b'], {
      store,
      service: 'https://10.0.0.1/save/',
      paceMs: 10,
      policy: DEFAULT_FETCH_POLICY,
      clock: systemClock,
    });
    expect((await store.saves(['https://site.example/b']))[0]).toMatchObject({ state: 'failed', reason: 'refused' });
  });
});
