/**
 * The save service stand-in answers as Save Page Now does: a page of the small web is captured (a 302 whose
 * Location and Content-Location name the capture, which serves the page), a URL it cannot capture fails with a
 * 520 and a message, and every request is logged with the time it came.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_SEED } from './server';
import { useSandbox } from './test-utils';
import { webKind, webPage, type WebKind } from './web';

const sandbox = useSandbox();

function pathOf(kind: WebKind, host = 'news.example'): string {
  for (let i = 0; i < 1_000; i++) if (webKind(DEFAULT_SEED, host, `story-${i}`) === kind) return `story-${i}`;
  throw new Error(`no ${kind} page`);
}

const get = (url: string) => fetch(url, { redirect: 'manual' });

describe('the save service stand-in', () => {
  it('captures a page of the small web: a 302 to its capture, which serves the page', async () => {
    const { baseUrl } = sandbox().sandbox;
    const url = `https://news.example/${pathOf('page')}`;
    const res = await get(`${baseUrl}/save/${url}`);
    expect(res.status).toBe(302);
    const location = res.headers.get('location') as string;
    expect(location).toMatch(/^\/web-archive\/\d{14}\/https:\/\/news\.example\/story-\d+$/);
    expect(res.headers.get('content-location')).toBe(location);
    const capture = await get(`${baseUrl}${location}`);
    expect(capture.status).toBe(200);
    expect(await capture.text()).toBe(webPage(DEFAULT_SEED, 'news.example', pathOf('page')));
  });

  it('fails with a 520 and a message for what it cannot capture', async () => {
    const { baseUrl } = sandbox().sandbox;
    const unknown = await get(`${baseUrl}/save/https://nowhere.invalid/page`);
    expect(unknown.status).toBe(520);
    expect(await unknown.text()).toMatch(/Couldn't resolve host/);
    const gone = await get(`${baseUrl}/save/https://news.example/${pathOf('gone')}`);
    expect(gone.status).toBe(520);
    expect(await gone.text()).toMatch(/gone/);
  });

  it('logs every save request with its time', async () => {
    const { baseUrl } = sandbox().sandbox;
    await fetch(`${baseUrl}/__sandbox/save-requests`, { method: 'DELETE' });
    await get(`${baseUrl}/save/https://news.example/${pathOf('page')}`);
    await get(`${baseUrl}/save/https://nowhere.invalid/x`);
    const { requests } = (await (await fetch(`${baseUrl}/__sandbox/save-requests`)).json()) as {
      requests: Array<{ at: number; url: string; status: number }>;
    };
    expect(requests.map((r) => [r.url, r.status])).toEqual([
      [`https://news.example/${pathOf('page')}`, 302],
      ['https://nowhere.invalid/x', 520],
    ]);
    expect(requests.every((r) => Number.isFinite(r.at))).toBe(true);
  });
});
