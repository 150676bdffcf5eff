/**
 * The second round of recorded live shapes (`api-field-notes.md`, "Round 2"), applied to a
 * spec-shaped answer on request, each a quirk of its own:
 * - `deleted-quotes`: quotes of quotes whose innermost post was deleted (an object of empty strings), direct
 *   quotes of a deleted post, and a display range past 2^53;
 * - `cards`: polls (two and four choices; one under `card.legacy`), link previews, live broadcasts;
 * - `automated`: automated accounts (`isAutomated`, `automatedBy`, the AutomatedLabel), as post authors and
 *   in user lists;
 * - `mentions-not-replies`: posts that start with @mentions, `isReply: false`, no inReplyToId, and yet
 *   inReplyToUserId / inReplyToUsername;
 * - `empty-nones`: "" for none (ids, dates, names, card, quoted_tweet);
 * - `trends-live`: the live trends with their `metadata` (time, refresh interval, place).
 * The bodies come from `shared/api/fixtures/recorded-round2.ts`, so readers' tests and the sandbox agree.
 */
import { OPERATIONS, type OperationId } from '../shared/api';
import {
  AUTOMATED_USER,
  BROADCAST_CARD,
  DELETED_POST,
  LINK_CARD,
  POLL4_CARD_LEGACY,
  POLL_CARD,
} from '../shared/api/fixtures/recorded-round2';
import { scalarText } from '../shared/scalar-text';
import type { QuirkName } from './faults';
import { WOEIDS } from './world/trends';

type Body = Record<string, unknown>;
type Shape = (body: Body, ctx: { op: OperationId; now: number; params: Record<string, unknown> }) => Body;

const isObj = (v: unknown): v is Body => typeof v === 'object' && v !== null && !Array.isArray(v);
const cps = (s: string): number => [...s].length;

function mapList(b: Body, op: OperationId, fn: (item: Body, k: number, page: readonly Body[]) => Body): Body {
  const key = OPERATIONS[op].collectionKey;
  if (!Array.isArray(b[key])) return b;
  const page = (b[key] as unknown[]).filter(isObj);
  return { ...b, [key]: (b[key] as unknown[]).map((x, k) => (isObj(x) ? fn(x, k, page) : x)) };
}

const postLists = (fn: (item: Body, k: number, page: readonly Body[]) => Body): Shape => {
  return (b, { op }) => (OPERATIONS[op].itemKind === 'post' ? mapList(b, op, fn) : b);
};

/** another post of the page than `k` (the one a quote quotes), without its own quote */
function other(page: readonly Body[], k: number): Body {
  const p = page[(k + 1) % page.length] ?? page[k] ?? {};
  return { ...p, quoted_tweet: null };
}

function deletedQuotes(p: Body, k: number, page: readonly Body[]): Body {
  switch (k % 4) {
    case 0:
    case 1: {
      // the recorded shape: a post quoting a post that quotes a deleted post
      const middle = isObj(p.quoted_tweet) ? p.quoted_tweet : other(page, k);
      return { ...p, isQuote: true, quoted_tweet: { ...middle, isQuote: true, quoted_tweet: DELETED_POST } };
    }
    case 3:
      return { ...p, isQuote: true, quoted_tweet: DELETED_POST };
    default:
      // a display range past 2^53
      return { ...p, displayTextRange: [0, 2 ** 53 + 2] };
  }
}

/** the sandbox's own picture for a card (its media server draws any numeric id), from the author's avatar URL */
function sandboxImage(p: Body, id: string): string | null {
  const avatar = isObj(p.author) ? scalarText(p.author.profilePicture) : '';
  const m = /^(https?:\/\/[^/]+)\/media\//.exec(avatar);
  return m ? `${m[1]}/media/img-${id}.png` : null;
}

/** a card's key/value pairs with each image's URL made the sandbox's (so demo mode shows it offline) */
function withImages(card: Body, image: string | null): Body {
  if (!image || !Array.isArray(card.binding_values)) return card;
  return {
    ...card,
    binding_values: (card.binding_values as Body[]).map((e) =>
      isObj(e.value) && isObj(e.value.image_value)
        ? { ...e, value: { ...e.value, image_value: { ...e.value.image_value, url: image } } }
        : e,
    ),
  };
}

function cards(p: Body, k: number): Body {
  const id = scalarText(p.id);
  switch (k % 5) {
    case 0:
      return { ...p, card: k % 10 === 0 ? POLL_CARD : POLL4_CARD_LEGACY };
    case 1: {
      // a link preview: its t.co link at the end of the text, expanded by the post's url entities
      const text = `${scalarText(p.text)} https://t.co/story`;
      const end = cps(text);
      const entities = isObj(p.entities) ? p.entities : {};
      const urls = Array.isArray(entities.urls) ? (entities.urls as unknown[]) : [];
      return {
        ...p,
        text,
        card: withImages(LINK_CARD, sandboxImage(p, id)),
        entities: {
          ...entities,
          urls: [
            ...urls,
            {
              display_url: 'example.org/harbour-data',
              expanded_url: 'https://www.example.org/harbour-data',
              url: 'https://t.co/story',
              indices: [end - 18, end],
            },
          ],
        },
      };
    }
    case 2:
      return { ...p, card: withImages(BROADCAST_CARD, sandboxImage(p, id)) };
    default:
      return { ...p, card: null };
  }
}

