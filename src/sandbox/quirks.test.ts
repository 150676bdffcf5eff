/** The live-service variants of api-field-notes.md, on request. */
import { describe, expect, it } from 'vitest';
import { responseSchema } from '../shared/api';
import { DUPLICATE_OVERLAP, PAGE_SIZE } from './pipeline';
import { qs, useSandbox, walk } from './test-utils';

const sandbox = useSandbox();
const quirk = (spec: string): Record<string, string> => ({ 'x-sandbox-fault': spec });
type Body = Record<string, unknown>;

const ids = (body: Body, key = 'tweets'): string[] => (body[key] as { id: string }[]).map((p) => p.id);

describe('paging quirks', () => {
  const quotes = (): string => `/social/tweet/quotes${qs({ tweetId: sandbox().sandbox.examples.muchQuotedPostId })}`;

  it('empty-page: no items while has_next_page is true; its cursor resumes where it was', async () => {
    const c = sandbox();
    const first = (await c.get(quotes())).json;
    const empty = (await c.get(quotes(), quirk('empty-page'))).json;
    expect(empty.tweets).toEqual([]);
    expect(empty.has_next_page).toBe(true);
    expect(empty.next_cursor).not.toBe('');
    const resumed = (await c.get(`${quotes()}&cursor=${String(empty.next_cursor)}`)).json;
    expect(ids(resumed)).toEqual(ids(first));
  });

  it('no-cursor: has_next_page true with an empty next_cursor', async () => {
    const a = (await sandbox().get(quotes(), quirk('no-cursor'))).json;
    expect(a.has_next_page).toBe(true);
    expect(a.next_cursor).toBe('');
    expect((a.tweets as unknown[]).length).toBe(PAGE_SIZE);
  });

  it('repeat-cursor: next_cursor equals the cursor just sent', async () => {
    const c = sandbox();
    const first = (await c.get(quotes())).json;
    const cursor = String(first.next_cursor);
    const again = (await c.get(`${quotes()}&cursor=${cursor}`, quirk('repeat-cursor'))).json;
    expect(again.next_cursor).toBe(cursor);
    expect(again.has_next_page).toBe(true);
  });

  it('duplicates: items repeat across pages, and the walk still ends', async () => {
    const c = sandbox();
    const { pages } = await walk(
      c,
      '/social/tweet/quotes',
      { tweetId: c.sandbox.examples.muchQuotedPostId },
      { headers: quirk('duplicates') },
    );
    const all = pages.flatMap((p) => ids(p));
    expect(all.length - new Set(all).size).toBe((pages.length - 1) * DUPLICATE_OVERLAP);
    expect(ids(pages[1] as Body).slice(0, DUPLICATE_OVERLAP)).toEqual(ids(pages[0] as Body).slice(-DUPLICATE_OVERLAP));
  });

  it('page-size: replies v2 with 35 per page', async () => {
    const c = sandbox();
    const a = (
      await c.get(
        `/social/tweet/replies/v2${qs({ tweetId: c.sandbox.examples.bigThreadPostId })}`,
        quirk('page-size;n=35'),
      )
    ).json;
    expect((a.tweets as unknown[]).length).toBe(35);
  });
});

