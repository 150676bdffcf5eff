import { describe, expect, it } from 'vitest';
import { communityFixture, postFixture, userFixture } from '../fixtures';
import type { Post } from '../schemas';
import { SkeinError } from '../../errors';
import { ITEM_SCHEMAS } from '../catalog';
import { normalizePage } from './page';

const envelope = (tweets: unknown[], extra: Record<string, unknown> = {}) => ({
  status: 'success',
  message: '',
  tweets,
  has_next_page: false,
  next_cursor: '',
  ...extra,
});

function thrown(fn: () => unknown): SkeinError {
  try {
    fn();
  } catch (e) {
    if (e instanceof SkeinError) return e;
    throw e;
  }
  throw new Error('expected a throw');
}

describe('normalizePage', () => {
  it('keeps the good items of a page and reports the one whose own id cannot be read, with index, id, path and message', () => {
    const bad = { ...postFixture, id: '77x' };
    const p = normalizePage('postQuotes', envelope([postFixture, bad, { ...postFixture, id: '78' }]));
    expect(p.items.map((x) => (x as Post).id)).toEqual([postFixture.id, '78']);
    expect(p.rawItems).toEqual([postFixture, { ...postFixture, id: '78' }]);
    expect(p.rawCount).toBe(3);
    expect(p.dropped).toEqual([{ index: 1, id: '77x', path: 'tweets[1].id', message: expect.any(String) }]);
  });

  it('keeps a post whose author cannot be read: the author is unknown (null), the raw item whole', () => {
    const raw = { ...postFixture, id: '77', author: { ...userFixture, id: 'not-a-number' } };
    const p = normalizePage('postQuotes', envelope([raw]));
    expect(p.dropped).toEqual([]);
    expect((p.items[0] as Post).author).toBeNull();
    expect(p.rawItems).toEqual([raw]);
  });

  it('reports a missing list as malformed, with its path', () => {
    const e = thrown(() => normalizePage('postQuotes', { status: 'success', message: '' }));
    expect(e.code).toBe('malformed');
    expect(e.details?.path).toBe('tweets');
  });

  it('reads an empty page that comes without its list', () => {
    expect(normalizePage('postQuotes', { status: 'success', has_next_page: true, next_cursor: 'c' }).paging).toEqual({
      hasNextPage: true,
      nextCursor: 'c',
    });
  });

  it('reports an object that does not match with the path of the first mismatch', () => {
    const broken = structuredClone(communityFixture) as unknown as {
      data: { community_results_by_rest_id: { result: Record<string, unknown> } };
    };
    broken.data.community_results_by_rest_id.result.member_count = 'many';
    const e = thrown(() => normalizePage('communityInfo', { status: 'success', msg: '', data: broken }));
    expect(e.code).toBe('malformed');
    expect(e.details?.path).toBe('data.data.community_results_by_rest_id.result.member_count');
  });

  it('never changes the raw items', () => {
    const raw = { ...postFixture, viewCount: 12, inReplyToId: '', lang: undefined };
    const frozen = structuredClone(raw);
    normalizePage('postQuotes', envelope([raw]));
    expect(raw).toEqual(frozen);
  });
});