/** the account made automated, run by `by` (another account of the page, or the recorded operator) */
function automatedUser(u: Body, by: string): Body {
  const label = AUTOMATED_USER.affiliatesHighlightedLabel as { label: Body };
  return {
    ...u,
    isAutomated: true,
    automatedBy: by,
    affiliatesHighlightedLabel: {
      label: {
        ...label.label,
        long_description: {
          text: `Automated by @${by}`,
          entities: [
            { fromIndex: 13, toIndex: 13 + cps(by) + 1, ref: { type: 'TimelineRichTextMention', screen_name: by } },
          ],
        },
      },
    },
  };
}

const handleOf = (u: unknown): string | null =>
  isObj(u) && typeof u.userName === 'string' && u.userName !== '' ? u.userName : null;

function automatedAuthor(p: Body, k: number, page: readonly Body[]): Body {
  if (k % 3 !== 0 || !isObj(p.author)) return p;
  const by = handleOf(page[(k + 1) % page.length]?.author) ?? 'harbourlab';
  return { ...p, author: automatedUser(p.author, by === p.author.userName ? 'harbourlab' : by) };
}

function automatedInList(u: Body, k: number, page: readonly Body[]): Body {
  if (k % 3 !== 0) return u;
  const by = handleOf(page[(k + 1) % page.length]) ?? 'harbourlab';
  return automatedUser(u, by === u.userName ? 'harbourlab' : by);
}

function mentionsNotReplies(p: Body, k: number, page: readonly Body[]): Body {
  if (k % 2 !== 0 || p.isReply === true) return p;
  const a = page[(k + 1) % page.length]?.author;
  const b = page[(k + 2) % page.length]?.author;
  if (!isObj(a) || !isObj(b) || !handleOf(a) || !handleOf(b)) return p;
  const head = `@${handleOf(a)} @${handleOf(b)} `;
  const by = cps(head);
  const entities = isObj(p.entities) ? p.entities : {};
  const shift = (list: unknown) =>
    Array.isArray(list)
      ? (list as Body[]).map((e) =>
          Array.isArray(e.indices) ? { ...e, indices: (e.indices as number[]).map((i) => i + by) } : e,
        )
      : list;
  const mentions = [
    {
      id_str: scalarText(a.id),
      indices: [0, cps(handleOf(a)!) + 1],
      name: scalarText(a.name),
      screen_name: handleOf(a),
    },
    {
      id_str: scalarText(b.id),
      indices: [cps(handleOf(a)!) + 2, by - 1],
      name: scalarText(b.name),
      screen_name: handleOf(b),
    },
  ];
  const range = Array.isArray(p.displayTextRange) ? (p.displayTextRange as number[]) : [0, cps(scalarText(p.text))];
  return {
    ...p,
    text: `${head}${scalarText(p.text)}`,
    isReply: false,
    inReplyToId: null,
    inReplyToUserId: scalarText(a.id),
    inReplyToUsername: handleOf(a),
    displayTextRange: [0, (range[1] ?? 0) + by],
    entities: {
      ...entities,
      hashtags: shift(entities.hashtags),
      symbols: shift(entities.symbols),
      urls: shift(entities.urls),
      media: shift(entities.media),
      user_mentions: [...mentions, ...((shift(entities.user_mentions) as unknown[] | undefined) ?? [])],
    },
  };
}

function emptyNones(p: Body, k: number): Body {
  const author = isObj(p.author) ? p.author : {};
  const out: Body = {
    ...p,
    inReplyToId: p.inReplyToId ?? '',
    inReplyToUserId: p.inReplyToUserId ?? '',
    inReplyToUsername: p.inReplyToUsername ?? '',
    card: '',
    quoted_tweet: p.quoted_tweet ?? '',
    retweeted_tweet: '',
    article: '',
    place: {},
    author: { ...author, location: '', coverPicture: '', automatedBy: '', verifiedType: '' },
  };
  // every fourth: no date and no name at all
  if (k % 4 === 3) return { ...out, createdAt: '', author: { ...(out.author as Body), name: '' } };
  return out;
}

function decoded(q: string): string {
  try {
    return decodeURIComponent(q);
  } catch {
    return q;
  }
}

/** the live trends: wrapped, the raw query, no url or volume; their own time (on a 5-minute step) and place */
function trendsLive(b: Body, now: number, params: Record<string, unknown>): Body {
  if (!Array.isArray(b.trends)) return b;
  const woeid = Number(params.woeid ?? 1);
  return {
    status: 'success',
    msg: 'success',
    trends: (b.trends as Body[]).map((t, k) => ({
      trend: { name: t.name, target: { query: decoded(scalarText(t.query)) }, rank: k + 1 },
    })),
    metadata: {
      timestamp: Math.floor(now / 300_000) * 300_000,
      refresh_interval_millis: 300_000,
      woeid: { name: WOEIDS[woeid] ?? 'Unknown', id: woeid },
      context_mode: 'full',
    },
  };
}

export const ROUND2_SHAPES: Partial<Record<QuirkName, Shape>> = {
  'deleted-quotes': postLists(deletedQuotes),
  cards: postLists(cards),
  automated: (b, ctx) =>
    OPERATIONS[ctx.op].itemKind === 'post'
      ? mapList(b, ctx.op, automatedAuthor)
      : ctx.op === 'usersByIds' ||
          ctx.op === 'userSearch' ||
          ctx.op === 'listFollowers' ||
          ctx.op === 'communityMembers'
        ? mapList(b, ctx.op, automatedInList)
        : b,
  'mentions-not-replies': postLists(mentionsNotReplies),
  'empty-nones': postLists(emptyNones),
  'trends-live': (b, { op, now, params }) => (op === 'trends' ? trendsLive(b, now, params) : b),
};
