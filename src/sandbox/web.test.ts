/**
 * The small web the posts link to: a linked URL's page is served at `/web/<host>/<path>`, the same bytes each
 * time, with its image from the sandbox's own media; and the ways the web goes wrong answer as a fetcher meets
 * them (gone, moved within the small web, sent to this machine, slow).
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_SEED } from './server';
import { useSandbox, walk } from './test-utils';
import { SLOW_MS, webKind, type WebKind } from './web';

const sandbox = useSandbox();

/** a path on a made-up host that answers the given way */
function pathOf(kind: WebKind, host = 'news.example'): string {
  for (let i = 0; i < 1_000; i++) if (webKind(DEFAULT_SEED, host, `story-${i}`) === kind) return `story-${i}`;
  throw new Error(`no ${kind} page`);
}

const get = (url: string) => fetch(url, { redirect: 'manual' });

describe('the small web', () => {
  it("serves a linked post's page: title, text, an image the sandbox serves, links; the same bytes again", async () => {
    const c = sandbox();
    const { pages } = await walk(c, '/social/user/tweet_timeline', { userId: c.sandbox.examples.profile.id });
    const links = pages
      .flatMap((p) => (p.data as { tweets?: unknown[] } | undefined)?.tweets ?? (p.tweets as unknown[]) ?? [])
      .flatMap((t) => (t as { entities?: { urls?: { expanded_url: string }[] } }).entities?.urls ?? [])
      .map((u) => new URL(u.expanded_url));
    expect(links.length).toBeGreaterThan(0);
    const page = links.find((u) => webKind(DEFAULT_SEED, u.hostname, u.pathname.slice(1)) === 'page') as URL;
    const at = `${c.sandbox.baseUrl}/web/${page.hostname}${page.pathname}`;
    const res = await get(at);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await res.text();
    expect(html).toMatch(/<title>[^<]+<\/title>/);
    expect(html).toMatch(/<p>[^<]+<\/p>/);
    expect(html).toMatch(/<a href="https:\/\//);
    expect(await (await get(at)).text()).toBe(html);
    const image = /<img src="([^"]+)"/.exec(html)?.[1] as string;
    const img = await get(`${c.sandbox.baseUrl}${image}`);
    expect(img.status).toBe(200);
    expect(img.headers.get('content-type')).toBe('image/png');
    // and on the page's own host, where a browser showing the page asks for it
    const there = await get(`${c.sandbox.baseUrl}/web/${page.hostname}${image}`);
    expect(there.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await there.arrayBuffer())).toEqual(Buffer.from(await img.arrayBuffer()));
  });

  it('answers the ways the web goes wrong: gone, moved, sent to this machine, slow', async () => {
    const base = `${sandbox().sandbox.baseUrl}/web/news.example/`;
    expect((await get(base + pathOf('gone'))).status).toBe(404);
    const moved = await get(base + pathOf('moved'));
    expect(moved.status).toBe(301);
    const there = await get(new URL(moved.headers.get('location') as string, base).href);
    expect(there.status).toBe(200);
    expect(await there.text()).toMatch(/<title>/);
    const inner = await get(base + pathOf('inner'));
    expect(inner.status).toBe(301);
    expect(inner.headers.get('location')).toBe('http://127.0.0.1/');
    const start = performance.now();
    const slow = await get(base + pathOf('slow'));
    expect(slow.status).toBe(200);
    expect(performance.now() - start).toBeGreaterThanOrEqual(SLOW_MS - 50);
    expect((await get(`${sandbox().sandbox.baseUrl}/web/bad_host!/x`)).status).toBe(404);
  });

  it('counts the pages fetched, for a test to read', async () => {
    const c = sandbox();
    await fetch(`${c.sandbox.baseUrl}/__sandbox/web-requests`, { method: 'DELETE' });
    await get(`${c.sandbox.baseUrl}/web/news.example/${pathOf('page')}`);
    const log = (await (await fetch(`${c.sandbox.baseUrl}/__sandbox/web-requests`)).json()) as {
      requests: { url: string; status: number }[];
    };
    expect(log.requests).toEqual([
      expect.objectContaining({ url: `/web/news.example/${pathOf('page')}`, status: 200 }),
    ]);
  });
});
