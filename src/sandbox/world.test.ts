/** The generated world: ids, entity indices, dates, structure and scale. */
import { describe, expect, it } from 'vitest';
import { CREATED_AT_PATTERN, Post, User, type SpecPost } from '../shared/api';
import { World } from './world';
import { group } from './world/graph';
import { resolveSize } from './world/size';
import { codePoints, MARKUP_PROBE } from './world/text';
import { FIXED_NOW } from './test-utils';
import { WOEIDS } from './world/trends';

const small = new World({ seed: 7, size: resolveSize('small'), now: FIXED_NOW });
const TWO_TO_53 = 2n ** 53n;

const slice = (text: string, [a, b]: [number, number]): string => Array.from(text).slice(a, b).join('');

function checkEntities(p: SpecPost): void {
  const e = p.entities;
  expect(e).not.toBeNull();
  for (const h of e?.hashtags ?? []) expect(slice(p.text, h.indices)).toBe(`#${h.text}`);
  for (const s of e?.symbols ?? []) expect(slice(p.text, s.indices)).toBe(`$${s.text}`);
  for (const m of e?.user_mentions ?? []) expect(slice(p.text, m.indices)).toBe(`@${m.screen_name}`);
  for (const u of e?.urls ?? []) expect(slice(p.text, u.indices)).toBe(u.url);
  for (const m of e?.media ?? []) expect(slice(p.text, m.indices)).toBe(m.url);
  const [start, end] = p.displayTextRange ?? [0, 0];
  expect(start).toBeGreaterThanOrEqual(0);
  expect(end).toBeLessThanOrEqual(codePoints(p.text));
}

describe('ids', () => {
  it('posts, users, communities and lists have 18-19 digit ids above 2^53, unique', () => {
    const ids = [
      ...small.graph.ids,
      ...small.users.map((u) => u.id),
      ...small.communities.map((c) => c.id),
      ...small.lists.map((l) => l.id),
    ];
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) {
      expect(id).toMatch(/^\d{18,19}$/);
      expect(BigInt(id) > TWO_TO_53).toBe(true);
    }
  });

  it('post ids grow with createdAt, so newest first is descending id', () => {
    const ids = small.graph.ids.map((id) => BigInt(id));
    for (let i = 1; i < ids.length; i++) expect(ids[i]! > ids[i - 1]!).toBe(true);
  });

  it('lookups accept exactly the world ids', () => {
    const id = small.graph.ids[10] as string;
    expect(small.postIndex(id)).toBe(10);
    expect(small.postIndex((BigInt(id) + 1n).toString())).toBe(-1);
    expect(small.postIndex('12abc')).toBe(-1);
    expect(small.userIndex(small.users[3]!.id)).toBe(3);
    expect(small.userByName(`@${small.users[3]!.userName.toUpperCase()}`)).toBe(3);
  });
});

describe('posts', () => {
  const posts = Array.from({ length: small.graph.count }, (_, i) => small.post(i));

  it('validate against the Post schema and use the spec date format', () => {
    for (const p of posts) {
      expect(Post.safeParse(p).success).toBe(true);
      expect(p.createdAt).toMatch(CREATED_AT_PATTERN);
    }
  });

  it('entity indices are code-point offsets into text (emoji included)', () => {
    let astral = 0;
    for (const p of posts) {
      checkEntities(p);
      if (p.quoted_tweet) checkEntities(p.quoted_tweet);
      if (
        codePoints(p.text) !== p.text.length &&
        (p.entities?.hashtags?.length || p.entities?.urls?.length || p.entities?.media?.length)
      )
        astral++;
    }
    expect(astral).toBeGreaterThan(5); // the check above really covered surrogate pairs
  });

  it('have every entity kind, languages and media with alt text and palette', () => {
    const has = (f: (p: SpecPost) => boolean): number => posts.filter(f).length;
    expect(has((p) => !!p.entities?.hashtags?.length)).toBeGreaterThan(50);
    expect(has((p) => !!p.entities?.symbols?.length)).toBeGreaterThan(5);
    expect(has((p) => !!p.entities?.urls?.length)).toBeGreaterThan(50);
    expect(has((p) => !!p.entities?.user_mentions?.length)).toBeGreaterThan(100);
    expect(has((p) => !!p.entities?.media?.length)).toBeGreaterThan(50);
    expect(new Set(posts.map((p) => p.lang)).size).toBeGreaterThanOrEqual(5);
    const media = posts.flatMap((p) => p.entities?.media ?? []);
    expect(media.some((m) => (m.media_results.result.media_info.alt_text ?? '').length > 0)).toBe(true);
    for (const m of media)
      expect(m.media_results.result.media_info.color_info?.palette.length).toBeGreaterThanOrEqual(2);
  });

  it('replies come after their parent, in the parent conversation, with the reply prefix outside displayTextRange', () => {
    const byId = new Map(posts.map((p) => [p.id, p]));
    for (const p of posts.filter((x) => x.isReply)) {
      const parent = byId.get(p.inReplyToId as string) as SpecPost;
      expect(BigInt(p.id) > BigInt(parent.id)).toBe(true);
      expect(p.conversationId).toBe(parent.conversationId);
      if (parent.author.id !== p.author.id) {
        expect(p.text.startsWith(`@${parent.author.userName} `)).toBe(true);
        expect(p.displayTextRange?.[0]).toBe(codePoints(`@${parent.author.userName} `));
      }
    }
  });

  it('quotes nest at most two levels and include quotes of quotes', () => {
    const quotes = posts.filter((p) => p.quoted_tweet);
    expect(quotes.some((p) => p.quoted_tweet?.quoted_tweet)).toBe(true);
    for (const p of quotes) expect(p.quoted_tweet?.quoted_tweet?.quoted_tweet ?? null).toBeNull();
  });

  it('one post carries the markup probe as plain text', () => {
    expect(posts.filter((p) => p.text.includes(MARKUP_PROBE))).toHaveLength(1);
  });
});

