/**
 * The generated world: everything the sandbox answers from. Users, the post
 * graph, communities, lists, spaces and trends are built eagerly (well under
 * the 2 s budget at default size); post objects are drawn lazily and memoised.
 */
import type { DemoExamples } from '../../shared/ipc/app';
import type { CommunityData, Post, Trend, User } from '../../shared/api';
import { buildCommunities, buildLists, renderCommunity, type CommunityRecord, type ListRecord } from './groups';
import { buildGraph, group, type PostGraph } from './graph';
import { AnyIds, type AnyIdsOptions } from './any-ids';
import { LRUCache } from 'lru-cache';
import { cached } from './lru';
import { renderUser, type PeopleContext } from './people';
import { PostRenderer } from './posts';
import type { WorldSize } from './size';
import { buildSpaces, renderSpace, type SpaceRecord } from './spaces';
import { dayAnchor, sequenceOf } from './time';
import { buildTrends } from './trends';
import { buildUsers, type UserRecord } from './users';

export interface WorldOptions {
  seed: number;
  size: WorldSize;
  /** the sandbox clock when the world is built: anchors displayed times */
  now: number;
  /** answer batch lookups of ids the world never generated (hydration); absent: they are left out */
  anyIds?: AnyIdsOptions;
}

export class World {
  readonly seed: number;
  readonly size: WorldSize;
  /** displayed times are `anchor - age` */
  readonly anchor: number;
  readonly users: UserRecord[];
  readonly graph: PostGraph;
  readonly communities: CommunityRecord[];
  readonly lists: ListRecord[];
  readonly spaces: SpaceRecord[];
  readonly trends: Map<number, Trend[]>;
  readonly examples: DemoExamples;
  /** time the eager part took, ms */
  readonly buildMs: number;
  /** the server's own origin, used in media URLs; set once it listens */
  origin = 'http://127.0.0.1';
  private readonly handles = new Map<string, number>();
  private readonly communityIndex: Map<string, CommunityRecord>;
  private readonly listIndex: Map<string, ListRecord>;
  private readonly spaceIndex: Map<string, SpaceRecord>;
  private readonly posts = new LRUCache<number, Post>({ max: 6_000 });
  private readonly embedded: (User | undefined)[] = [];
  private readonly full: (User | undefined)[] = [];
  private readonly renderer: PostRenderer;
  private readonly people: PeopleContext;
  private articlePost = -1;
  private readonly anyIds: AnyIds | null;

  constructor(opts: WorldOptions) {
    const started = performance.now();
    this.seed = opts.seed;
    this.size = opts.size;
    this.anchor = dayAnchor(opts.now);
    this.anyIds = opts.anyIds ? new AnyIds(opts.seed, opts.anyIds) : null;
    this.users = buildUsers(this.seed, this.size.users);
    for (const u of this.users) this.handles.set(u.userName.toLowerCase(), u.index);
    const followers = Int32Array.from(this.users, (u) => u.followers);
    this.graph = buildGraph(this.seed, this.size, followers);
    this.pinPosts();
    const g = this.graph;
    const postCount = (u: number): number => group(g.byAuthor, u).length;
    const active = this.users.map((u) => u.index).sort((a, b) => postCount(b) - postCount(a) || a - b);
    this.communities = buildCommunities(this.seed, this.size.communities);
    this.lists = buildLists(this.seed, this.size.lists, this.size.users, active);
    this.spaces = buildSpaces(this.seed, this.size.spaces, opts.now, this.size.users, (u) => this.newestOriginal(u));
    this.trends = buildTrends(this.seed);
    this.communityIndex = new Map(this.communities.map((c) => [c.id, c]));
    this.listIndex = new Map(this.lists.map((l) => [l.id, l]));
    this.spaceIndex = new Map(this.spaces.map((s) => [s.id, s]));
    const profile = this.users[0] as UserRecord;
    this.examples = {
      bigThreadPostId: g.ids[g.bigThreadRoot] as string,
      wideThreadPostId: g.ids[g.wideThreadRoot] as string,
      muchQuotedPostId: g.ids[g.muchQuoted] as string,
      mediaPostId: g.ids[(this.articlePost = this.mediaPost())] as string,
      profile: { id: profile.id, userName: profile.userName },
      communityId: (this.communities[0] as CommunityRecord).id,
      listId: (this.lists[0] as ListRecord).id,
      listName: (this.lists[0] as ListRecord).name,
      runningSpaceId: (this.spaces.find((s) => s.state === 'Running') as SpaceRecord).id,
      endedSpaceId: (this.spaces.find((s) => s.state === 'Ended') as SpaceRecord).id,
      scheduledSpaceId: (this.spaces.find((s) => s.state === 'NotStarted') as SpaceRecord).id,
    };
    const byAuthor0 = group(g.byAuthor, 0);
    this.people = {
      origin: () => this.origin,
      anchor: this.anchor,
      seed: this.seed,
      users: this.users,
      postIds: g.ids,
      statusesCount: (u) => group(g.byAuthor, u).length,
    };
    this.renderer = new PostRenderer({
      seed: this.seed,
      anchor: this.anchor,
      origin: () => this.origin,
      graph: g,
      users: this.users,
      author: (u) => this.user(u, false),
      markupPost: byAuthor0.length ? (byAuthor0[byAuthor0.length - 1] as number) : -1,
    });
    this.buildMs = performance.now() - started;
  }