describe('envelope quirks', () => {
  it('swap-msg, both-msg, no-msg, code-0', async () => {
    const c = sandbox();
    const swapped = (await c.get('/social/trends', quirk('swap-msg'))).json;
    expect(swapped.message).toBe('');
    expect('msg' in swapped).toBe(false);
    const both = (await c.get('/social/trends', quirk('both-msg'))).json;
    expect([both.msg, both.message]).toEqual(['', '']);
    const none = (await c.get('/social/trends', quirk('no-msg'))).json;
    expect('msg' in none || 'message' in none).toBe(false);
    const code = (await c.get('/social/trends', quirk('code-0'))).json;
    expect(code.code).toBe(0);
  });

  it('replies-under-tweets: replies v1 under `tweets`', async () => {
    const c = sandbox();
    const a = (
      await c.get(
        `/social/tweet/replies${qs({ tweetId: c.sandbox.examples.bigThreadPostId })}`,
        quirk('replies-under-tweets'),
      )
    ).json;
    expect('replies' in a).toBe(false);
    expect((a.tweets as unknown[]).length).toBe(PAGE_SIZE);
  });

  it('timeline-data: the user timeline under data.tweets, paging at the top level', async () => {
    const c = sandbox();
    const a = (
      await c.get(`/social/user/tweet_timeline${qs({ userId: c.sandbox.examples.profile.id })}`, quirk('timeline-data'))
    ).json;
    expect(Object.keys(a)).toEqual(['status', 'message', 'data', 'has_next_page', 'next_cursor']);
    expect(((a.data as Body).tweets as unknown[]).length).toBe(PAGE_SIZE);
  });

  it('search-bare: {users, has_next_page, next_cursor} only', async () => {
    const a = (await sandbox().get('/social/user/search?query=a', quirk('search-bare'))).json;
    expect(Object.keys(a)).toEqual(['users', 'has_next_page', 'next_cursor']);
  });

  it('trends-nested: each entry wrapped in `trend`, plus metadata', async () => {
    const a = (await sandbox().get('/social/trends?woeid=44418&count=3', quirk('trends-nested'))).json;
    const trends = a.trends as { trend: { name: string; target: { query: string }; rank: number } }[];
    expect(trends).toHaveLength(3);
    expect(trends.map((t) => t.trend.rank)).toEqual([1, 2, 3]);
    expect(trends[0]?.trend.target.query).toBe(encodeURIComponent(trends[0]?.trend.name ?? ''));
    expect(a.metadata).toMatchObject({ refresh_interval_millis: 300_000, woeid: { name: 'London', id: 44418 } });
  });

  it('detail-string: validation errors as 400 {detail: "<string>"}', async () => {
    const a = await sandbox().get('/social/tweet/quotes', quirk('detail-string'));
    expect(a.status).toBe(400);
    expect(a.json).toEqual({ detail: 'query.tweetId: Field required' });
  });

  it('quirks that do not concern an operation leave its answer as the spec says', async () => {
    const c = sandbox();
    const a = (await c.get('/social/trends', quirk('replies-under-tweets,timeline-data,search-bare'))).json;
    expect(responseSchema('trends').safeParse(a).success).toBe(true);
  });
});

describe('object quirks', () => {
  it('live-objects: extra fields, media in extendedEntities, null vs "", viewCount variants, truncated retweets', async () => {
    const c = sandbox();
    const a = (
      await c.get(`/social/user/tweet_timeline${qs({ userId: c.sandbox.examples.profile.id })}`, quirk('live-objects'))
    ).json;
    const posts = a.tweets as Body[];
    for (const p of posts) {
      for (const key of [
        'twitterUrl',
        'source',
        'card',
        'place',
        'isRetweet',
        'isQuote',
        'isPinned',
        'inReplyToUserId',
        'inReplyToUsername',
        'extendedEntities',
      ]) {
        expect(key in p, key).toBe(true);
      }
      expect((p.entities as Body).media).toBeUndefined();
      if (!p.isReply) expect(p.inReplyToId).toBe('');
    }
    expect(typeof posts[0]?.viewCount).toBe('number');
    expect('viewCount' in (posts[1] as Body)).toBe(false);
    expect(posts[2]?.viewCount).toEqual([0]);
    const rt = posts[4] as Body;
    expect(rt.isRetweet).toBe(true);
    expect(String(rt.text).startsWith('RT @')).toBe(true);
    expect((rt.retweeted_tweet as Body).text).not.toBe(rt.text);

    const media = await c.get(
      `/social/tweets${qs({ tweet_ids: c.sandbox.examples.mediaPostId })}`,
      quirk('live-objects'),
    );
    const m = (((media.json.tweets as Body[])[0]?.extendedEntities as Body).media as Body[])[0] as Body;
    expect(m).toMatchObject({
      type: 'photo',
      media_url_https: expect.stringMatching(/\/media\/img-\d+\.png$/),
      original_info: { width: expect.any(Number), height: expect.any(Number) },
    });
  });

  it('live-defaults: the timeline leaves replies out unless includeReplies is sent', async () => {
    const c = sandbox();
    const id = c.sandbox.examples.profile.id;
    const walkAll = async (q: Record<string, string>, spec?: string): Promise<Body[]> =>
      (await walk(c, '/social/user/tweet_timeline', q, spec ? { headers: quirk(spec) } : {})).pages.flatMap(
        (p) => p.tweets as Body[],
      );
    const spec = await walkAll({ userId: id });
    const live = await walkAll({ userId: id }, 'live-defaults');
    const explicit = await walkAll({ userId: id, includeReplies: 'true' }, 'live-defaults');
    expect(spec.some((p) => p.isReply)).toBe(true);
    expect(live.some((p) => p.isReply)).toBe(false);
    expect(explicit.length).toBe(spec.length);
  });
});
