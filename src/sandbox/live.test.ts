import { describe, expect, it } from 'vitest';
import { startSandbox } from './server';
import { client, FIXED_NOW, useSandbox, type Client } from './test-utils';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

interface Changes {
  bornAt: number;
  posts: Array<{
    id: string;
    userId: string;
    userName: string;
    createdAt: number;
    kind: string;
    inReplyToId: string | null;
    quotedId: string | null;
    deletedAt: number | null;
  }>;
  deletions: Array<{ id: string; userId: string; at: number; live: boolean }>;
  suspensions: Array<{ userId: string; userName: string; at: number; liftedAt: number | null }>;
}
type Post = { id: string; likeCount: number; replyCount: number; viewCount: string | null; createdAt: string };
type Page = { tweets: Post[]; has_next_page: boolean; next_cursor: string };

async function setClock(c: Client, at: number): Promise<void> {
  const res = await c.control('POST', '/__sandbox/clock', { set: at });
  expect(res.status).toBe(200);
}

async function changes(c: Client, from?: number, to?: number): Promise<Changes> {
  const q = new URLSearchParams();
  if (from !== undefined) q.set('from', String(from));
  if (to !== undefined) q.set('to', String(to));
  return (await c.control<Changes>('GET', `/__sandbox/changes?${q.toString()}`)).json;
}

async function timeline(c: Client, userId: string): Promise<Post[]> {
  return (await c.get<Page>(`/social/user/tweet_timeline?userId=${userId}&includeReplies=true`)).json.tweets;
}

async function byIds(c: Client, ids: string[]): Promise<Post[]> {
  return (await c.get<{ tweets: Post[] }>(`/social/tweets?tweet_ids=${ids.join(',')}`)).json.tweets;
}

