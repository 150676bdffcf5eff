/**
 * The readers on bodies shaped like the live service's recordings (api-field-notes.md, "Confirmed on
 * real recorded bodies"): one canonical shape each, nothing lost, raw items untouched.
 */
import { describe, expect, it } from 'vitest';
import {
  documentedSpace,
  LONG_TEXT_END,
  recordedCommunityInfo,
  recordedLongPost,
  recordedLongReply,
  recordedOriginal,
  recordedQuote,
  recordedRetweet,
  recordedTrendsUnwrapped,
  recordedUser,
} from '../fixtures/recorded';
import { communityFixture, spaceFixture } from '../fixtures';
import { CommunityData, SpaceData, type Post, type Trend, type User } from '../schemas';
import { normalizePage } from './page';

const posts = (tweets: unknown[]) =>
  normalizePage('postsByIds', { code: 0, status: 'success', msg: 'success', tweets });

describe('recorded posts', () => {
  it('keeps the whole text of a long post and of a long quoted post, and the raw items byte for byte', () => {
    const raw = [recordedLongPost, recordedQuote, recordedLongReply];
    const before = JSON.stringify(raw);
    const page = posts(raw);
    expect(page.dropped).toEqual([]);
    const [long, quote, reply] = page.items as Post[];
    expect(long!.text).toHaveLength(2656);
    expect(long!.text).toBe(recordedLongPost.text);
    expect(long!.text).toContain(LONG_TEXT_END);
    expect(quote!.quoted_tweet!.text).toBe(recordedLongPost.text);
    expect(reply!.displayTextRange).toEqual([15, 295]);
    expect(JSON.stringify(page.rawItems)).toBe(before);
  });

  it('reads a retweet (isRetweet false) with its original: author, full text, photos and video, counters', () => {
    const page = posts([recordedRetweet]);
    const rt = page.items[0] as Post;
    expect(rt.text.startsWith('RT @orig: ')).toBe(true);
    const original = rt.retweeted_tweet!;
    expect(original.text).toBe(recordedOriginal.text);
    expect(original.author?.userName).toBe('orig');
    expect(original.author?.description).toBe('Researcher @orig: notes on networks');
    expect(original.viewCount).toBe('98765');
    expect(original.retweetCount).toBe(321);
    const media = original.entities?.media ?? [];
    expect(media.map((m) => m.media_results.result.media_info.__typename)).toEqual([
      'ApiImage',
      'ApiImage',
      'ApiVideo',
    ]);
    expect(page.rawItems[0]).toBe(recordedRetweet);
  });

  it('reads a null retweeted_tweet as no retweet and an unreadable one as null, keeping the wrapper', () => {
    const page = posts([{ ...recordedRetweet, retweeted_tweet: { id: 'x', text: 3 } }, recordedLongPost]);
    expect(page.items.map((p) => (p as Post).retweeted_tweet)).toEqual([null, null]);
  });

  it.each([
    ['a number', 6789, '6789'],
    ['a numeric string', '42', '42'],
    ['[0]', [0], null],
    ['[7]', [7], null],
    ['missing', undefined, null],
  ])('viewCount as %s', (_what, value, expected) => {
    expect((posts([{ ...recordedLongPost, viewCount: value }]).items[0] as Post).viewCount).toBe(expected);
  });
});

describe('recorded users', () => {
  it('takes the bio from profile_bio when description is empty; profile_bio {} and coverPicture "" still make a user', () => {
    const page = normalizePage('userSearch', {
      users: [
        recordedUser('1', 'onlyprofile', { bioOnlyInProfile: true }),
        recordedUser('2', 'emptybio', { emptyProfileBio: true }),
      ],
      has_next_page: false,
      next_cursor: '',
    });
    expect(page.dropped).toEqual([]);
    const [a, b] = page.items as User[];
    expect(a!.description).toBe('Researcher @onlyprofile: notes on networks');
    expect(a!.coverPicture).toBeNull();
    expect(b).toMatchObject({ userName: 'emptybio', description: '', profile_bio: null, verifiedType: 'Business' });
  });

  it('reads list followers that are users as users (profile_bio {}), and leaves other entries as they are', () => {
    const page = normalizePage('listFollowers', {
      followers: [recordedUser('5', 'follower', { emptyProfileBio: true }), { note: 'not a user' }],
      has_next_page: false,
      next_cursor: '',
    });
    expect(page.items[0]).toMatchObject({ type: 'user', userName: 'follower', profile_bio: null });
    expect(page.items[1]).toEqual({ note: 'not a user' });
  });

  it('reads community members answering 200 with users (the spec announces a 501)', () => {
    const page = normalizePage('communityMembers', {
      members: [recordedUser('6', 'member')],
      has_next_page: true,
      next_cursor: 'c2',
    });
    expect((page.items[0] as User).userName).toBe('member');
    expect(page.paging).toEqual({ hasNextPage: true, nextCursor: 'c2' });
  });
});

describe('community, space and trends: both shapes into one', () => {
  it('reads the live top-level community_info into the spec shape, keeping its extra keys; the raw item is community_info', () => {
    const page = normalizePage('communityInfo', {
      community_info: recordedCommunityInfo,
      status: 'success',
      msg: 'success',
    });
    const c = CommunityData.parse(page.data).data.community_results_by_rest_id.result;
    expect(c).toMatchObject({
      rest_id: '1500000000000000001',
      name: 'Archive Researchers',
      member_count: 4321,
      moderator_count: 7,
      join_policy: 'Open',
    });
    expect(c.created_at).toBe(Date.parse('Wed Jan 10 12:00:00 +0000 2024'));
    expect(c.rules.map((r) => r.name)).toEqual(['Cite your sources', 'Be kind']);
    expect(c.custom_banner_media_results?.result?.media_info.original_img_url).toBe(
      'https://pbs.example/community_banner.jpg',
    );
    expect(page.rawData).toBe(recordedCommunityInfo);
  });

  it('still reads the spec shape as it is', () => {
    const page = normalizePage('communityInfo', { status: 'success', msg: '', data: communityFixture });
    expect(page.data).toEqual(communityFixture);
  });

  it.each([
    ['Live', 'Running'],
    ['NotStarted', 'NotStarted'],
    ['Ended', 'Ended'],
    ['Running', 'Running'],
  ] as const)('reads the documented space shape in state %s', (state, canonical) => {
    const page = normalizePage('spaceDetail', { data: documentedSpace(state), status: 'success', msg: '' });
    const m = SpaceData.parse(page.data).data.audio_space_by_rest_id.metadata;
    expect(m.state).toBe(canonical);
    expect(m.title).toBe('Reading the record, live');
    expect(m.creator_results.result.core.screen_name).toBe('orig');
    expect(m.participants.listeners.map((p) => p.social_screen_name)).toEqual(['replier', 'listener']);
    expect(m.total_participated).toBe(340);
  });

  it('still reads the spec space as it is', () => {
    expect(normalizePage('spaceDetail', { status: 'success', msg: '', data: spaceFixture }).data).toEqual(spaceFixture);
  });

  it('builds each trend link from target.query, wrapped or not', () => {
    const unwrapped = normalizePage('trends', { trends: recordedTrendsUnwrapped, status: 'success', msg: '' })
      .items as Trend[];
    const wrapped = normalizePage('trends', {
      trends: recordedTrendsUnwrapped.map((trend) => ({ trend })),
      metadata: {},
    }).items as Trend[];
    for (const list of [unwrapped, wrapped]) {
      expect(list.map((t) => t.url)).toEqual(['https://x.com/search?q=%23OpenData', 'https://x.com/search?q=Archives']);
    }
  });
});