describe('post variants', () => {
  const one = (post: Record<string, unknown>) =>
    normalizePage('postQuotes', envelope([post])).items[0] as Post & Record<string, unknown>;

  it.each([
    ['a numeric string', '1234', '1234'],
    ['a number', 1234, '1234'],
    ['missing', undefined, null],
    ['[0]', [0], null],
    ['text', 'many', null],
    ['null', null, null],
  ])('viewCount as %s', (_what, value, expected) => {
    expect(one({ ...postFixture, viewCount: value }).viewCount).toBe(expected);
  });

  it('"" and null both mean no value', () => {
    const p = one({ ...postFixture, inReplyToId: '', conversationId: '', inReplyToUsername: '', inReplyToUserId: '' });
    expect([p.inReplyToId, p.conversationId, p.inReplyToUsername, p.inReplyToUserId]).toEqual([null, null, null, null]);
  });

  it('fills what the live service leaves out, and keeps what it adds', () => {
    const { bookmarkCount: _b, displayTextRange: _d, quoted_tweet: _q, ...sparse } = postFixture;
    const p = one({ ...sparse, ids: 1, twitterUrl: 'https://t.example/1', place: {} });
    // a counter the service left out is unknown, never 0
    expect(p.bookmarkCount).toBeNull();
    expect(p.displayTextRange).toBeNull();
    expect(p.quoted_tweet).toBeNull();
    expect(p.twitterUrl).toBe('https://t.example/1');
    expect(p.place).toEqual({});
  });

  it('builds spec media entries from extendedEntities', () => {
    const p = one({
      ...postFixture,
      entities: { hashtags: [], urls: [] },
      extendedEntities: {
        media: [
          {
            type: 'video',
            id_str: '99',
            media_key: '7_99',
            media_url_https: 'https://img.example/99.jpg',
            url: 'https://t.example/m',
            display_url: 'pic/99',
            expanded_url: 'https://x.example/99',
            indices: [10, 20],
            original_info: { width: 640, height: 360 },
            ext_alt_text: 'a cat',
            video_info: { variants: [{ url: 'https://v.example/99.mp4', content_type: 'video/mp4' }] },
          },
        ],
      },
    });
    const m = p.entities?.media?.[0];
    expect(m?.media_results.result.media_info).toMatchObject({
      __typename: 'ApiVideo',
      alt_text: 'a cat',
      original_img_url: 'https://img.example/99.jpg',
      original_img_width: 640,
      original_img_height: 360,
      video_info: { variants: [{ url: 'https://v.example/99.mp4' }] },
    });
    expect(m?.id_str).toBe('99');
  });

  it('keeps valid entity lists, the bio and pinned ids as they came, and fixes what must change', () => {
    const tag = { text: 'a', indices: [0, 2] };
    const url = { display_url: 'd', expanded_url: 'https://e.example', url: 'https://s.co/1', indices: [3, 9] };
    const author = {
      ...userFixture,
      pinnedTweetIds: ['1', '2'],
      profile_bio: { description: 'x', entities: { description: { urls: [url] }, url: { urls: [url] } } },
    };
    const raw = { ...postFixture, author, entities: { hashtags: [tag], symbols: [], urls: [url], user_mentions: [] } };
    const frozen = structuredClone(raw);
    const p = one(raw);
    expect(p.entities).toEqual(raw.entities);
    expect((p.author as unknown as Record<string, unknown>).profile_bio).toEqual(author.profile_bio);
    expect(p.author?.pinnedTweetIds).toEqual(['1', '2']);
    expect(raw).toEqual(frozen);

    const fixed = one({
      ...postFixture,
      author: {
        ...userFixture,
        pinnedTweetIds: [' 3 ', 4, null, '5'],
        profile_bio: {
          description: 'x',
          entities: { description: 'text', url: { urls: [url, { url: 1 }] }, other: 1 },
        },
      },
      entities: { hashtags: [tag, { text: 1 }], symbols: 'none', urls: undefined, user_mentions: [] },
    });
    expect(fixed.entities).toEqual({ hashtags: [tag], user_mentions: [] });
    expect(Object.keys(fixed.entities ?? {})).toEqual(['hashtags', 'user_mentions']);
    expect(fixed.author?.pinnedTweetIds).toEqual(['3', '4', '5']);
    expect((fixed.author as unknown as Record<string, unknown>).profile_bio).toEqual({
      description: 'x',
      entities: { url: { urls: [url] }, other: 1 },
    });

    const bare = one({ ...postFixture, author: { ...userFixture, profile_bio: { description: 'x', entities: null } } });
    expect(Object.keys((bare.author as unknown as { profile_bio: object }).profile_bio)).toEqual(['description']);
    const noUrl = one({
      ...postFixture,
      author: { ...userFixture, profile_bio: { description: 'x', entities: { url: 'u' } } },
    });
    expect((noUrl.author as unknown as { profile_bio: unknown }).profile_bio).toEqual({
      description: 'x',
      entities: {},
    });
  });

  it('reads a numeric id and counters sent as text', () => {
    const p = one({ ...postFixture, id: 1234, likeCount: '5' });
    expect(p.id).toBe('1234');
    expect(p.likeCount).toBe(5);
  });
});