describe('the world moves on the sandbox clock', () => {
  const sandbox = useSandbox({ size: 'default' });

  it('is still in its first hour: the same answers as at the start', async () => {
    const c = sandbox();
    const { profile } = c.sandbox.examples;
    await setClock(c, FIXED_NOW);
    const before = await c.get(`/social/user/tweet_timeline?userId=${profile.id}`);
    await setClock(c, FIXED_NOW + HOUR - 1);
    const later = await c.get(`/social/user/tweet_timeline?userId=${profile.id}`);
    expect(later.text).toBe(before.text);
    expect((await changes(c)).posts).toEqual([]);
  });

  it('brings new posts after it: each in its author’s timeline once, newest first, and found by id', async () => {
    const c = sandbox();
    await setClock(c, FIXED_NOW + 3 * DAY);
    const { posts, bornAt } = await changes(c);
    expect(bornAt).toBe(FIXED_NOW);
    // about 137 posts a day at default size
    expect(posts.length).toBeGreaterThan(200);
    expect(posts.every((p) => p.createdAt > FIXED_NOW + HOUR)).toBe(true);
    const visible = posts.filter((p) => p.deletedAt === null || p.deletedAt > FIXED_NOW + 3 * DAY);
    const byAuthor = new Map<string, Changes['posts']>();
    for (const p of visible) byAuthor.set(p.userId, [...(byAuthor.get(p.userId) ?? []), p]);
    const busiest = [...byAuthor].sort((a, b) => b[1].length - a[1].length)[0];
    const [userId, mine = []] = busiest ?? ['', []];
    const top = await timeline(c, userId);
    const newest = [...mine].sort((a, b) => b.createdAt - a.createdAt);
    const n = Math.min(20, newest.length);
    expect(n).toBeGreaterThan(3);
    expect(top.slice(0, n).map((p) => p.id)).toEqual(newest.slice(0, n).map((p) => p.id));
    const found = await byIds(
      c,
      newest.slice(0, 5).map((p) => p.id),
    );
    expect(found.map((p) => p.id)).toEqual(newest.slice(0, 5).map((p) => p.id));
    expect(new Set(posts.map((p) => p.id)).size).toBe(posts.length);
  });

  it('deletes posts: seen before their deletion, not found after it', async () => {
    const c = sandbox();
    const all = await changes(c, FIXED_NOW, FIXED_NOW + 3 * DAY);
    const gone = all.deletions.filter((d) => d.at < FIXED_NOW + 3 * DAY);
    expect(gone.some((d) => d.live)).toBe(true);
    expect(gone.some((d) => !d.live)).toBe(true);
    for (const d of gone.slice(0, 6)) {
      await setClock(c, d.at - 1);
      expect((await byIds(c, [d.id])).map((p) => p.id)).toEqual([d.id]);
      await setClock(c, d.at);
      expect(await byIds(c, [d.id])).toEqual([]);
      expect((await timeline(c, d.userId)).map((p) => p.id)).not.toContain(d.id);
    }
  });

  it('grows counters by the hour, and counts replies exactly', async () => {
    const c = sandbox();
    const { posts } = await changes(c, FIXED_NOW, FIXED_NOW + DAY);
    const post = posts.find((p) => p.deletedAt === null) as Changes['posts'][number];
    const likes: number[] = [];
    for (const h of [1, 6, 24, 48]) {
      await setClock(c, post.createdAt + h * HOUR);
      likes.push((await byIds(c, [post.id]))[0]?.likeCount ?? -1);
    }
    expect(likes).toEqual([...likes].sort((a, b) => a - b));
    const replied = posts.find((p) => p.kind === 'reply' && p.inReplyToId) as Changes['posts'][number];
    await setClock(c, FIXED_NOW + 2 * DAY);
    const parent = (await byIds(c, [replied.inReplyToId as string]))[0] as Post;
    let walked = 0;
    for (let cursor = ''; ;) {
      const page = (
        await c.get<{ replies: Post[]; has_next_page: boolean; next_cursor: string }>(
          `/social/tweet/replies?tweetId=${parent.id}${cursor ? `&cursor=${cursor}` : ''}`,
        )
      ).json;
      walked += page.replies.length;
      if (!page.has_next_page) break;
      cursor = page.next_cursor;
    }
    expect(walked).toBe(parent.replyCount);
  });

  it('suspends accounts: their timeline is not found and a batch lookup leaves them out', async () => {
    const c = sandbox();
    const { suspensions } = await changes(c, FIXED_NOW, FIXED_NOW + 10 * DAY);
    expect(suspensions.length).toBeGreaterThan(0);
    const s = suspensions[0] as Changes['suspensions'][number];
    await setClock(c, s.at - 1);
    expect((await c.get(`/social/user/tweet_timeline?userId=${s.userId}`)).status).toBe(200);
    await setClock(c, s.at);
    expect((await c.get(`/social/user/tweet_timeline?userId=${s.userId}`)).status).toBe(404);
    const batch = await c.get<{ users: Array<{ id: string }> }>(`/social/user/batch_info_by_ids?userIds=${s.userId}`);
    expect(batch.json.users).toEqual([]);
    // half of them are lifted after a few days: the account, and its posts, come back
    const lifted = suspensions.find((x) => x.liftedAt !== null) as Changes['suspensions'][number];
    await setClock(c, (lifted.liftedAt as number) - 1);
    expect((await c.get(`/social/user/tweet_timeline?userId=${lifted.userId}`)).status).toBe(404);
    await setClock(c, lifted.liftedAt as number);
    const back = await c.get<Page>(`/social/user/tweet_timeline?userId=${lifted.userId}`);
    expect(back.status).toBe(200);
    expect(back.json.tweets.length).toBeGreaterThan(0);
  });

  it('lists a list’s members on the control plane, free', async () => {
    const c = sandbox();
    const { listId } = c.sandbox.examples;
    const before = (await c.control<{ totals: { calls: number } }>('GET', '/__sandbox/usage')).json.totals.calls;
    const list = await c.control<{ members: Array<{ id: string; userName: string }> }>(
      'GET',
      `/__sandbox/lists/${listId}`,
    );
    expect(list.json.members.length).toBe(30);
    expect((await c.control<{ totals: { calls: number } }>('GET', '/__sandbox/usage')).json.totals.calls).toBe(before);
  });
});

describe('the moving world is deterministic', () => {
  it('two sandboxes with the same seed and start tell the same history', async () => {
    const started = await Promise.all(
      [0, 1].map(() => startSandbox({ size: 'small', now: () => FIXED_NOW, activity: 20 })),
    );
    try {
      const [a, b] = started.map(client) as [Client, Client];
      for (const c of [a, b]) await setClock(c, FIXED_NOW + 2 * DAY);
      const [ca, cb] = [await changes(a), await changes(b)];
      expect(ca.posts.length).toBeGreaterThan(50);
      expect(cb).toEqual(ca);
      const user = ca.posts[0]?.userId as string;
      // byte for byte, but for the server's own origin in media URLs (it carries the port)
      const bytes = async (c: Client) => JSON.stringify(await timeline(c, user)).replaceAll(c.sandbox.baseUrl, '');
      expect(await bytes(b)).toBe(await bytes(a));
    } finally {
      await Promise.all(started.map((s) => s.close()));
    }
  });
});
