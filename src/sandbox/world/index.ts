/**
 * The generated world: everything the sandbox answers from. Users, the post
 * graph, communities, lists, spaces and trends are built eagerly (well under
 * the 2 s budget at default size); post objects are drawn lazily and memoised.
 */
import type { DemoExamples } from '../../shared/ipc/app';
import type { CommunityData, SpecPost, Trend, User } from '../../shared/api';
import { countersTime, followersAt, liveCounters, membersAt, renderLivePost, staticCounters } from './counters';
import { buildCommunities, buildLists, renderCommunity, type CommunityRecord, type ListRecord } from './groups';
import { buildGraph, group, type PostGraph } from './graph';
import { AnyIds, type AnyIdsOptions } from './any-ids';
import { LRUCache } from 'lru-cache';
import { cached } from './lru';
import { renderUser, type PeopleContext } from './people';
import { PostRenderer } from './posts';
import type { WorldSize } from './size';
import { buildSpaces, renderSpace, type SpaceRecord } from './spaces';
import { HOUR_MS, LiveWorld, STILL_HOURS } from './live';
import { dayAnchor, sequenceOf, YEAR_MS } from './time';
import { buildTrends, trendsAt } from './trends';
import { buildUsers, type UserRecord } from './users';

export interface WorldOptions {
  seed: number;
  size: WorldSize;
  /** the sandbox clock when the world is built: anchors displayed times */
  now: number;
  /** answer batch lookups of ids the world never generated (hydration); absent: they are left out */
  anyIds?: AnyIdsOptions;
  /** how fast the world moves: new posts an hour relative to its own past (default 1) */
  activity?: number;
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
  /** the sandbox clock when the world was built: it moves from here (`live`) */
  readonly bornAt: number;
  /** what has happened since the start: new posts, deletions, suspensions (what watches find) */
  readonly live: LiveWorld;
  /**
   * The sandbox clock of the answer being made. The pipeline sets it (`setMoment`) before it draws an answer,
   * synchronously, so every post and user in one answer is drawn at the same time.
   */
  private moment: number;
  private readonly handles = new Map<string, number>();
  private readonly communityIndex: Map<string, CommunityRecord>;
  private readonly listIndex: Map<string, ListRecord>;
  private readonly spaceIndex: Map<string, SpaceRecord>;
  private readonly posts = new LRUCache<number, SpecPost>({ max: 6_000 });
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
    this.bornAt = opts.now;
    this.moment = opts.now;
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
      statusesCount: (u) => group(g.byAuthor, u).length + this.before(u),
    };
    const showcaseAuthors = [g.bigThreadRoot, g.muchQuoted, this.articlePost].map((i) => g.author[i] as number);
    this.live = new LiveWorld({
      seed: this.seed,
      bornAt: this.bornAt,
      anchor: this.anchor,
      graph: g,
      users: this.users.length,
      followers: (u) => this.users[u]?.followers ?? 0,
      postsPerHour: (this.size.posts / 8760) * (opts.activity ?? 1),
      protectedPosts: new Set([
        g.bigThreadRoot,
        g.muchQuoted,
        this.articlePost,
        ...(byAuthor0.length ? [byAuthor0[byAuthor0.length - 1] as number] : []),
        ...this.users.map((u) => u.pinned).filter((i) => i >= 0),
      ]),
      protectedUsers: new Set([0, 1, ...showcaseAuthors, ...this.spaces.map((s) => s.creator)]),
    });
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

  /* ------------------------------------------------------------- time */

  /** Sets the time the next answer is drawn at (the pipeline, before each answer) and draws the hours up to it. */
  setMoment(now: number): void {
    this.moment = now;
    this.live.advanceTo(now);
  }

  /** whether anything has changed since the start, at the moment */
  moved(): boolean {
    return this.live.hourOf(this.moment) >= STILL_HOURS || this.live.eventsUpTo(this.moment) > 0;
  }

  /** a key that changes whenever an answer could (counters move by the hour, events when they happen) */
  stateKey(): string {
    if (!this.moved()) return 'still';
    return `${Math.floor((this.moment - this.bornAt) / HOUR_MS)}:${this.live.eventsUpTo(this.moment)}`;
  }

  /** whether a post (static or live) can be seen at the moment */
  visible(index: number): boolean {
    return this.live.visible(index, this.moment);
  }

  /** the posts of a sequence that can be seen at the moment (the same array while nothing has changed) */
  visibleOnly(indices: Int32Array): Int32Array {
    if (this.live.deletedAt.size === 0 && this.live.suspendedAt.size === 0) return indices;
    return indices.filter((i) => this.live.visible(i, this.moment));
  }

  /** live posts (by world index) of a group, visible at the moment, newest first */
  liveNewestFirst(ordinals: readonly number[] | undefined): number[] {
    return this.live.visibleNewestFirst(ordinals, this.moment);
  }

  /* ------------------------------------------------------------ lookups */

  /** post index of an id (live posts too), or -1; a post that cannot be seen at the moment is -1 */
  postIndex(id: string): number {
    const i = sequenceOf(id);
    if (i >= 0 && i < this.graph.count && this.graph.ids[i] === id) return this.visible(i) ? i : -1;
    const live = this.live.byId(id, this.moment);
    if (!live) return -1;
    const index = this.live.indexOf(live);
    return this.visible(index) ? index : -1;
  }

  /** user index of an id, or -1 (a suspended account too) */
  userIndex(id: string): number {
    const u = sequenceOf(id);
    return u >= 0 && u < this.users.length && this.users[u]?.id === id && !this.live.suspended(u, this.moment) ? u : -1;
  }

  /**
   * A batch lookup's post: the world's, or (with `anyIds`) one drawn for a foreign id unless that id is in
   * the stable not-found share; null when left out. Foreign posts are not memoised.
   */
  lookupPost(id: string): SpecPost | null {
    const i = this.postIndex(id);
    if (i >= 0) return this.post(i);
    if (this.isWorldId(id)) return null;
    if (!this.anyIds || this.anyIds.missing(id)) return null;
    return this.anyIds.post(id, this.post(this.anyIds.postSource(id, this.graph.count)));
  }

  /** A batch lookup's user, as `lookupPost`. */
  lookupUser(id: string): User | null {
    const u = this.userIndex(id);
    if (u >= 0) return this.user(u, true);
    const known = sequenceOf(id);
    if (known >= 0 && known < this.users.length && this.users[known]?.id === id) return null;
    if (!this.anyIds || this.anyIds.missing(id)) return null;
    return this.anyIds.user(id, this.user(this.anyIds.userSource(id, this.users.length), true));
  }

  /** user index of a handle (case-insensitive, optional leading @), or -1 (a suspended account too) */
  userByName(name: string): number {
    const u = this.handles.get(name.replace(/^@/, '').toLowerCase()) ?? -1;
    return u >= 0 && this.live.suspended(u, this.moment) ? -1 : u;
  }

  /** an id the world made (a post of the graph, or a live one, deleted or not): never answered by `anyIds` */
  private isWorldId(id: string): boolean {
    const i = sequenceOf(id);
    if (i >= 0 && i < this.graph.count && this.graph.ids[i] === id) return true;
    return this.live.byId(id, Number.MAX_SAFE_INTEGER) !== null;
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

  post(i: number): SpecPost {
    return this.atMoment(i, this.base(i, 0));
  }

  /** a post as it was drawn (static: by the renderer; live: its text), before the moment's counters */
  private base(i: number, depth: number): SpecPost {
    const live = this.live.at(i);
    if (live)
      return cached(this.posts, i * 4 + depth, () =>
        renderLivePost(
          {
            seed: this.seed,
            anchor: this.anchor,
            users: this.users,
            author: (u) => this.user(u, false),
            nested: (q, d) => (d > 2 ? null : this.nested(q, d)),
            idOf: (k) => this.idOf(k),
            authorOf: (k) => this.authorOf(k),
            conversationOf: (k) => this.conversationOf(k),
          },
          live,
          depth,
        ),
      );
    return depth === 0
      ? cached(this.posts, i * 4, () =>
          this.withArticle(
            i,
            this.renderer.render(i, 0, (q, d) => this.nested(q, d)),
          ),
        )
      : cached(this.posts, i * 4 + depth, () =>
          this.withArticle(
            i,
            this.renderer.render(i, depth, (q, d) => this.nested(q, d)),
          ),
        );
  }

  /** a drawn post with the moment's counters (unchanged while the world has not moved) */
  private atMoment(i: number, base: SpecPost): SpecPost {
    if (!this.moved()) return base;
    const at = countersTime(this.bornAt, this.moment);
    const live = this.live.at(i);
    const counters = live
      ? liveCounters(this.seed, live, at)
      : staticCounters(base, this.anchor - (this.graph.age[i] as number), this.bornAt, at);
    return {
      ...base,
      ...counters,
      replyCount: this.countVisible(
        i < this.graph.count ? group(this.graph.replies, i) : null,
        this.live.repliesTo.get(i),
      ),
      quoteCount: this.countVisible(
        i < this.graph.count ? group(this.graph.quotes, i) : null,
        this.live.quotesOf.get(i),
      ),
      author: this.user(this.authorOf(i), false),
    };
  }

  /** replies or quotes that can be seen at the moment: those of the graph and the live ones */
  private countVisible(graphed: Int32Array | null, live: readonly number[] | undefined): number {
    let n = 0;
    if (graphed) {
      if (this.live.deletedAt.size === 0 && this.live.suspendedAt.size === 0) n = graphed.length;
      else for (const k of graphed) if (this.visible(k)) n++;
    }
    for (const o of live ?? []) if (this.visible(this.graph.count + o)) n++;
    return n;
  }

  idOf(i: number): string {
    return this.live.at(i)?.id ?? (this.graph.ids[i] as string);
  }

  authorOf(i: number): number {
    return this.live.at(i)?.author ?? (this.graph.author[i] as number);
  }

  /** the id of the post a conversation started with */
  conversationOf(i: number): string {
    let k = i;
    for (let live = this.live.at(k); live && live.parent >= 0; live = this.live.at(k)) k = live.parent;
    return this.live.at(k) ? this.idOf(k) : (this.graph.ids[this.graph.root[k] as number] as string);
  }

  /** likes at the moment (the thread's ordering) */
  likesOf(i: number): number {
    return this.post(i).likeCount;
  }

  /**
   * The example media post carries a long-form article (the live service's `article` object); every
   * other post carries none, so "Open article" is offered only there.
   */
  private withArticle(i: number, post: SpecPost): SpecPost {
    if (i !== this.articlePost) return post;
    return {
      ...post,
      article: { id: post.id, title: 'Notes from the field: a long read', preview_text: post.text.slice(0, 120) },
    };
  }

  private nested(i: number, depth: number): SpecPost {
    return this.base(i, depth);
  }

  /** `withStatuses`: statusesCount is an integer (search, lookups), else null (post authors) */
  user(u: number, withStatuses: boolean): User {
    const cache = withStatuses ? this.full : this.embedded;
    const base = (cache[u] ??= renderUser(this.people, this.users[u] as UserRecord, withStatuses));
    if (!this.moved()) return base;
    const record = this.users[u] as UserRecord;
    const followers = followersAt(this.seed, record, this.bornAt, countersTime(this.bornAt, this.moment));
    return {
      ...base,
      followers,
      ...(withStatuses ? { statusesCount: this.statusesCount(u) } : {}),
    };
  }

  /**
   * The posts an account made before the generated year, at that year's pace: the live count covers an account's
   * whole life, while its timeline pages back only so far (the generated year here), and a count of one year's
   * posts over a life of up to fourteen would make its lifetime average a fraction of how it posts.
   */
  private before(u: number): number {
    const record = this.users[u];
    if (!record) return 0;
    return Math.round((group(this.graph.byAuthor, u).length * Math.max(0, record.ageMs - YEAR_MS)) / YEAR_MS);
  }

  /** the posts an account has at the moment: those before the generated year, its posts of the graph not deleted, and its live ones */
  private statusesCount(u: number): number {
    const mine = group(this.graph.byAuthor, u);
    let n = mine.length + this.before(u);
    if (this.live.deletedAt.size > 0) for (const i of mine) if (!this.visible(i)) n--;
    for (const o of this.live.byAuthor.get(u) ?? []) if (this.visible(this.graph.count + o)) n++;
    return n;
  }

  communityData(c: CommunityRecord): CommunityData {
    const data = renderCommunity(this.seed, this.origin, this.anchor, c);
    if (!this.moved()) return data;
    const result = data.data.community_results_by_rest_id.result;
    const members = membersAt(this.seed, c.members, c.id, this.bornAt, countersTime(this.bornAt, this.moment));
    return {
      data: {
        community_results_by_rest_id: {
          ...data.data.community_results_by_rest_id,
          result: { ...result, member_count: members },
        },
      },
    };
  }

  /** a place's trends at the moment: their order shifts by the hour */
  trendsOf(woeid: number): Trend[] | undefined {
    const list = this.trends.get(woeid);
    if (!list || !this.moved()) return list;
    return trendsAt(this.seed, woeid, list, Math.floor((this.moment - this.bornAt) / HOUR_MS));
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
