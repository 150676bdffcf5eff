/**
 * Paging against the sandbox: each paging quirk stops with its reason,
 * duplicates are removed and counted, the limiter spaces a long walk, and
 * the response store gives pages back without a request.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { FakeClock } from '../testing/fake-clock';
import { sandboxHarness, type Harness } from '../testing/sandbox-harness';
import type { PageResult } from './types';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const quotesOf = (hh: Harness, cursor?: string) => ({
  operation: 'postQuotes' as const,
  params: { tweetId: hh.sandbox.examples.muchQuotedPostId, ...(cursor ? { cursor } : {}) },
});

/** walk a view to its end (or a guard), with `faultFor(pageIndex)` on each request */
async function walk(
  hh: Harness,
  faultFor: (i: number) => string | undefined = () => undefined,
  max = 200,
  extra: { viewIds?: boolean } = {},
): Promise<PageResult[]> {
  const pages: PageResult[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < max; i++) {
    hh.fault(faultFor(i));
    const page = await hh.client.fetchPage({ ...quotesOf(hh, cursor), ...extra });
    pages.push(page);
    const next = page.result.paging?.nextCursor;
    if (!next) break;
    cursor = next;
  }
  return pages;
}

describe('paging guards', () => {
  it('one empty page is passed over; two in a row stop with "empty-pages"', async () => {
    h = await sandboxHarness();
    const once = await walk(h, (i) => (i === 1 ? 'empty-page' : undefined), 3);
    expect(once[1]?.result.items).toEqual([]);
    expect(once[1]?.result.paging?.stop).toBeNull();
    expect(once[2]?.result.items.length).toBeGreaterThan(0);

    h.client.clearStore();
    const twice = await walk(h, (i) => (i >= 1 ? 'empty-page' : undefined));
    expect(twice).toHaveLength(3);
    expect(twice[2]?.result.paging).toMatchObject({
      hasNextPage: false,
      nextCursor: null,
      stop: { reason: 'empty-pages' },
    });
    expect(twice[2]?.result.paging?.stop?.message).toMatch(/two pages in a row/i);
  });

  it('has_next_page without a cursor stops with "missing-cursor"', async () => {
    h = await sandboxHarness();
    const pages = await walk(h, (i) => (i === 1 ? 'no-cursor' : undefined));
    expect(pages).toHaveLength(2);
    expect(pages[1]?.result.paging).toMatchObject({ nextCursor: null, stop: { reason: 'missing-cursor' } });
    expect(pages[1]?.result.items.length).toBeGreaterThan(0);
  });

  it('an answer that stopped paging is not kept: read again, the page is asked for and pages on', async () => {
    h = await sandboxHarness();
    const pages = await walk(h, (i) => (i === 1 ? 'no-cursor' : undefined));
    expect(pages[1]?.result.paging?.stop?.reason).toBe('missing-cursor');
    const again = await walk(h, () => undefined, 3);
    expect(again.map((p) => p.result.meta.fromCache)).toEqual([true, false, false]);
    expect(again[1]?.result.paging?.stop).toBeNull();
    expect((await h.requests()).length).toBe(4);
  });

  it('a cursor handed out again stops with "repeated-cursor"', async () => {
    h = await sandboxHarness();
    const pages = await walk(h, (i) => (i === 1 ? 'repeat-cursor' : undefined));
    expect(pages).toHaveLength(2);
    expect(pages[1]?.result.paging).toMatchObject({
      hasNextPage: false,
      nextCursor: null,
      stop: { reason: 'repeated-cursor' },
    });
    expect(pages[1]?.result.items.length).toBeGreaterThan(0);
  });

  it('duplicates across pages are removed and counted; the view holds each item once', async () => {
    h = await sandboxHarness();
    const clean = (await walk(h)).flatMap((p) => p.result.items.map((x) => (x as { id: string }).id));
    h.client.clearStore();
    const pages = await walk(h, () => 'duplicates');
    const ids = pages.flatMap((p) => p.result.items.map((x) => (x as { id: string }).id));
    const removed = pages.reduce((n, p) => n + p.result.report.duplicatesRemoved, 0);
    expect(removed).toBeGreaterThan(0);
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(ids)).toEqual(new Set(clean));
    // raw items follow the same cut
    for (const p of pages) expect(p.raw.items).toHaveLength(p.result.items.length);
  });

  it('a caller that de-duplicates itself gets every item, repeats too, and the cursor guards still hold', async () => {
    h = await sandboxHarness();
    const clean = (await walk(h)).flatMap((p) => p.result.items.map((x) => (x as { id: string }).id));
    h.client.clearStore();
    const bare = { viewIds: false };
    const pages = await walk(h, () => 'duplicates', 200, bare);
    const ids = pages.flatMap((p) => p.result.items.map((x) => (x as { id: string }).id));
    expect(pages.every((p) => p.result.report.duplicatesRemoved === 0)).toBe(true);
    expect(ids.length).toBeGreaterThan(new Set(ids).size);
    expect(new Set(ids)).toEqual(new Set(clean));

    h.client.clearStore();
    const looped = await walk(h, (i) => (i === 1 ? 'repeat-cursor' : undefined), 200, bare);
    expect(looped).toHaveLength(2);
    expect(looped[1]?.result.paging?.stop?.reason).toBe('repeated-cursor');
  });
});

