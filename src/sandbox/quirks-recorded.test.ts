/** The variants confirmed on real recorded bodies, as the sandbox answers them on request (raw shapes). */
import { describe, expect, it } from 'vitest';
import { qs, useSandbox } from './test-utils';

const sandbox = useSandbox();
const quirk = (spec: string): Record<string, string> => ({ 'x-sandbox-fault': spec });
type Body = Record<string, unknown>;

describe('recorded quirks', () => {
  it('recorded-posts: long texts under a 280-wide range, retweet wrappers with isRetweet false, number and [0] viewCounts', async () => {
    const c = sandbox();
    const a = (
      await c.get(
        `/social/tweet/quotes${qs({ tweetId: c.sandbox.examples.muchQuotedPostId })}`,
        quirk('recorded-posts'),
      )
    ).json;
    const posts = a.tweets as Body[];
    expect(
      posts.some(
        (p) =>
          [...String(p.text)].length >= 2000 &&
          (p.displayTextRange as number[])[1]! - (p.displayTextRange as number[])[0]! === 280,
      ),
    ).toBe(true);
    const rt = posts.find((p) => p.retweeted_tweet);
    expect(rt).toMatchObject({ isRetweet: false, text: expect.stringMatching(/^RT @\w+: .*…$/s) });
    expect(posts.some((p) => typeof p.viewCount === 'number')).toBe(true);
    expect(posts.some((p) => Array.isArray(p.viewCount))).toBe(true);
    expect(posts[0]).toMatchObject({
      source: '',
      isLimitedReply: false,
      place: {},
      entities: expect.objectContaining({ timestamps: [] }),
    });
  });

  it('recorded-users: "" description with the bio in profile_bio, profile_bio {}, coverPicture ""', async () => {
    const a = (await sandbox().get(`/social/user/search${qs({ query: 'a' })}`, quirk('recorded-users'))).json;
    const users = a.users as Body[];
    expect(users[0]).toMatchObject({
      description: '',
      coverPicture: '',
      verifiedType: 'Business',
      profile_bio: { description: expect.any(String) },
    });
    expect(users[2]!.profile_bio).toEqual({});
  });

  it('community-live: a top-level community_info with the live keys', async () => {
    const c = sandbox();
    const a = (
      await c.get(
        `/social/community/info${qs({ community_id: c.sandbox.examples.communityId })}`,
        quirk('community-live'),
      )
    ).json;
    expect('data' in a).toBe(false);
    expect(Object.keys(a.community_info as Body)).toHaveLength(19);
    expect(a.community_info).toMatchObject({
      member_count: expect.any(Number),
      join_policy: 'Open',
      members_preview: [],
    });
  });

  it('space-documented: data.{id, title, state, …} with Live for a running space', async () => {
    const c = sandbox();
    const a = (
      await c.get(
        `/social/spaces/detail${qs({ space_id: c.sandbox.examples.runningSpaceId })}`,
        quirk('space-documented'),
      )
    ).json;
    expect(a.data).toMatchObject({
      id: c.sandbox.examples.runningSpaceId,
      state: 'Live',
      participants: { admins: expect.any(Array), speakers: expect.any(Array), listeners: expect.any(Array) },
    });
  });

  it('not-started-404: a space not started yet answers 404', async () => {
    const c = sandbox();
    const path = `/social/spaces/detail${qs({ space_id: c.sandbox.examples.scheduledSpaceId })}`;
    expect((await c.get(path)).status).toBe(200);
    expect((await c.get(path, quirk('not-started-404'))).status).toBe(404);
  });

  it('trends-unwrapped: {name, target: {query}, rank, meta_description}, no url', async () => {
    const a = (await sandbox().get('/social/trends', quirk('trends-unwrapped'))).json;
    const t = (a.trends as Body[])[0]!;
    expect(Object.keys(t).sort()).toEqual(['meta_description', 'name', 'rank', 'target']);
  });

  it('members-live: community members answer 200 with a page of users; without it, 501', async () => {
    const c = sandbox();
    const path = `/social/community/members${qs({ community_id: c.sandbox.examples.communityId })}`;
    const live = await c.get(path, quirk('members-live'));
    expect(live.status).toBe(200);
    expect((live.json.data as Body[])[0]).toMatchObject({ type: 'user', userName: expect.any(String) });
    expect(live.json.has_next_page).toBe(true);
    expect((await c.get(path)).status).toBe(501);
  });
});
