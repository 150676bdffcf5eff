/**
 * One handler per available operation: what the answer holds, before paging,
 * envelopes and faults (see `pipeline.ts`). The map is typed so a missing
 * operation does not compile, and each handler's outcome is typed by its
 * catalog entry (paged -> a sequence, `data` -> one object, else items).
 */
import type { OperationId, Operations, ParamsOf, QueryType } from '../shared/api';
import { group } from './world/graph';
import type { World } from './world';
import { LRUCache } from 'lru-cache';
import { cached } from './world/lru';

export type AvailableOperationId = {
  [K in OperationId]: Operations[K]['available'] extends true ? K : never;
}[OperationId];

/** the items of a paged view, in order, by index */
export interface Sequence {
  readonly length: number;
  get: (k: number) => number;
}

type Success<K extends OperationId> = (Operations[K]['paged'] extends true
  ? { sequence: Sequence; render: (i: number) => unknown }
  : Operations[K]['collectionKey'] extends 'data'
    ? { data: unknown }
    : { items: unknown[] }) & {
  /** the answer depends on the clock: never served from the answer cache */
  volatile?: true;
};

export type Outcome<K extends OperationId> = { notFound: string } | Success<K>;

export interface ViewContext {
  world: World;
  /** the sandbox clock */
  now: number;
  /** the `live-defaults` quirk: includeReplies defaults to false, as on the live service */
  liveDefaults: boolean;
  /** parameters the request actually carried (before defaults) */
  given: ReadonlySet<string>;
}

type Handlers = { [K in AvailableOperationId]: (p: ParamsOf<K>, ctx: ViewContext) => Outcome<K> };

const forward = (a: ArrayLike<number>): Sequence => ({ length: a.length, get: (k) => a[k] as number });
const backward = (a: ArrayLike<number>): Sequence => ({ length: a.length, get: (k) => a[a.length - 1 - k] as number });

const notFound = (what: string, id: string | number): { notFound: string } => ({
  notFound: `No ${what} found for ${JSON.stringify(String(id))}`,
});