describe('pace', () => {
  it('the limiter spaces a 50-page walk at the configured rate', async () => {
    const clock = new FakeClock(undefined, { autoAdvance: true });
    h = await sandboxHarness({ clock, rps: 4 });
    const pages = await walk(h, () => 'page-size;n=1', 50);
    expect(pages).toHaveLength(50);
    expect(h.sentAt).toHaveLength(50);
    const gaps = h.sentAt.slice(1).map((t, i) => t - h!.sentAt[i]!);
    expect(gaps.every((g) => g === 250)).toBe(true);
    expect(h.sentAt.at(-1)! - h.sentAt[0]!).toBe(49 * 250);
  });
});

describe('response store', () => {
  it('serves a repeated call from the store: no request, no charge, marked fromCache', async () => {
    h = await sandboxHarness();
    const first = await h.client.fetchPage(quotesOf(h));
    const again = await h.client.fetchPage(quotesOf(h));
    expect(again.result.meta.fromCache).toBe(true);
    expect(again.result.meta.credits).toBe(0);
    expect(again.result.items).toEqual(first.result.items);
    expect(again.raw.items).toEqual(first.raw.items);
    expect(await h.requests()).toHaveLength(1);
    const fresh = await h.client.fetchPage({ ...quotesOf(h), fresh: true });
    expect(fresh.result.meta.fromCache).toBe(false);
    expect(await h.requests()).toHaveLength(2);
  });

  it('keeps no answer asked with keep: false (a hydration batch): the same call is asked again', async () => {
    h = await sandboxHarness();
    const batch = { operation: 'postsByIds' as const, params: { tweet_ids: h.sandbox.examples.muchQuotedPostId } };
    await h.client.fetchPage({ ...batch, keep: false });
    expect((await h.client.fetchPage({ ...batch, keep: false })).result.meta.fromCache).toBe(false);
    expect(await h.requests()).toHaveLength(2);
    await h.client.fetchPage(batch);
    expect((await h.client.fetchPage(batch)).result.meta.fromCache).toBe(true);
    expect(await h.requests()).toHaveLength(3);
  });

  it('gives dropped pages back without paying, with no false duplicates, and lists what is loaded', async () => {
    h = await sandboxHarness();
    const pages = await walk(h, undefined, 3);
    const before = (await h.requests()).length;
    const page2 = await h.client.fetchPage(quotesOf(h, pages[0]!.result.paging!.nextCursor!));
    expect(page2.result.meta.fromCache).toBe(true);
    expect(page2.result.items).toEqual(pages[1]!.result.items);
    expect(page2.result.report.duplicatesRemoved).toBe(0);
    const loaded = h.client.loadedPages({
      operation: 'postQuotes',
      params: { tweetId: h.sandbox.examples.muchQuotedPostId },
    });
    expect(loaded.map((p) => p.result.items)).toEqual(pages.map((p) => p.result.items));
    expect((await h.requests()).length).toBe(before);
  });

  it('gives a windowed list its first page back however old (reread), keeping the later pages', async () => {
    const clock = new FakeClock();
    h = await sandboxHarness({ clock });
    const pages = await walk(h, undefined, 3);
    const before = (await h.requests()).length;
    await clock.advance(10 * 60_000);
    const first = await h.client.fetchPage({ ...quotesOf(h), reread: true });
    expect(first.result.meta.fromCache).toBe(true);
    const second = await h.client.fetchPage({ ...quotesOf(h, pages[0]!.result.paging!.nextCursor!), reread: true });
    expect(second.result.meta.fromCache).toBe(true);
    expect((await h.requests()).length).toBe(before);
  });

  it('never keeps an audio space (freshness 0) and expires a first page after its stale time', async () => {
    const clock = new FakeClock();
    h = await sandboxHarness({ clock });
    const space = { operation: 'spaceDetail' as const, params: { space_id: h.sandbox.examples.runningSpaceId } };
    await h.client.fetchPage(space);
    expect((await h.client.fetchPage(space)).result.meta.fromCache).toBe(false);
    await h.client.fetchPage(quotesOf(h));
    await clock.advance(2 * 60_000);
    expect((await h.client.fetchPage(quotesOf(h))).result.meta.fromCache).toBe(false);
  });
});
