/**
 * A thread's estimate, checked against the truth of the demo's two conversations (the deep 10,000-reply one
 * and the wide 2,000-reply one, docs/sandbox.md): the pages a view loads, kept by a real project and read
 * back from it, give a range that holds the number of replies a full walk finds, its middle within 2 times
 * it, narrowing as pages load; and what the range cannot know (newest-first pages alone) it says.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox';
import { canonicalParams } from '../api/request';
import { startArchiveThread, type ArchiveThread } from '../archive';
import { conversationRange, type ListingSample } from './conversation-estimate';
import { estimateExport } from './estimate';

let sandbox: Sandbox;
let archive: ArchiveThread;
/** every page of each conversation's listing in each order, as the service sent it */
const walks = new Map<string, string[]>();

async function walkBodies(tweetId: string, queryType: string): Promise<string[]> {
  const bodies: string[] = [];
  let cursor: string | null = null;
  for (;;) {
    const q = new URLSearchParams({ tweetId, queryType, ...(cursor ? { cursor } : {}) });
    const text = await (await fetch(`${sandbox.baseUrl}/social/tweet/replies/v2?${q.toString()}`)).text();
    bodies.push(text);
    const body = JSON.parse(text) as { has_next_page?: boolean; next_cursor?: string };
    if (!body.has_next_page || !body.next_cursor) return bodies;
    cursor = body.next_cursor;
  }
}

beforeAll(async () => {
  sandbox = await startSandbox({ now: () => Date.UTC(2026, 10, 22, 2, 13, 21) });
  for (const root of [sandbox.examples.bigThreadPostId, sandbox.examples.wideThreadPostId]) {
    for (const order of ['Relevance', 'Latest']) walks.set(`${root}:${order}`, await walkBodies(root, order));
  }
  archive = await startArchiveThread();
}, 180_000);
afterAll(async () => {
  await archive?.close();
  await sandbox?.close();
});

const posts = (body: string) => (JSON.parse(body) as { tweets: Array<Record<string, unknown>> }).tweets;

/** The replies a walk to the end finds (the post itself is the listing's first item). */
const truth = (root: string) => walks.get(`${root}:Latest`)!.flatMap(posts).length - 1;

/** A project that holds the first `pages` pages of some listings, as a view that loaded them left it. */
async function projectHolding(loaded: Array<{ root: string; order: string; pages: number }>) {
  const dir = await mkdtemp(join(tmpdir(), 'skein-conversation-'));
  await archive.call('open', 'current', { path: join(dir, 'p.skein'), name: 'P', kind: 'live' });
  let at = Date.UTC(2026, 10, 22, 3);
  for (const { root, order, pages } of loaded) {
    let cursor: string | null = null;
    for (const text of walks.get(`${root}:${order}`)!.slice(0, pages)) {
      archive.ingest('current', {
        operation: 'postRepliesV2',
        params: canonicalParams('postRepliesV2', { tweetId: root, queryType: order }).paramsKey,
        cursor,
        at: at++,
        baseUrl: sandbox.baseUrl,
        httpStatus: 200,
        text,
      });
      cursor = (JSON.parse(text) as { next_cursor: string }).next_cursor;
    }
  }
  await archive.call('flush');
  return (root: string) => archive.call('conversation', 'current', root) as Promise<ListingSample[]>;
}

const directOf = (root: string) =>
  posts(walks.get(`${root}:Latest`)![0]!).find((p) => p.id === root)?.replyCount as number;

