/**
 * The world moves on the sandbox clock, so watches have something to find in demo mode: after a still first
 * hour, every hour brings new posts (originals, replies, quotes, authors drawn as the world's own are: a few
 * accounts post most), some posts are deleted (a share of the new ones, and now and then a recent one), an
 * account is suspended now and then, and counters grow (`counters.ts`). What hour k brings is drawn from a
 * stream keyed by (seed, 'live', k), k counted from the sandbox's start: the same seed gives the same
 * history, and a test that moves the clock by three days sees the same three days every time.
 *
 * Hours are drawn in order, once, when the clock first reaches them. A live post's world index is
 * `graph.count + ordinal` (its place among live posts); its id is made like the world's own (the virtual
 * epoch plus its offset from the anchor), with bit 21 of the sequence set, so it never collides with a
 * post of the graph and is found again from the id alone.
 */
import { Rng } from '../random';
import type { PostGraph } from './graph';
import { LANGS } from './text';
import { snowflake, snowflakeOffset } from './time';

export const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** the first hour after the start is still: a short session (and every test that keeps the clock) sees the world as built */
export const STILL_HOURS = 1;
/** the sequence bit that marks a live post's id */
const LIVE_BIT = 1 << 21;
const MAX_PER_HOUR = 63;
/** a recent post (a reply's or a quote's target, or a deletion) is one of this many newest posts */
const RECENT_STATIC = 2_000;
/** static posts deleted are among those younger than this at the start */
const DELETABLE_AGE_MS = 3 * 24 * HOUR_MS;

export type LiveKind = 'original' | 'reply' | 'quote';

export interface LivePost {
  /** place among live posts, in creation order */
  ordinal: number;
  hour: number;
  /** place within its hour */
  slot: number;
  id: string;
  /** creation time, epoch ms (sandbox clock) */
  at: number;
  author: number;
  kind: LiveKind;
  /** world index of the post it replies to, or -1 */
  parent: number;
  /** world index of the post it quotes, or -1 */
  quoted: number;
  /** a user named in the text besides the reply's addressee, or -1 */
  mention: number;
  /** the likes it gathers in the end (counters.ts grows toward it) */
  likesFinal: number;
  lang: number;
  /** when it is deleted, or null */
  deleteAt: number | null;
}

export interface LiveContext {
  seed: number;
  /** the sandbox clock when the world was built */
  bornAt: number;
  /** displayed times and ids are counted from this (the start floored to the UTC day) */
  anchor: number;
  graph: PostGraph;
  users: number;
  followers: (user: number) => number;
  /** new posts an hour, on average (the world's own rate: its posts over a year) */
  postsPerHour: number;
  /** posts never deleted and users never suspended (the showcase of demo Home) */
  protectedPosts: ReadonlySet<number>;
  protectedUsers: ReadonlySet<number>;
}

function poisson(rng: Rng, lambda: number): number {
  // Knuth's method: fine for the small rates an hour has
  const limit = Math.exp(-lambda);
  let k = 0;
  let p = rng.next();
  while (p > limit && k < MAX_PER_HOUR) {
    k++;
    p *= rng.next();
  }
  return k;
}

export class LiveWorld {
  /** live posts, in creation order */
  readonly posts: LivePost[] = [];
  /** hours drawn so far (hour k's posts are `posts[hourStart[k] .. hourStart[k+1])`) */
  private readonly hourStart: number[] = [];
  private drawn = 0;
  /** every event time so far (creations, deletions, suspensions), sorted: how far the world has moved */
  private readonly eventTimes: number[] = [];
  readonly deletedAt = new Map<number, number>();
  readonly suspendedAt = new Map<number, number>();
  /** when a suspension is lifted (half of them are, after one to five days): the account and its posts come back */
  readonly liftedAt = new Map<number, number>();
  readonly byAuthor = new Map<number, number[]>();
  readonly repliesTo = new Map<number, number[]>();
  readonly quotesOf = new Map<number, number[]>();
  readonly mentionsOf = new Map<number, number[]>();
  private readonly deletableFrom: number;

  constructor(private readonly ctx: LiveContext) {
    const g = ctx.graph;
    if (g.count >= LIVE_BIT) throw new Error('the world is too large for live posts');
    // static posts young enough to be deleted: the newest ones, created within DELETABLE_AGE_MS of the start
    let i = g.count;
    while (i > 0 && ctx.bornAt - (ctx.anchor - (g.age[i - 1] as number)) < DELETABLE_AGE_MS) i--;
    this.deletableFrom = Math.max(i, g.count - RECENT_STATIC);
  }

