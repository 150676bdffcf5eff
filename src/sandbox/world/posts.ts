/**
 * SpecPost objects, drawn lazily: text, entities and counters of post `i` come
 * from a stream keyed by (seed, i), so a post reads the same whether it is the
 * first or the ten-thousandth thing the sandbox renders.
 *
 * Faker is the slow part of a post, so its sentences, links and alt texts come
 * from pools whose entry k is itself drawn from a stream keyed by (seed, k), on
 * first use: still order-independent, about three times faster per post.
 */
import type { z } from 'zod';
import type { MediaEntity, SpecPost, User } from '../../shared/api';
import { extendedMedia, imageSpec, mediaUrl } from '../media';
import { seededFaker, type SeededFaker } from './fake';
import { group, type PostGraph } from './graph';
import { CASHTAGS, EMOJI, LANGS, MARKUP_PROBE, PHRASES, TOPICS, TextBuilder, type Indices } from './text';
import { formatCreatedAt } from './time';
import { displayUrl, shortLink, type UserRecord } from './users';

export interface PostContext {
  seed: number;
  anchor: number;
  origin: () => string;
  graph: PostGraph;
  users: readonly UserRecord[];
  /** the embedded author object (statusesCount null), cached by the caller */
  author: (user: number) => User;
  /** the post whose text carries the markup probe */
  markupPost: number;
}

/** Quoted posts nest at most this deep; deeper `quoted_tweet` is null. */
const MAX_QUOTE_DEPTH = 2;

const REPLY_OPENERS = [
  'Totally agree.',
  'Source?',
  'Hard disagree.',
  'This is the way.',
  'Underrated take.',
  'Wait, really?',
  'Thread 🧵',
];
const CLOSERS = ['Worth it.', 'Not bad!', 'Never again.', 'Ten out of ten.', 'Thoughts?', 'More soon.'];

function postUrl(userName: string, id: string): string {
  return `https://social.example/${userName}/status/${id}`;
}

/** entries per pool (sentences, links, alt texts) */
const POOL = 4096;

export class PostRenderer {
  private readonly fake: SeededFaker = seededFaker();
  private readonly poolFake: SeededFaker = seededFaker();
  private readonly pools = new Map<string, string[]>();

  constructor(private readonly ctx: PostContext) {}

  render(
    i: number,
    quoteDepth = 0,
    nested: (q: number, depth: number) => SpecPost = (q, d) => this.render(q, d),
  ): SpecPost {
    const { ctx } = this;
    const g = ctx.graph;
    const { rng } = this.fake;
    this.fake.seed(ctx.seed, 'post', i);
    const user = ctx.users[g.author[i] as number] as UserRecord;
    const id = g.ids[i] as string;
    const url = postUrl(user.userName, id);
    const lang = LANGS[g.lang[i] as number] ?? 'en';
    const parent = g.parent[i] as number;

    const text = new TextBuilder();
    const mentions: { id_str: string; indices: Indices; name: string; screen_name: string }[] = [];
    const mention = (u: UserRecord): void => {
      mentions.push({ id_str: u.id, indices: text.add(`@${u.userName}`), name: u.name, screen_name: u.userName });
    };
    const parentAuthor = parent >= 0 ? (g.author[parent] as number) : -1;
    if (parentAuthor >= 0 && parentAuthor !== user.index) {
      mention(ctx.users[parentAuthor] as UserRecord);
      text.add(' ');
    }
    const bodyStart = text.length;
    if (parent >= 0 && rng.chance(0.4)) text.add(`${rng.pick(REPLY_OPENERS)} `);
    if (lang === 'en') {
      text.add(this.pooled('sentence', rng.int(POOL)));
    } else {
      text.add(rng.pick(PHRASES[lang]));
    }
    if (rng.chance(0.3)) text.add(` ${rng.pick(EMOJI)}`);
    const target = g.mention[i] as number;
    if (target >= 0) {
      text.add(' cc ');
      mention(ctx.users[target] as UserRecord);
    }
    const hashtags: { text: string; indices: Indices }[] = [];
    for (let k = rng.chance(0.3) ? 1 + rng.int(2) : 0; k > 0; k--) {
      const tag = rng.pick(TOPICS);
      text.add(' ');
      hashtags.push({ text: tag, indices: text.add(`#${tag}`) });
    }
    const symbols: { text: string; indices: Indices }[] = [];
    if (rng.chance(0.06)) {
      const tag = rng.pick(CASHTAGS);
      text.add(' ');
      symbols.push({ text: tag, indices: text.add(`$${tag}`) });
    }
    const urls: { display_url: string; expanded_url: string; url: string; indices: Indices }[] = [];
    if (rng.chance(0.15)) {
      const expanded = this.pooled('link', rng.int(POOL));
      const link = shortLink(rng.chars(10));
      text.add(' ');
      urls.push({ display_url: displayUrl(expanded), expanded_url: expanded, url: link, indices: text.add(link) });
    }
    if (i === ctx.markupPost) text.add(` ${MARKUP_PROBE}`);
    const displayEnd = text.length;
    const media = this.media(i, id, url, text, g.media[i] as number);

    const likes = g.likes[i] as number;
    const views = rng.chance(0.03) ? null : String(likes * (20 + rng.int(60)) + rng.heavy(150));
    const retweets = Math.floor(likes * rng.next() * 0.3);
    const bookmarks = Math.floor(likes * rng.next() * 0.05);
    const quoted = g.quoted[i] as number;
    // nothing below draws from the stream: `nested` reseeds it
    return {
      type: 'tweet',
      id,
      url,
      text: text.toString(),
      retweetCount: retweets,
      replyCount: group(g.replies, i).length,
      likeCount: likes,
      quoteCount: group(g.quotes, i).length,
      bookmarkCount: bookmarks,
      viewCount: views,
      createdAt: formatCreatedAt(ctx.anchor - (g.age[i] as number)),
      lang,
      isReply: parent >= 0,
      inReplyToId: parent >= 0 ? (g.ids[parent] as string) : null,
      conversationId: g.ids[g.root[i] as number] as string,
      displayTextRange: [bodyStart, displayEnd],
      entities: {
        hashtags,
        symbols,
        urls,
        user_mentions: mentions,
        ...(media.length ? { media } : {}),
      },
      // where the live service describes media, with their kinds and video variants (api-field-notes.md)
      ...(media.length
        ? { extendedEntities: { media: media.map((m) => extendedMedia(ctx.seed, ctx.origin(), m)) } }
        : {}),
      quoted_tweet: quoted >= 0 && quoteDepth < MAX_QUOTE_DEPTH ? nested(quoted, quoteDepth + 1) : null,
      author: ctx.author(user.index),
    };
  }