describe("a thread's estimate, on the demo's two conversations", () => {
  it.each([
    ['the deep one', 'bigThreadPostId'],
    ['the wide one', 'wideThreadPostId'],
  ] as const)(
    '%s: from the pages a view loads (most relevant first, its default), the range holds the truth, its middle within 2 times',
    async (_, key) => {
      const root = sandbox.examples[key];
      const replies = truth(root);
      for (const pages of [1, 2, 3, 5, 10]) {
        const held = await projectHolding([{ root, order: 'Relevance', pages }]);
        const listings = await held(root);
        expect(listings).toMatchObject([{ order: 'Relevance', pages, complete: false }]);
        const range = conversationRange({ rootId: root, listings }, directOf(root))!;
        expect(range.low, `${key}, ${pages} pages`).toBeLessThanOrEqual(replies);
        expect(range.high, `${key}, ${pages} pages`).toBeGreaterThanOrEqual(replies);
        const middle = (range.low + range.high) / 2;
        expect(Math.max(middle / replies, replies / middle), `${key}, ${pages} pages`).toBeLessThan(2);
        expect(range.basis).toMatch(/loaded in most relevant order/);
      }
    },
    120_000,
  );

  it('narrows as pages load', async () => {
    const root = sandbox.examples.wideThreadPostId;
    const width = async (pages: number) => {
      const held = await projectHolding([{ root, order: 'Relevance', pages }]);
      const r = conversationRange({ rootId: root, listings: await held(root) }, directOf(root))!;
      return r.high - r.low;
    };
    const [one, three, twenty] = [await width(1), await width(3), await width(20)];
    expect(three).toBeLessThan(one);
    expect(twenty).toBeLessThan(three);
  }, 60_000);

  it('a listing walked to its end is the exact count', async () => {
    const root = sandbox.examples.wideThreadPostId;
    const held = await projectHolding([{ root, order: 'Latest', pages: 1_000 }]);
    expect(conversationRange({ rootId: root, listings: await held(root) }, directOf(root))).toMatchObject({
      low: truth(root),
      high: truth(root),
      exact: true,
    });
  }, 60_000);

  it('newest-first pages alone hold the truth but say they cannot tell much; a ranked page beside them sets the range', async () => {
    const root = sandbox.examples.bigThreadPostId;
    const latest = await projectHolding([{ root, order: 'Latest', pages: 1 }]);
    const alone = conversationRange({ rootId: root, listings: await latest(root) }, directOf(root))!;
    expect(alone.low).toBeLessThanOrEqual(truth(root));
    expect(alone.high).toBeGreaterThanOrEqual(truth(root));
    expect(alone.basis).toMatch(
      /Newest first loads the replies that had the least time to be answered.*a page in Most relevant order narrows this/,
    );
    const both = await projectHolding([
      { root, order: 'Latest', pages: 1 },
      { root, order: 'Relevance', pages: 1 },
    ]);
    expect(conversationRange({ rootId: root, listings: await both(root) }, directOf(root))?.basis).toMatch(
      /most relevant order/,
    );
  }, 60_000);

  it("becomes the export's estimate: calls and credits as a range that holds the walk's, in plain words", async () => {
    const root = sandbox.examples.bigThreadPostId;
    const held = await projectHolding([{ root, order: 'Relevance', pages: 1 }]);
    const view = {
      kind: 'thread' as const,
      operation: 'postRepliesV2' as const,
      params: { tweetId: root, queryType: 'Latest' },
      expectedItems: directOf(root),
    };
    const e = estimateExport(view, 'all', undefined, undefined, undefined, await held(root));
    // the walk: the post and every reply, 20 a page, 15 credits a post
    const calls = walks.get(`${root}:Latest`)!.length;
    expect(e.range!.calls[0]).toBeLessThanOrEqual(calls);
    expect(e.range!.calls[1]).toBeGreaterThanOrEqual(calls);
    expect(e.range!.credits[0]).toBeLessThanOrEqual((truth(root) + 1) * 15);
    expect(e.range!.credits[1]).toBeGreaterThanOrEqual((truth(root) + 1) * 15);
    expect(e.atLeast).toBeUndefined();
    expect(e.basis).toMatch(
      /^The post counts only its direct replies; its conversation is about [\d,]+ replies, between/,
    );
  }, 60_000);
});

describe('what the estimate reads, hostile or odd', () => {
  const R = '100';
  const listing = (items: ListingSample['items'], complete = false): ListingSample => ({
    order: 'Relevance',
    items,
    pages: 1,
    complete,
  });

  it('nothing held: no range; replies with no count, a parent outside, a cycle, negative or fractional counts: still a floor', () => {
    expect(conversationRange({ rootId: R, listings: [] }, 10)).toBeNull();
    const odd = listing([
      { id: R, parent: null, replies: 3 },
      { id: '101', parent: R, replies: null },
      { id: '102', parent: '999', replies: -4 },
      { id: '103', parent: '104', replies: 1.5 },
      { id: '104', parent: '103', replies: Number.NaN },
      { id: '105', parent: R, replies: 2 },
    ]);
    const r = conversationRange({ rootId: R, listings: [odd] }, 3)!;
    expect(Number.isFinite(r.low) && Number.isFinite(r.high)).toBe(true);
    // five loaded replies, two announced answers of 105 not loaded, one direct reply not loaded
    expect(r.low).toBeGreaterThanOrEqual(8);
    expect(r.high).toBeGreaterThanOrEqual(r.low);
  });

  it('a complete listing is exact, whatever the post announced', () => {
    const done = listing(
      [
        { id: R, parent: null, replies: 50 },
        { id: '101', parent: R, replies: 0 },
      ],
      true,
    );
    expect(conversationRange({ rootId: R, listings: [done] }, 50)).toMatchObject({ low: 1, high: 1, exact: true });
  });
});
