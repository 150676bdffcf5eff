/** What each operation's answer holds, and in which order. */
import { describe, expect, it } from 'vitest';
import type { SpecPost, User } from '../shared/api';
import { qs, useSandbox, walk, type Client } from './test-utils';

const sandbox = useSandbox();

async function all<T>(c: Client, path: string, q: Record<string, string>, key = 'tweets'): Promise<T[]> {
  return (await walk(c, path, q)).pages.flatMap((p) => p[key] as T[]);
}

const newestFirst = (posts: SpecPost[]): void => {
  for (let i = 1; i < posts.length; i++) expect(BigInt(posts[i - 1]!.id) > BigInt(posts[i]!.id)).toBe(true);
};

describe('posts', () => {
  it('replies v2: the post first, then its conversation depth-first (every reply after its parent)', async () => {
    const c = sandbox();
    const root = c.sandbox.examples.bigThreadPostId;
    for (const queryType of ['Relevance', 'Latest', 'Likes']) {
      const thread = await all<SpecPost>(c, '/social/tweet/replies/v2', { tweetId: root, queryType });
      expect(thread[0]?.id).toBe(root);
      const position = new Map(thread.map((p, k) => [p.id, k]));
      for (const p of thread.slice(1))
        expect(position.get(p.inReplyToId as string)).toBeLessThan(position.get(p.id) as number);
      // depth-first (pre-order): each reply's parent is on the path from the root to the previous item
      const path: string[] = [root];
      for (const p of thread.slice(1)) {
        while (path.length && path.at(-1) !== p.inReplyToId) path.pop();
        expect(path.length, `${p.id} out of depth-first order`).toBeGreaterThan(0);
        path.push(p.id);
      }
      const direct = thread.filter((p) => p.inReplyToId === root);
      if (queryType === 'Latest')
        for (let i = 1; i < direct.length; i++) expect(BigInt(direct[i - 1]!.id) > BigInt(direct[i]!.id)).toBe(true);
      if (queryType === 'Likes')
        for (let i = 1; i < direct.length; i++)
          expect(direct[i - 1]!.likeCount).toBeGreaterThanOrEqual(direct[i]!.likeCount);
    }
  });

  it('replies v1: direct replies only', async () => {
    const c = sandbox();
    const root = c.sandbox.examples.bigThreadPostId;
    const replies = await all<SpecPost>(c, '/social/tweet/replies', { tweetId: root }, 'replies');
    expect(replies.length).toBeGreaterThan(20);
    for (const p of replies) expect(p.inReplyToId).toBe(root);
  });

  it('quotes: every item quotes the post, newest first', async () => {
    const c = sandbox();
    const id = c.sandbox.examples.muchQuotedPostId;
    const quotes = await all<SpecPost>(c, '/social/tweet/quotes', { tweetId: id });
    for (const q of quotes) expect(q.quoted_tweet?.id).toBe(id);
    newestFirst(quotes);
  });

  it('mentions: posts naming the user, newest first', async () => {
    const c = sandbox();
    const { userName } = c.sandbox.examples.profile;
    const posts = await all<SpecPost>(c, '/social/user/mentions', { userName: userName.toLowerCase() });
    expect(posts.length).toBeGreaterThan(5);
    for (const p of posts) expect(p.entities?.user_mentions?.some((m) => m.screen_name === userName)).toBe(true);
    newestFirst(posts);
  });
});

describe('timelines', () => {
  it('user timeline: the user posts newest first; includeReplies and includeParentTweet are honoured', async () => {
    const c = sandbox();
    const { id } = c.sandbox.examples.profile;
    const withReplies = await all<SpecPost>(c, '/social/user/tweet_timeline', { userId: id });
    expect(withReplies.every((p) => p.author.id === id)).toBe(true);
    expect(withReplies.some((p) => p.isReply)).toBe(true);
    newestFirst(withReplies);
    const noReplies = await all<SpecPost>(c, '/social/user/tweet_timeline', { userId: id, includeReplies: 'false' });
    expect(noReplies.some((p) => p.isReply)).toBe(false);
    expect(noReplies.length).toBe(withReplies.filter((p) => !p.isReply).length);
    const parents = await all<SpecPost>(c, '/social/user/tweet_timeline', { userId: id, includeParentTweet: 'true' });
    const others = parents.filter((p) => p.author.id !== id);
    expect(others.length).toBeGreaterThan(0);
    for (const p of others) {
      const k = parents.indexOf(p);
      expect(parents[k + 1]?.inReplyToId).toBe(p.id);
    }
  });

  it('list timeline: posts of the list members, newest first', async () => {
    const c = sandbox();
    const posts = await all<SpecPost>(c, '/social/list/tweets_timeline', { listId: c.sandbox.examples.listId });
    expect(posts.length).toBeGreaterThan(20);
    newestFirst(posts);
  });
});

describe('people', () => {
  it('search ranks an exact handle first, then handle prefixes, names, bios', async () => {
    const c = sandbox();
    const { userName, id } = c.sandbox.examples.profile;
    const exact = (await c.get<{ users: User[] }>(`/social/user/search${qs({ query: userName.toUpperCase() })}`)).json
      .users;
    expect(exact[0]?.id).toBe(id);
    const prefix = userName.slice(0, 3).toLowerCase();
    const users = await all<User>(c, '/social/user/search', { query: prefix }, 'users');
    const rank = (u: User): number =>
      u.userName.toLowerCase().startsWith(prefix) ? 0 : u.userName.toLowerCase().includes(prefix) ? 1 : 2;
    for (let i = 1; i < users.length; i++) expect(rank(users[i - 1]!)).toBeLessThanOrEqual(rank(users[i]!));
    for (const u of users.filter((x) => rank(x) === 2))
      expect(`${u.name} ${u.description}`.toLowerCase()).toContain(prefix);
    expect(users.every((u) => typeof u.statusesCount === 'number')).toBe(true);
  });

  it('search needs every word to match; no match is an empty, final page', async () => {
    const a = await sandbox().get('/social/user/search?query=zzzzqqq');
    expect(a.json).toMatchObject({ users: [], has_next_page: false, next_cursor: '' });
  });

  it('list followers are user objects; trends honour woeid and count', async () => {
    const c = sandbox();
    const followers = await all<User>(c, '/social/list/followers', { list_id: c.sandbox.examples.listId }, 'followers');
    expect(followers.length).toBeGreaterThan(20);
    expect(followers.every((u) => u.type === 'user')).toBe(true);
    const world = (await c.get<{ trends: { name: string }[] }>('/social/trends')).json.trends;
    expect(world).toHaveLength(30);
    const london = (await c.get<{ trends: { name: string }[] }>('/social/trends?woeid=44418&count=5')).json.trends;
    expect(london).toHaveLength(5);
    expect(london.map((t) => t.name)).not.toEqual(world.slice(0, 5).map((t) => t.name));
  });
});