  /** the hour (from the start) a time falls in; negative before the start */
  hourOf(t: number): number {
    return Math.floor((t - this.ctx.bornAt) / HOUR_MS);
  }

  /** draws every hour up to the one `now` falls in */
  advanceTo(now: number): void {
    const last = this.hourOf(now);
    while (this.drawn <= last) this.drawHour(this.drawn++);
  }

  /** live events at or before `now`: a number that changes whenever the world does */
  eventsUpTo(now: number): number {
    const t = this.eventTimes;
    let lo = 0;
    let hi = t.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((t[mid] as number) <= now) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** the live post with this id, or null (drawn when its hour is reached) */
  byId(id: string, now: number): LivePost | null {
    if (!/^\d{1,20}$/.test(id)) return null;
    const n = BigInt(id);
    const seq = Number(n & 0x3fffffn);
    if ((seq & LIVE_BIT) === 0) return null;
    const at = snowflakeOffset(id) + this.ctx.anchor;
    if (at > now) return null;
    const hour = this.hourOf(at);
    if (hour < STILL_HOURS || (hour & 0x7fff) !== (seq >> 6) % 0x8000) return null;
    this.advanceTo(at);
    const start = this.hourStart[hour];
    if (start === undefined) return null;
    const post = this.posts[start + (seq & 63)];
    return post && post.hour === hour && post.id === id ? post : null;
  }

  /** the post's world index */
  indexOf(post: LivePost): number {
    return this.ctx.graph.count + post.ordinal;
  }

  /** the live post at a world index, or undefined for a static one */
  at(index: number): LivePost | undefined {
    return index >= this.ctx.graph.count ? this.posts[index - this.ctx.graph.count] : undefined;
  }

  /** whether a post (static or live) can be seen at `now`: created, not deleted, its author not suspended */
  visible(index: number, now: number): boolean {
    const live = this.at(index);
    const author = live ? live.author : (this.ctx.graph.author[index] as number);
    if (live) {
      if (live.at > now) return false;
      if (live.deleteAt !== null && live.deleteAt <= now) return false;
    } else {
      const deleted = this.deletedAt.get(index);
      if (deleted !== undefined && deleted <= now) return false;
    }
    return !this.suspended(author, now);
  }

  suspended(user: number, now: number): boolean {
    const at = this.suspendedAt.get(user);
    if (at === undefined || at > now) return false;
    const lifted = this.liftedAt.get(user);
    return lifted === undefined || lifted > now;
  }

  /** live posts of a list (by world index), visible at `now`, newest first */
  visibleNewestFirst(ordinals: readonly number[] | undefined, now: number): number[] {
    const out: number[] = [];
    if (!ordinals) return out;
    for (let k = ordinals.length - 1; k >= 0; k--) {
      const index = this.ctx.graph.count + (ordinals[k] as number);
      if (this.visible(index, now)) out.push(index);
    }
    return out;
  }

  /** what happened in (from, to]: new posts, deletions (live and static), suspensions */
  changes(
    from: number,
    to: number,
  ): {
    posts: LivePost[];
    deletions: Array<{ index: number; at: number }>;
    suspensions: Array<{ user: number; at: number; liftedAt: number | null }>;
  } {
    this.advanceTo(to);
    const posts = this.posts.filter((p) => p.at > from && p.at <= to);
    const deletions: Array<{ index: number; at: number }> = [];
    for (const p of this.posts)
      if (p.deleteAt !== null && p.deleteAt > from && p.deleteAt <= to)
        deletions.push({ index: this.indexOf(p), at: p.deleteAt });
    for (const [index, at] of this.deletedAt) if (at > from && at <= to) deletions.push({ index, at });
    deletions.sort((a, b) => a.at - b.at || a.index - b.index);
    const suspensions = [...this.suspendedAt]
      .filter(([, at]) => at > from && at <= to)
      .map(([user, at]) => ({ user, at, liftedAt: this.liftedAt.get(user) ?? null }))
      .sort((a, b) => a.at - b.at);
    return { posts, deletions, suspensions };
  }

  private drawHour(hour: number): void {
    this.hourStart[hour] = this.posts.length;
    if (hour < STILL_HOURS) return;
    const { ctx } = this;
    const g = ctx.graph;
    const rng = new Rng(ctx.seed, 'live', hour);
    const start = ctx.bornAt + hour * HOUR_MS;
    const times: number[] = [];
    const n = poisson(rng, ctx.postsPerHour);
    for (let j = 0; j < n; j++) times.push(start + 1 + rng.int(HOUR_MS - 1));
    times.sort((a, b) => a - b);
    const author = (): number => Math.floor(ctx.users * rng.next() ** 2);
    /** a recent post to answer or quote: one of the last live posts, or one of the newest static ones */
    const recent = (): number => {
      const live = this.posts.length;
      if (live > 0 && rng.chance(0.5)) return g.count + live - 1 - rng.int(Math.min(live, 30));
      return g.count - 1 - Math.floor(rng.next() ** 2 * Math.min(g.count, RECENT_STATIC));
    };
    const events: number[] = [];
    times.forEach((at, slot) => {
      let who = author();
      if (this.suspended(who, at)) who = (who + 1) % ctx.users;
      const r = rng.next();
      let kind: LiveKind = 'original';
      let parent = -1;
      let quoted = -1;
      if (r < 0.05) {
        kind = 'reply';
        parent = g.bigThreadRoot;
      } else if (r < 0.22) {
        kind = 'reply';
        parent = recent();
      } else if (r < 0.25) {
        kind = 'quote';
        quoted = g.muchQuoted;
      } else if (r < 0.32) {
        kind = 'quote';
        quoted = recent();
      }
      const mention = rng.chance(0.1) ? (who + 1 + Math.floor(ctx.users * rng.next() ** 2)) % ctx.users : -1;
      const likesFinal = rng.heavy(2 + ctx.followers(who) / 1500, 1.3);
      const lang = rng.chance(0.85) ? 0 : 1 + rng.int(LANGS.length - 1);
      const deleteAt = rng.chance(0.05) ? at + HOUR_MS + rng.int(30 * HOUR_MS) : null;
      const ordinal = this.posts.length;
      const post: LivePost = {
        ordinal,
        hour,
        slot,
        id: snowflake(ctx.anchor - at, LIVE_BIT | ((hour & 0x7fff) << 6) | slot),
        at,
        author: who,
        kind,
        parent,
        quoted,
        mention,
        likesFinal,
        lang,
        deleteAt,
      };
      this.posts.push(post);
      push(this.byAuthor, who, ordinal);
      if (parent >= 0) push(this.repliesTo, parent, ordinal);
      if (quoted >= 0) push(this.quotesOf, quoted, ordinal);
      const addressee = parent >= 0 ? this.authorOf(parent) : -1;
      if (addressee >= 0 && addressee !== who) push(this.mentionsOf, addressee, ordinal);
      if (mention >= 0 && mention !== addressee && mention !== who) push(this.mentionsOf, mention, ordinal);
      events.push(at);
      if (deleteAt !== null) events.push(deleteAt);
    });
    // now and then a recent post of the graph is deleted, and an account suspended
    if (rng.chance(0.5) && this.deletableFrom < g.count) {
      const index = g.count - 1 - Math.floor(rng.next() ** 1.5 * (g.count - this.deletableFrom));
      const at = start + rng.int(HOUR_MS);
      if (!ctx.protectedPosts.has(index) && !this.deletedAt.has(index)) {
        this.deletedAt.set(index, at);
        events.push(at);
      }
    }
    if (rng.chance(0.04)) {
      const user = rng.int(ctx.users);
      const at = start + rng.int(HOUR_MS);
      const lifted = rng.chance(0.5) ? at + DAY_MS + rng.int(4 * DAY_MS) : null;
      if (!ctx.protectedUsers.has(user) && !this.suspendedAt.has(user)) {
        this.suspendedAt.set(user, at);
        events.push(at);
        if (lifted !== null) {
          this.liftedAt.set(user, lifted);
          events.push(lifted);
        }
      }
    }
    // event times stay sorted: every event of this hour comes after every earlier hour's creations; a deletion
    // drawn for a later hour is inserted where it belongs
    for (const t of events) insertSorted(this.eventTimes, t);
  }

  private authorOf(index: number): number {
    const live = this.at(index);
    return live ? live.author : (this.ctx.graph.author[index] as number);
  }
}

function push(map: Map<number, number[]>, key: number, value: number): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

function insertSorted(list: number[], value: number): void {
  let i = list.length;
  while (i > 0 && (list[i - 1] as number) > value) i--;
  list.splice(i, 0, value);
}