  /* ------------------------------------------------------------ lookups */

  /** post index of an id, or -1 */
  postIndex(id: string): number {
    const i = sequenceOf(id);
    return i >= 0 && i < this.graph.count && this.graph.ids[i] === id ? i : -1;
  }

  /** user index of an id, or -1 */
  userIndex(id: string): number {
    const u = sequenceOf(id);
    return u >= 0 && u < this.users.length && this.users[u]?.id === id ? u : -1;
  }

  /**
   * A batch lookup's post: the world's, or (with `anyIds`) one drawn for a foreign id unless that id is in
   * the stable not-found share; null when left out. Foreign posts are not memoised.
   */
  lookupPost(id: string): Post | null {
    const i = this.postIndex(id);
    if (i >= 0) return this.post(i);
    if (!this.anyIds || this.anyIds.missing(id)) return null;
    return this.anyIds.post(id, this.post(this.anyIds.postSource(id, this.graph.count)));
  }

  /** A batch lookup's user, as `lookupPost`. */
  lookupUser(id: string): User | null {
    const u = this.userIndex(id);
    if (u >= 0) return this.user(u, true);
    if (!this.anyIds || this.anyIds.missing(id)) return null;
    return this.anyIds.user(id, this.user(this.anyIds.userSource(id, this.users.length), true));
  }

  /** user index of a handle (case-insensitive, optional leading @), or -1 */
  userByName(name: string): number {
    return this.handles.get(name.replace(/^@/, '').toLowerCase()) ?? -1;
  }

  community(id: string): CommunityRecord | undefined {
    return this.communityIndex.get(id);
  }

  list(id: string): ListRecord | undefined {
    return this.listIndex.get(id);
  }

  space(id: string): SpaceRecord | undefined {
    return this.spaceIndex.get(id);
  }

  /* ---------------------------------------------------------- rendering */

  post(i: number): Post {
    return cached(this.posts, i * 4, () =>
      this.withArticle(
        i,
        this.renderer.render(i, 0, (q, depth) => this.nested(q, depth)),
      ),
    );
  }

  /**
   * The example media post carries a long-form article (the live service's `article` object); every
   * other post carries none, so "Open article" is offered only there.
   */
  private withArticle(i: number, post: Post): Post {
    if (i !== this.articlePost) return post;
    return {
      ...post,
      article: { id: post.id, title: 'Notes from the field: a long read', preview_text: post.text.slice(0, 120) },
    };
  }

  private nested(i: number, depth: number): Post {
    return cached(this.posts, i * 4 + depth, () =>
      this.withArticle(
        i,
        this.renderer.render(i, depth, (q, d) => this.nested(q, d)),
      ),
    );
  }

  /** `withStatuses`: statusesCount is an integer (search, lookups), else null (post authors) */
  user(u: number, withStatuses: boolean): User {
    const cache = withStatuses ? this.full : this.embedded;
    return (cache[u] ??= renderUser(this.people, this.users[u] as UserRecord, withStatuses));
  }

  communityData(c: CommunityRecord): CommunityData {
    return renderCommunity(this.seed, this.origin, this.anchor, c);
  }

  spaceData(s: SpaceRecord, now: number): ReturnType<typeof renderSpace> {
    return renderSpace(this.people, s, now);
  }

  /* ------------------------------------------------------------ helpers */

  /** pin each user's most-liked original post (every user of a third, and user 0) */
  private pinPosts(): void {
    const g = this.graph;
    for (const user of this.users) {
      if (user.index !== 0 && (user.index * 7919 + this.seed) % 3 !== 0) continue;
      let best = -1;
      for (const i of group(g.byAuthor, user.index)) {
        if (g.parent[i] === -1 && (best < 0 || (g.likes[i] as number) > (g.likes[best] as number))) best = i;
      }
      user.pinned = best;
    }
  }

  private newestOriginal(u: number): number {
    const g = this.graph;
    const mine = group(g.byAuthor, u);
    for (let k = mine.length - 1; k >= 0; k--) if (g.parent[mine[k] as number] === -1) return mine[k] as number;
    return g.bigThreadRoot;
  }

  /** the profile's newest post with media, else the newest post with media */
  private mediaPost(): number {
    const g = this.graph;
    const mine = group(g.byAuthor, 0);
    for (let k = mine.length - 1; k >= 0; k--) if ((g.media[mine[k] as number] as number) > 0) return mine[k] as number;
    for (let i = g.count - 1; i >= 0; i--) if ((g.media[i] as number) > 0) return i;
    return g.muchQuoted;
  }
}