/** comma-separated ids, trimmed, without repeats, in the order asked */
export function idList(raw: string): string[] {
  return [
    ...new Set(
      raw
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  ];
}

/** live posts and the graph's, newest first: live ordinals (oldest first) then the graph's group (oldest first) */
function newestFirst(world: World, graphed: Int32Array, live: readonly number[] | undefined): Int32Array {
  const visible = world.visibleOnly(graphed);
  const out = world.liveNewestFirst(live);
  for (let k = visible.length - 1; k >= 0; k--) out.push(visible[k] as number);
  return Int32Array.from(out);
}

export class Answers {
  private readonly threads = new LRUCache<string, Int32Array>({ max: 32 });
  private readonly searches = new LRUCache<string, Int32Array>({ max: 64 });
  private readonly timelines = new LRUCache<string, Int32Array>({ max: 128 });
  /** sequences of a world that has moved, by view and world state (the world moves on the sandbox clock) */
  private readonly moved = new LRUCache<string, Int32Array>({ max: 256 });

  constructor(private readonly world: World) {}

  /** a view's sequence at the moment: made once per state of the world */
  private moving(key: string, make: () => Int32Array): Int32Array {
    return cached(this.moved, `${key}@${this.world.stateKey()}`, make);
  }

  readonly handlers = {
    postQuotes: ({ tweetId }, { world }) => {
      const i = world.postIndex(tweetId);
      if (i < 0) return notFound('post', tweetId);
      const graphed = i < world.graph.count ? group(world.graph.quotes, i) : new Int32Array(0);
      if (!world.moved()) return { sequence: backward(graphed), render: (k) => world.post(k) };
      return {
        sequence: forward(this.moving(`quotes:${i}`, () => newestFirst(world, graphed, world.live.quotesOf.get(i)))),
        render: (k) => world.post(k),
      };
    },
    postRepliesV2: ({ tweetId, queryType }, { world }) => {
      const i = world.postIndex(tweetId);
      if (i < 0) return notFound('post', tweetId);
      return {
        sequence: forward(this.thread(i, (queryType ?? 'Relevance') as QueryType)),
        render: (k) => world.post(k),
      };
    },
    postReplies: ({ tweetId }, { world }) => {
      const i = world.postIndex(tweetId);
      if (i < 0) return notFound('post', tweetId);
      const graphed = i < world.graph.count ? group(world.graph.replies, i) : new Int32Array(0);
      if (!world.moved()) return { sequence: forward(graphed), render: (k) => world.post(k) };
      // oldest first: the live replies come after those of the graph
      return {
        sequence: forward(
          this.moving(`replies:${i}`, () =>
            Int32Array.from([
              ...world.visibleOnly(graphed),
              ...world.liveNewestFirst(world.live.repliesTo.get(i)).reverse(),
            ]),
          ),
        ),
        render: (k) => world.post(k),
      };
    },
    userMentions: ({ userName }, { world }) => {
      const u = world.userByName(userName);
      if (u < 0) return notFound('user', userName);
      const graphed = group(world.graph.mentions, u);
      if (!world.moved()) return { sequence: backward(graphed), render: (k) => world.post(k) };
      return {
        sequence: forward(
          this.moving(`mentions:${u}`, () => newestFirst(world, graphed, world.live.mentionsOf.get(u))),
        ),
        render: (k) => world.post(k),
      };
    },
    userSearch: ({ query }, { world }) => ({
      sequence: forward(this.search(query)),
      render: (u) => world.user(u, true),
    }),
    postsByIds: ({ tweet_ids }, { world }) => ({
      items: idList(tweet_ids)
        .map((id) => world.lookupPost(id))
        .filter((p) => p !== null),
    }),
    communityInfo: ({ community_id }, { world }) => {
      const c = world.community(community_id);
      return c ? { data: world.communityData(c) } : notFound('community', community_id);
    },
    listFollowers: ({ list_id }, { world }) => {
      const list = world.list(list_id);
      if (!list) return notFound('list', list_id);
      return { sequence: forward(list.followers), render: (u) => world.user(u, true) };
    },
    userTimeline: ({ userId, includeReplies, includeParentTweet }, { world, liveDefaults, given }) => {
      const u = world.userIndex(userId);
      if (u < 0) return notFound('user', userId);
      const replies = liveDefaults && !given.has('includeReplies') ? false : includeReplies !== false;
      const graphed = this.timeline(u, replies, includeParentTweet === true);
      if (!world.moved()) return { sequence: forward(graphed), render: (k) => world.post(k) };
      return {
        sequence: forward(
          this.moving(`user:${u}:${replies}:${includeParentTweet === true}`, () => {
            const live = world
              .liveNewestFirst(world.live.byAuthor.get(u))
              .filter((k) => replies || world.live.at(k)?.kind !== 'reply');
            return Int32Array.from([...live, ...world.visibleOnly(graphed)]);
          }),
        ),
        render: (k) => world.post(k),
      };
    },
    spaceDetail: ({ space_id }, { world, now }) => {
      const s = world.space(space_id);
      return s
        ? { data: { data: { audio_space_by_rest_id: world.spaceData(s, now) } }, volatile: true }
        : notFound('space', space_id);
    },
    usersByIds: ({ userIds }, { world }) => ({
      items: idList(userIds)
        .map((id) => world.lookupUser(id))
        .filter((u) => u !== null),
    }),
    trends: ({ woeid, count }, { world }) => {
      const trends = world.trendsOf(woeid ?? 1);
      return trends ? { items: trends.slice(0, count ?? 30) } : notFound('trends location (woeid)', woeid ?? 1);
    },
    listTimeline: ({ listId }, { world }) => {
      const list = world.list(listId);
      if (!list) return notFound('list', listId);
      const posts = cached(this.timelines, `list:${listId}`, () => {
        const all = list.members.flatMap((m) => Array.from(group(world.graph.byAuthor, m)));
        return Int32Array.from(all).sort();
      });
      if (!world.moved()) return { sequence: backward(posts), render: (k) => world.post(k) };
      return {
        sequence: forward(
          this.moving(`list:${listId}`, () => {
            const live = list.members.flatMap((m) => world.live.byAuthor.get(m) ?? []).sort((a, b) => a - b);
            return newestFirst(world, posts, live);
          }),
        ),
        render: (k) => world.post(k),
      };
    },
  } satisfies Handlers;

  /**
   * The announced community operations as the live service has been reported answering them
   * (`members-live`): a community's members or moderators, users drawn from the world by the
   * community's position (moderators are the first few).
   */
  readonly announced: Partial<
    Record<OperationId, (p: { community_id: string }, ctx: ViewContext) => Outcome<'communityMembers'>>
  > = {
    communityMembers: ({ community_id }, { world }) => this.communityPeople(world, community_id, false),
    communityModerators: ({ community_id }, { world }) => this.communityPeople(world, community_id, true),
  };

  private communityPeople(world: World, id: string, moderators: boolean): Outcome<'communityMembers'> {
    const c = world.community(id);
    if (!c) return notFound('community', id);
    const start = world.communities.indexOf(c) * 13;
    const n = Math.min(moderators ? Math.max(1, Math.min(c.moderators, 5)) : 45, world.users.length);
    const people = Int32Array.from({ length: n }, (_, k) => (start + k * 7) % world.users.length);
    return { sequence: forward(people), render: (u) => world.user(u, true) };
  }

  /** the conversation below post `root`, depth-first, siblings by `queryType`; the post itself first */
  thread(root: number, queryType: QueryType): Int32Array {
    if (this.world.moved()) return this.moving(`thread:${root}:${queryType}`, () => this.movingThread(root, queryType));
    return cached(this.threads, `${root}:${queryType}`, () => {
      const g = this.world.graph;
      const score = (i: number): number =>
        queryType === 'Latest'
          ? i
          : queryType === 'Likes'
            ? (g.likes[i] as number)
            : (g.likes[i] as number) +
              25 * group(g.replies, i).length +
              (this.world.users[g.author[i] as number]?.verified ? 100 : 0);
      const byScore = (a: number, b: number): number => score(b) - score(a) || a - b;
      const out: number[] = [root];
      const stack = Array.from(group(g.replies, root)).sort(byScore).reverse();
      while (stack.length) {
        const i = stack.pop() as number;
        out.push(i);
        const kids = group(g.replies, i);
        if (kids.length) stack.push(...Array.from(kids).sort(byScore).reverse());
      }
      return Int32Array.from(out);
    });
  }

  /** the thread of a world that has moved: the graph's replies that can be seen, and the live ones, ordered as `thread` does */
  private movingThread(root: number, queryType: QueryType): Int32Array {
    const world = this.world;
    const g = world.graph;
    const kids = (i: number): number[] => [
      ...(i < g.count ? Array.from(world.visibleOnly(group(g.replies, i))) : []),
      ...world.liveNewestFirst(world.live.repliesTo.get(i)),
    ];
    const score = (i: number): number => {
      if (queryType === 'Latest') return i;
      const likes = world.likesOf(i);
      if (queryType === 'Likes') return likes;
      return likes + 25 * kids(i).length + (this.world.users[world.authorOf(i)]?.verified ? 100 : 0);
    };
    const byScore = (a: number, b: number): number => score(b) - score(a) || a - b;
    const out: number[] = [root];
    const stack = kids(root).sort(byScore).reverse();
    while (stack.length) {
      const i = stack.pop() as number;
      out.push(i);
      const children = kids(i);
      if (children.length) stack.push(...children.sort(byScore).reverse());
    }
    return Int32Array.from(out);
  }

  /** users ranked by relevance: every word must match the handle, the name or the bio */
  search(query: string): Int32Array {
    const words = query.toLowerCase().replace(/@/g, ' ').split(/\s+/).filter(Boolean);
    return cached(this.searches, words.join(' '), () => {
      const scored: [number, number][] = [];
      for (const user of this.world.users) {
        const { handle, name, bio } = user.search;
        let total = 0;
        for (const w of words) {
          const s =
            handle === w
              ? 100
              : handle.startsWith(w)
                ? 60
                : handle.includes(w)
                  ? 40
                  : name.split(/\s+/).some((part) => part.startsWith(w))
                    ? 30
                    : name.includes(w)
                      ? 20
                      : bio.includes(w)
                        ? 10
                        : 0;
          if (s === 0) {
            total = 0;
            break;
          }
          total += s;
        }
        if (total > 0) scored.push([user.index, total]);
      }
      const users = this.world.users;
      scored.sort(
        (a, b) => b[1] - a[1] || (users[b[0]]?.followers ?? 0) - (users[a[0]]?.followers ?? 0) || a[0] - b[0],
      );
      return Int32Array.from(scored, (s) => s[0]);
    });
  }

  /** a user's posts, newest first; with parents, each replied-to post (once) just before its newest reply */
  timeline(u: number, includeReplies: boolean, includeParents: boolean): Int32Array {
    return cached(this.timelines, `user:${u}:${includeReplies}:${includeParents}`, () => {
      const g = this.world.graph;
      const mine = group(g.byAuthor, u);
      const out: number[] = [];
      const shown = new Set<number>(mine);
      for (let k = mine.length - 1; k >= 0; k--) {
        const i = mine[k] as number;
        const parent = g.parent[i] as number;
        if (parent >= 0 && !includeReplies) continue;
        if (includeParents && parent >= 0 && !shown.has(parent)) {
          shown.add(parent);
          out.push(parent);
        }
        out.push(i);
      }
      return Int32Array.from(out);
    });
  }
}