describe('other variants', () => {
  it('user timeline under data.tweets with paging at the root', () => {
    const p = normalizePage('userTimeline', {
      status: 'success',
      data: { tweets: [postFixture] },
      has_next_page: true,
      next_cursor: 'n',
    });
    expect(p.items).toHaveLength(1);
    expect(p.paging).toEqual({ hasNextPage: true, nextCursor: 'n' });
  });

  it('reply listing under tweets instead of replies', () => {
    expect(normalizePage('postReplies', envelope([postFixture])).items).toHaveLength(1);
  });

  it('wrapped trends', () => {
    const p = normalizePage('trends', {
      trends: [{ trend: { name: '#Rain Day', target: { query: '#Rain Day' }, rank: 1, meta_description: '2K posts' } }],
    });
    expect(p.items[0]).toEqual({
      name: '#Rain Day',
      target: { query: '#Rain Day' },
      rank: 1,
      meta_description: '2K posts',
      query: '%23Rain%20Day',
      url: 'https://x.com/search?q=%23Rain%20Day',
      tweet_volume: null,
    });
  });

  it('users: screen_name for userName and "" cover picture as none', () => {
    const { userName: _u, ...rest } = userFixture;
    const p = normalizePage('usersByIds', { users: [{ ...rest, screen_name: 'someone', coverPicture: '' }] });
    expect(p.items[0]).toMatchObject({ userName: 'someone', coverPicture: null });
  });

  it("keeps valid items as the readers made them (fresh objects equal to zod's output), raw items untouched", () => {
    const raw = structuredClone(postFixture);
    const before = structuredClone(raw);
    const p = normalizePage('postQuotes', envelope([raw]));
    expect(p.items).toHaveLength(1);
    expect(p.items[0]).not.toBe(raw);
    expect(p.items[0]).toEqual(ITEM_SCHEMAS.post.parse(p.items[0]));
    expect(p.rawItems[0]).toBe(raw);
    expect(raw).toEqual(before);
  });

  it('still asks zod about what the compiled check cannot prove (an own __proto__ key is left out, as before)', () => {
    const raw = JSON.parse(
      JSON.stringify({ ...postFixture, id: '91' }).replace(/^\{/, '{"__proto__":{"polluted":true},'),
    ) as Record<string, unknown>;
    expect(Object.hasOwn(raw, '__proto__')).toBe(true);
    const p = normalizePage('postQuotes', envelope([raw]));
    expect(p.items).toHaveLength(1);
    expect(Object.hasOwn(p.items[0] as object, '__proto__')).toBe(false);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('keeps a post whose quoted post cannot be read: the quoted one is unavailable, never the parent', () => {
    const quoted = {
      ...postFixture,
      id: '5',
      quoted_tweet: { ...postFixture, id: 'x', author: { ...userFixture, id: 'x' }, quoted_tweet: null },
    };
    const p = normalizePage('postQuotes', envelope([postFixture, quoted]));
    expect(p.items).toHaveLength(2);
    expect(p.dropped).toEqual([]);
    expect((p.items[1] as Post).quoted_tweet).toEqual({
      type: 'unavailable',
      id: null,
      text: postFixture.text,
      userName: userFixture.userName,
      reason: 'unreadable',
    });
    expect(p.rawItems[1]).toBe(quoted);
  });
});
