/**
 * The variants confirmed on real recorded bodies (api-field-notes.md), produced by the sandbox's
 * recorded quirks, read through the real client into one canonical shape each; raw items kept
 * byte for byte.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CommunityData, ITEM_SCHEMAS, SpaceData, type Post, type Trend, type User } from '../../shared/api';
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

async function get(input: Input, fault?: string) {
  h.fault(fault);
  h.client.clearStore();
  return h.client.fetchPage({ ...input, fresh: true });
}

describe('recorded-posts', () => {
  it('long posts keep their whole text, retweets (isRetweet false) their original, viewCount numbers read as counts', async () => {
    const input: Input = { operation: 'userTimeline', params: { userId: ex().profile.id } };
    const page = await get(input, 'recorded-posts, page-size;n=100');
    expect(page.result.report.dropped).toEqual([]);
    const posts = page.result.items as Array<Post & Record<string, unknown>>;
    for (const p of posts) expect(ITEM_SCHEMAS.post.safeParse(p).success).toBe(true);
    const long = posts.filter((p) => [...p.text].length > 2000);
    expect(long.length).toBeGreaterThan(3);
    for (const p of long) expect(p.displayTextRange![1] - p.displayTextRange![0]).toBe(280);
    const rts = posts.filter((p) => p.retweeted_tweet);
    expect(rts.length).toBeGreaterThan(0);
    for (const rt of rts) {
      expect(rt.isRetweet).toBe(false);
      expect(rt.text).toMatch(/^RT @\w+: /);
      expect([...rt.retweeted_tweet!.text].length).toBeGreaterThan(2000);
    }
    const raws = page.raw.items as Array<Record<string, unknown>>;
    raws.forEach((raw, i) => {
      if (typeof raw.viewCount === 'number') expect(posts[i]!.viewCount).toBe(String(raw.viewCount));
      else expect(posts[i]!.viewCount).toBeNull();
    });
    expect(raws.some((r) => Array.isArray(r.viewCount))).toBe(true);
    // media: full entries in extendedEntities, a reduced media_results left in entities.media; a retweet's original has a video
    raws.forEach((raw, i) => {
      const ext = (raw.extendedEntities as { media?: unknown[] } | undefined)?.media ?? [];
      expect(posts[i]!.entities?.media ?? []).toHaveLength(ext.length);
    });
    expect(
      raws.some((r) =>
        ((r.entities as { media?: Array<{ media_results: object }> }).media ?? []).some(
          (m) => !('id' in m.media_results),
        ),
      ),
    ).toBe(true);
    const withMedia = rts.filter((rt) => (rt.retweeted_tweet!.entities?.media ?? []).length > 0);
    expect(withMedia.length).toBeGreaterThan(0);
    for (const rt of withMedia)
      expect(rt.retweeted_tweet!.entities!.media![0]!.media_results.result.media_info.__typename).toBe('ApiVideo');
    // the raw items are the answer's, byte for byte
    expect(JSON.stringify(page.raw.items)).toBe(JSON.stringify((page.raw.body as { tweets: unknown[] }).tweets));
    expect(posts.length).toBeGreaterThan(20);
  });
});

describe('recorded-envelopes and error bodies', () => {
  it.each([
    ['userTimeline', () => ({ userId: ex().profile.id })],
    ['postsByIds', () => ({ tweet_ids: [ex().mediaPostId, ex().bigThreadPostId].join(',') })],
    ['postReplies', () => ({ tweetId: ex().bigThreadPostId })],
    ['postRepliesV2', () => ({ tweetId: ex().bigThreadPostId })],
    ['userMentions', () => ({ userName: ex().profile.userName })],
    ['userSearch', () => ({ query: 'a' })],
    ['trends', () => ({})],
  ] as const)('%s as recorded reads as the spec envelope', async (operation, params) => {
    const input = { operation, params: params() } as Input;
    const plain = await get(input);
    const recorded = await get(input, 'recorded-envelopes');
    expect(recorded.raw.body).not.toEqual(plain.raw.body);
    expect(recorded.result.items).toEqual(plain.result.items);
    expect(recorded.result.paging).toEqual(plain.result.paging);
  });

  it('the recorded 401 body and HTTP 200 {status: "error", data: null} are errors, with their words', async () => {
    const input: Input = { operation: 'usersByIds', params: { userIds: ex().profile.id } };
    const keyed = await sandboxHarness({ key: 'a-key' });
    keyed.fault('401');
    await expect(keyed.client.fetchPage({ ...input, fresh: true })).rejects.toMatchObject({
      code: 'unauthorized',
      message: expect.stringContaining('API key is invalid'),
    });
    await keyed.close();
    await expect(get(input, 'status-error')).rejects.toMatchObject({
      code: 'api-error',
      message: expect.stringContaining('user not found'),
    });
  });
});

describe('recorded-users', () => {
  it('bios from profile_bio, profile_bio {} and coverPicture "" still users, in search, lookups and list followers', async () => {
    for (const input of [
      { operation: 'userSearch', params: { query: 'a' } },
      { operation: 'usersByIds', params: { userIds: ex().profile.id } },
      { operation: 'listFollowers', params: { list_id: ex().listId } },
    ] as Input[]) {
      const plain = (await get(input)).result.items as User[];
      const page = await get(input, 'recorded-users');
      expect(page.result.report.dropped).toEqual([]);
      const users = page.result.items as User[];
      users.forEach((u, i) => {
        expect(ITEM_SCHEMAS.user.safeParse(u).success, `${input.operation} ${i}`).toBe(true);
        expect(u.description).toBe(plain[i]!.description);
        expect(u.coverPicture).toBeNull();
      });
      const raws = page.raw.items as Array<Record<string, unknown>>;
      expect(raws.some((r) => r.description === '' && plain.some((p) => p.description !== ''))).toBe(true);
    }
  });
});

describe('communities, spaces, trends', () => {
  it('community-live: the top-level community_info reads as the spec community', async () => {
    const input: Input = { operation: 'communityInfo', params: { community_id: ex().communityId } };
    const spec = CommunityData.parse((await get(input)).result.data).data.community_results_by_rest_id.result;
    const page = await get(input, 'community-live');
    const live = CommunityData.parse(page.result.data).data.community_results_by_rest_id.result;
    expect(live).toMatchObject({
      rest_id: spec.rest_id,
      name: spec.name,
      member_count: spec.member_count,
      rules: spec.rules,
      join_policy: 'Open',
    });
    expect(page.raw.body).toHaveProperty('community_info');
  });

  it('space-documented: the documented data.{id,title,state} reads as the spec space; Live is Running', async () => {
    const input: Input = { operation: 'spaceDetail', params: { space_id: ex().runningSpaceId } };
    const spec = SpaceData.parse((await get(input)).result.data).data.audio_space_by_rest_id.metadata;
    const page = await get(input, 'space-documented');
    expect((page.raw.body as { data: { state: string } }).data.state).toBe('Live');
    const m = SpaceData.parse(page.result.data).data.audio_space_by_rest_id.metadata;
    expect(m).toMatchObject({ state: 'Running', title: spec.title, total_participated: spec.total_participated });
    // a live space's speakers come and go with the sandbox's clock: the variant shows the spec space's speakers
    // as of just before or just after it was asked
    const after = SpaceData.parse((await get(input)).result.data).data.audio_space_by_rest_id.metadata;
    const names = (x: typeof spec) => x.participants.speakers.map((p) => p.social_screen_name);
    expect([names(spec), names(after)]).toContainEqual(names(m));
  });

  it('not-started-404: a space not started yet is "not found or not started yet"', async () => {
    const e = await get(
      { operation: 'spaceDetail', params: { space_id: ex().scheduledSpaceId } },
      'not-started-404',
    ).catch((x: unknown) => x);
    expect(e).toMatchObject({ code: 'not-found', message: expect.stringContaining('not found or not started yet') });
  });

  it('trends-unwrapped: links built from target.query, https', async () => {
    const page = await get({ operation: 'trends', params: {} }, 'trends-unwrapped');
    const trends = page.result.items as Trend[];
    expect(trends.length).toBeGreaterThan(0);
    for (const t of trends) expect(t.url).toMatch(/^https:\/\/x\.com\/search\?q=\S+$/);
  });

  it('members-live: community members and moderators answering 200 are a paged list of users', async () => {
    const members = await get(
      { operation: 'communityMembers', params: { community_id: ex().communityId } },
      'members-live',
    );
    expect(members.result.items.length).toBe(20);
    expect(members.result.paging?.hasNextPage).toBe(true);
    for (const u of members.result.items) expect(ITEM_SCHEMAS.user.safeParse(u).success).toBe(true);
    const mods = await get(
      { operation: 'communityModerators', params: { community_id: ex().communityId } },
      'members-live',
    );
    expect(mods.result.items.length).toBeGreaterThan(0);
    const refused = await get({ operation: 'communityMembers', params: { community_id: ex().communityId } }).catch(
      (x: unknown) => x,
    );
    expect(refused).toMatchObject({ code: 'not-available' });
  });
});
