/**
 * Every live-service variant of api-field-notes.md, produced by the sandbox's
 * quirks, comes out in the spec's canonical shape, with the raw items kept
 * exactly as received.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ITEM_SCHEMAS, OPERATIONS, type OperationId, type Post } from '../../shared/api';
import { sandboxHarness, type Harness } from '../testing/sandbox-harness';
import type { FetchPageInput } from './types';

let h: Harness;
beforeAll(async () => {
  h = await sandboxHarness();
});
afterAll(() => h.close());
beforeEach(() => {
  h.fault(undefined);
  h.client.clearStore();
});

type Input = Pick<FetchPageInput, 'operation' | 'params'>;
const ex = () => h.sandbox.examples;
const inputs = (): Record<string, Input> => ({
  quotes: { operation: 'postQuotes', params: { tweetId: ex().muchQuotedPostId } },
  replies: { operation: 'postReplies', params: { tweetId: ex().bigThreadPostId } },
  repliesV2: { operation: 'postRepliesV2', params: { tweetId: ex().bigThreadPostId } },
  search: { operation: 'userSearch', params: { query: 'a' } },
  timeline: { operation: 'userTimeline', params: { userId: ex().profile.id } },
  trends: { operation: 'trends', params: {} },
  community: { operation: 'communityInfo', params: { community_id: ex().communityId } },
  users: { operation: 'usersByIds', params: { userIds: ex().profile.id } },
});

async function get(input: Input, fault?: string) {
  h.fault(fault);
  h.client.clearStore();
  return h.client.fetchPage({ ...input, fresh: true });
}

function expectCanonical(op: OperationId, items: unknown[]) {
  const schema = ITEM_SCHEMAS[OPERATIONS[op].itemKind];
  for (const item of items) expect(schema.safeParse(item).success).toBe(true);
}

describe('envelope variants give the same canonical answer', () => {
  it.each([
    ['swap-msg', ['quotes', 'search', 'trends', 'users', 'community']],
    ['both-msg', ['quotes', 'search', 'trends', 'users']],
    ['no-msg', ['quotes', 'search', 'trends', 'users']],
    ['code-0', ['quotes', 'search', 'trends', 'users']],
    ['replies-under-tweets', ['replies']],
    ['timeline-data', ['timeline']],
    ['search-bare', ['search']],
  ])('%s', async (quirk, names) => {
    for (const name of names) {
      const input = inputs()[name]!;
      const plain = await get(input);
      const varied = await get(input, quirk);
      expect(varied.result.items, `${quirk} on ${name}`).toEqual(plain.result.items);
      expect(varied.result.data).toEqual(plain.result.data);
      expect(varied.result.paging).toEqual(plain.result.paging);
      expect(varied.result.report.dropped).toEqual([]);
    }
  });

  it('trends-nested: wrapped trends become {name, url, query, tweet_volume}', async () => {
    const plain = await get(inputs().trends!);
    const nested = await get(inputs().trends!, 'trends-nested');
    expectCanonical('trends', nested.result.items);
    const strip = (t: unknown) => {
      const { name, query } = t as { name: string; query: string };
      return { name, query };
    };
    expect(nested.result.items.map(strip)).toEqual(plain.result.items.map(strip));
    // the raw item is the wrapped one, untouched
    expect(nested.raw.items[0]).toHaveProperty('trend.target.query');
    expect(nested.raw.items[0]).not.toHaveProperty('name');
  });
});

describe('live objects', () => {
  it('posts: extra fields kept, media from extendedEntities, "" → null, odd viewCount → null, retweets kept', async () => {
    const plain = await get(inputs().quotes!);
    const live = await get(inputs().quotes!, 'live-objects');
    expectCanonical('postQuotes', live.result.items);
    expect(live.result.report.dropped).toEqual([]);
    const posts = live.result.items as Array<Post & Record<string, unknown>>;
    const spec = plain.result.items as Post[];
    expect(posts.map((p) => p.id)).toEqual(spec.map((p) => p.id));
    posts.forEach((p, i) => {
      const s = spec[i]!;
      // passthrough of fields the spec does not list
      expect(p).toHaveProperty('twitterUrl');
      expect(p).toHaveProperty('isRetweet');
      // '' means none
      expect(p.inReplyToId).toBe(s.inReplyToId);
      // viewCount: a numeric string or null, never [0] or a number
      expect(p.viewCount === null || /^\d+$/.test(p.viewCount)).toBe(true);
      // media moved back under entities
      expect((p.entities?.media ?? []).length).toBe((s.entities?.media ?? []).length);
      for (const m of p.entities?.media ?? [])
        expect(m.media_results.result.media_info.original_img_url).toMatch(/^http/);
    });
    // the number form of viewCount survives as its string
    const numeric = (live.raw.items as Array<Record<string, unknown>>).findIndex(
      (r) => typeof r.viewCount === 'number',
    );
    expect(numeric).toBeGreaterThanOrEqual(0);
    expect(posts[numeric]!.viewCount).toBe(String((live.raw.items[numeric] as { viewCount: number }).viewCount));
    // a retweet's full post is kept (and readable) beside its cut text
    const rt = posts.find((p) => p.isRetweet === true);
    expect(rt?.retweeted_tweet).toBeTruthy();
  });

  it('keeps raw items exactly as received, aligned with the canonical items', async () => {
    const live = await get(inputs().quotes!, 'live-objects');
    const body = live.raw.body as { tweets: unknown[] };
    expect(live.raw.items).toEqual(body.tweets);
    expect(live.raw.items).toHaveLength(live.result.items.length);
    live.raw.items.forEach((raw, i) =>
      expect((raw as { id: string }).id).toBe((live.result.items[i] as { id: string }).id),
    );
    // untouched: the raw still has the live spellings
    expect(live.raw.items.some((r) => 'extendedEntities' in (r as object))).toBe(true);
  });

  it('live-defaults: Skein always sends includeReplies and includeParentTweet, so the live defaults change nothing', async () => {
    const plain = await get(inputs().timeline!);
    const live = await get(inputs().timeline!, 'live-defaults');
    expect(live.result.items).toEqual(plain.result.items);
    const sent = (await h.requests()).at(-1)?.url ?? '';
    expect(sent).toContain('includeReplies=true');
    expect(sent).toContain('includeParentTweet=false');
  });
});