describe('users', () => {
  const users = small.users.map((u) => small.user(u.index, true));

  it('validate, with unique handles, bios with urls and mentions at the right indices, pins, covers, verified', () => {
    expect(new Set(users.map((u) => u.userName.toLowerCase())).size).toBe(users.length);
    for (const u of users) {
      expect(User.safeParse(u).success).toBe(true);
      const d = (u.profile_bio?.entities?.description ?? {}) as {
        urls?: { url: string; indices: [number, number] }[];
        user_mentions?: { screen_name: string; indices: [number, number] }[];
      };
      for (const url of d.urls ?? []) expect(slice(u.description, url.indices)).toBe(url.url);
      for (const m of d.user_mentions ?? []) expect(slice(u.description, m.indices)).toBe(`@${m.screen_name}`);
    }
    expect(users.filter((u) => u.description.includes('https://s.co/')).length).toBeGreaterThan(20);
    expect(users.filter((u) => u.description.includes('@')).length).toBeGreaterThan(20);
    expect(users.filter((u) => u.pinnedTweetIds.length).length).toBeGreaterThan(20);
    expect(users.filter((u) => u.coverPicture).length).toBeGreaterThan(20);
    expect(users.filter((u) => u.isBlueVerified).length).toBeGreaterThan(5);
    expect(users.filter((u) => u.location === null).length).toBeGreaterThan(5);
  });

  it('statusesCount is null inside post authors and a whole life’s count elsewhere', () => {
    expect(small.post(0).author.statusesCount).toBeNull();
    const u = small.graph.author[0] as number;
    const user = small.user(u, true);
    // the generated year's posts, and as many again for each year the account lived before it
    const year = group(small.graph.byAuthor, u).length;
    const years = (small.anchor - Date.parse(user.createdAt)) / (365 * 86_400_000);
    expect(user.statusesCount).toBeGreaterThanOrEqual(year);
    expect(user.statusesCount).toBeCloseTo(year * Math.max(1, years), -1);
  });
});

describe('default size', () => {
  const world = new World({ seed: 1, size: resolveSize('default'), now: FIXED_NOW });
  const g = world.graph;

  it('has the sizes the issue asks for', () => {
    expect(world.users.length).toBeGreaterThanOrEqual(2_000);
    expect(g.count).toBeGreaterThanOrEqual(50_000);
    expect(world.communities.length).toBeGreaterThanOrEqual(20);
    expect(world.lists.length).toBeGreaterThanOrEqual(20);
    expect(world.spaces.length).toBeGreaterThanOrEqual(5);
    expect(world.spaces.some((s) => s.state === 'Running')).toBe(true);
    expect(world.spaces.some((s) => s.state === 'Ended')).toBe(true);
    expect(Object.keys(WOEIDS).length).toBeGreaterThanOrEqual(10);
    expect(world.trends.get(1)?.length).toBe(50);
  });

  it('has a conversation of >= 10,000 replies, deeper than 6 and branching', () => {
    const root = g.bigThreadRoot;
    let size = 0;
    let depth = 0;
    for (let i = 0; i < g.count; i++) {
      if (g.root[i] !== root || i === root) continue;
      size++;
      depth = Math.max(depth, g.depth[i] as number);
    }
    expect(size).toBeGreaterThanOrEqual(10_000);
    expect(depth).toBeGreaterThanOrEqual(6);
    expect(group(g.replies, root).length).toBeGreaterThan(1);
    const branching = Array.from(group(g.replies, root)).filter((r) => group(g.replies, r).length > 1);
    expect(branching.length).toBeGreaterThan(1);
    expect(world.examples.bigThreadPostId).toBe(g.ids[root]);
  });

  it('has a post with >= 2,000 quotes', () => {
    expect(group(g.quotes, g.muchQuoted).length).toBeGreaterThanOrEqual(2_000);
    expect(world.examples.muchQuotedPostId).toBe(g.ids[g.muchQuoted]);
  });
});

describe('lazy drawing', () => {
  it('a post is the same whatever was rendered before it', () => {
    const fresh = new World({ seed: 7, size: resolveSize('small'), now: FIXED_NOW });
    const late = small.graph.count - 1;
    small.post(5);
    expect(JSON.stringify(fresh.post(late))).toBe(JSON.stringify(small.post(late)));
    expect(JSON.stringify(fresh.post(5))).toBe(JSON.stringify(small.post(5)));
  });
});