  /** entry k of a pool: a pure function of (seed, pool, k), drawn on first use */
  private pooled(name: PoolName, k: number): string {
    let pool = this.pools.get(name);
    if (!pool) this.pools.set(name, (pool = new Array<string>(POOL)));
    let value = pool[k];
    if (value === undefined) {
      this.poolFake.seed(this.ctx.seed, name, k);
      pool[k] = value = DRAW[name](this.poolFake);
    }
    return value;
  }

  /** media entities; all images of a post share one trailing short link, as on the platform */
  private media(i: number, id: string, url: string, text: TextBuilder, count: number): z.infer<typeof MediaEntity>[] {
    if (count === 0) return [];
    const { rng } = this.fake;
    const code = rng.chars(10);
    const link = shortLink(code);
    text.add(' ');
    const indices = text.add(link);
    const out: z.infer<typeof MediaEntity>[] = [];
    for (let k = 0; k < count; k++) {
      const mediaId = (BigInt(id) + BigInt(k + 1)).toString();
      const spec = imageSpec(this.ctx.seed, 'img', mediaId);
      out.push({
        display_url: `pic.social.example/${code}`,
        expanded_url: `${url}/photo/${k + 1}`,
        features: {},
        id_str: mediaId,
        indices,
        url: link,
        media_results: {
          id: Buffer.from(`ApiMedia:\n${mediaId}`).toString('base64'),
          result: {
            __typename: 'ApiMedia',
            id: Buffer.from(`ApiMedia:\n${mediaId}`).toString('base64'),
            media_availability_v2: { status: 'Available' },
            media_id: mediaId,
            media_info: {
              __typename: 'ApiImage',
              alt_text: i % 5 === 4 ? '' : this.pooled('alt', rng.int(POOL)),
              color_info: {
                palette: spec.palette.map((p) => ({
                  percentage: p.percentage,
                  rgb: { blue: p.rgb.blue, green: p.rgb.green, red: p.rgb.red },
                })),
              },
              original_img_height: spec.height,
              original_img_url: mediaUrl(this.ctx.origin(), 'img', mediaId),
              original_img_width: spec.width,
            },
          },
        },
      });
    }
    return out;
  }
}

export type PoolName = 'sentence' | 'link' | 'alt';

const DRAW: Record<PoolName, (f: SeededFaker) => string> = {
  sentence: ({ faker, rng }) => {
    const r = rng.next();
    if (r < 0.35) return faker.hacker.phrase();
    if (r < 0.55) return `${faker.company.catchPhrase()}.`;
    if (r < 0.75) return `Just tried ${faker.commerce.productName()}. ${rng.pick(CLOSERS)}`;
    return capitalise(faker.word.words({ count: { min: 5, max: 14 } }));
  },
  link: ({ faker }) => `${faker.internet.url({ appendSlash: false })}/${faker.word.noun()}`,
  alt: ({ faker }) =>
    capitalise(`${faker.word.adjective()} ${faker.word.noun()} ${faker.word.preposition()} ${faker.word.noun()}`),
};

function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
