/**
 * Counters that grow with the sandbox clock (what a watch records over time), and live posts as the API shows
 * them. A post's likes grow toward their final number as it ages (fast in its first day, hardly after), its
 * reposts, bookmarks and views with them; its reply and quote counts are exactly the replies and quotes that
 * can be seen now. Accounts gain followers and count the posts they have now. Counters move in whole hours
 * from the start (the still first hour shows the world as built), so every answer within an hour agrees.
 */
import type { SpecPost, User } from '../../shared/api';
import { unit } from '../random';
import { HOUR_MS, STILL_HOURS, type LivePost } from './live';
import { EMOJI, LANGS, PHRASES, TextBuilder, TOPICS, type Indices } from './text';
import { formatCreatedAt } from './time';
import type { UserRecord } from './users';

/** likes reach about 63 % of their final number in this time */
const GROWTH_MS = 18 * HOUR_MS;
const DAY_MS = 24 * HOUR_MS;

const grown = (ageMs: number): number => (ageMs <= 0 ? 0 : 1 - Math.exp(-ageMs / GROWTH_MS));

/** the time counters are drawn at: `now` floored to a whole hour from the start (the start itself in the still hour) */
export function countersTime(bornAt: number, now: number): number {
  const hour = Math.floor((now - bornAt) / HOUR_MS);
  return hour < STILL_HOURS ? bornAt : bornAt + hour * HOUR_MS;
}

export interface PostCounters {
  likeCount: number;
  retweetCount: number;
  bookmarkCount: number;
  viewCount: string | null;
}

/** A post of the graph at `at` (countersTime): its likes grown since the start, the rest in proportion. */
export function staticCounters(base: SpecPost, createdAt: number, bornAt: number, at: number): PostCounters {
  const likes0 = base.likeCount;
  const extra = Math.floor(likes0 * 0.6 * Math.max(0, grown(at - createdAt) - grown(bornAt - createdAt)));
  if (extra === 0)
    return {
      likeCount: likes0,
      retweetCount: base.retweetCount,
      bookmarkCount: base.bookmarkCount,
      viewCount: base.viewCount ?? null,
    };
  const views =
    base.viewCount === null || base.viewCount === undefined ? null : String(Number(base.viewCount) + extra * 40);
  return {
    likeCount: likes0 + extra,
    retweetCount: base.retweetCount + Math.floor(extra * 0.2),
    bookmarkCount: base.bookmarkCount + Math.floor(extra * 0.04),
    viewCount: views,
  };
}

export function liveCounters(seed: number, p: LivePost, at: number): PostCounters {
  const age = at - p.at;
  const likes = Math.floor(p.likesFinal * grown(age));
  return {
    likeCount: likes,
    retweetCount: Math.floor(likes * 0.3 * unit(seed, 'live-rt', p.ordinal)),
    bookmarkCount: Math.floor(likes * 0.05 * unit(seed, 'live-bm', p.ordinal)),
    viewCount: String(likes * 40 + Math.max(0, Math.floor(age / 60_000))),
  };
}

/** followers at `at`: about 1 % more a day, each account at its own pace */
export function followersAt(seed: number, u: UserRecord, bornAt: number, at: number): number {
  const days = (at - bornAt) / DAY_MS;
  return u.followers + Math.floor(u.followers * 0.01 * days * (0.5 + unit(seed, 'followers', u.index)));
}

/** a community's members at `at`: about half a percent more a day */
export function membersAt(seed: number, members: number, id: string, bornAt: number, at: number): number {
  const days = (at - bornAt) / DAY_MS;
  return members + Math.floor(members * 0.005 * days * (0.5 + unit(seed, 'members', id)));
}

const OPENERS = ['New post:', 'Quick update:', 'Thinking about', 'Reading about', 'Notes on', 'Today:', 'Hot take on'];
const CLOSERS = ['More soon.', 'Thoughts?', 'Worth a look.', 'Thread below.', 'Can confirm.', ''];

export interface LiveRenderContext {
  seed: number;
  anchor: number;
  users: readonly UserRecord[];
  /** the embedded author object at the time */
  author: (user: number) => User;
  /** a post by world index, at a quote depth (null beyond the deepest level) */
  nested: (index: number, depth: number) => SpecPost | null;
  /** the id, author and conversation of a post by world index */
  idOf: (index: number) => string;
  authorOf: (index: number) => number;
  conversationOf: (index: number) => string;
}

/** A live post without its counters (`liveCounters` and the reply and quote counts are added at each answer). */
export function renderLivePost(ctx: LiveRenderContext, p: LivePost, quoteDepth: number): SpecPost {
  const text = new TextBuilder();
  const mentions: Array<{ id_str: string; indices: Indices; name: string; screen_name: string }> = [];
  const mention = (u: number): void => {
    const user = ctx.users[u] as UserRecord;
    mentions.push({
      id_str: user.id,
      indices: text.add(`@${user.userName}`),
      name: user.name,
      screen_name: user.userName,
    });
  };
  const addressee = p.parent >= 0 ? ctx.authorOf(p.parent) : -1;
  if (addressee >= 0 && addressee !== p.author) {
    mention(addressee);
    text.add(' ');
  }
  const bodyStart = text.length;
  const r = (what: string) => unit(ctx.seed, 'live-text', p.ordinal, what);
  const pick = <T>(list: readonly T[], what: string): T => list[Math.floor(r(what) * list.length)] as T;
  const lang = LANGS[p.lang] ?? 'en';
  const hashtags: Array<{ text: string; indices: Indices }> = [];
  if (lang === 'en') {
    const topic = pick(TOPICS, 'topic');
    text.add(`${pick(OPENERS, 'open')} `);
    hashtags.push({ text: topic, indices: text.add(`#${topic}`) });
    const close = pick(CLOSERS, 'close');
    if (close) text.add(` ${close}`);
  } else {
    text.add(pick(PHRASES[lang], 'phrase'));
  }
  if (r('emoji') < 0.3) text.add(` ${pick(EMOJI, 'which-emoji')}`);
  if (p.mention >= 0 && p.mention !== addressee) {
    text.add(' cc ');
    mention(p.mention);
  }
  const user = ctx.users[p.author] as UserRecord;
  const id = p.id;
  return {
    type: 'tweet',
    id,
    url: `https://social.example/${user.userName}/status/${id}`,
    text: text.toString(),
    retweetCount: 0,
    replyCount: 0,
    likeCount: 0,
    quoteCount: 0,
    bookmarkCount: 0,
    viewCount: '0',
    createdAt: formatCreatedAt(p.at),
    lang,
    isReply: p.parent >= 0,
    inReplyToId: p.parent >= 0 ? ctx.idOf(p.parent) : null,
    conversationId: p.parent >= 0 ? ctx.conversationOf(p.parent) : id,
    displayTextRange: [bodyStart, text.length],
    entities: { hashtags, symbols: [], urls: [], user_mentions: mentions },
    quoted_tweet: p.quoted >= 0 ? ctx.nested(p.quoted, quoteDepth + 1) : null,
    author: ctx.author(p.author),
  };
}
