/**
 * The live service's answer variants (`shared/api-field-notes.md`), applied to
 * a spec-shaped body on request. Each takes the body by value and returns a
 * new one; quirks that do not concern an operation leave it unchanged.
 */
import { OPERATIONS, type OperationId } from '../shared/api';
import type { QuirkName } from './faults';
import { RECORDED_SHAPES } from './quirks-recorded';
import { ROUND2_SHAPES } from './quirks-round2';
import { WOEIDS } from './world/trends';
import { scalarText } from '../shared/scalar-text';

type Body = Record<string, unknown>;
type Shape = (body: Body, ctx: { op: OperationId; now: number; params: Record<string, unknown> }) => Body;

const renameKey = (body: Body, from: string, to: string): Body =>
  Object.fromEntries(Object.entries(body).map(([k, v]) => [k === from ? to : k, v]));

const SHAPES: Partial<Record<QuirkName, Shape>> = {
  'swap-msg': (b) =>
    'msg' in b ? renameKey(b, 'msg', 'message') : 'message' in b ? renameKey(b, 'message', 'msg') : b,
  'both-msg': (b) => ({ ...b, msg: b.msg ?? b.message ?? '', message: b.message ?? b.msg ?? '' }),
  'no-msg': ({ msg: _m, message: _n, ...rest }) => rest,
  'code-0': (b) => ({ ...b, code: 0 }),
  'replies-under-tweets': (b, { op }) => (op === 'postReplies' ? renameKey(b, 'replies', 'tweets') : b),
  'timeline-data': (b, { op }) => {
    if (op !== 'userTimeline') return b;
    const { tweets, ...rest } = b;
    return {
      status: rest.status,
      message: rest.message,
      data: { tweets },
      has_next_page: rest.has_next_page,
      next_cursor: rest.next_cursor,
    };
  },
  'search-bare': (b, { op }) =>
    op === 'userSearch' ? { users: b.users, has_next_page: b.has_next_page, next_cursor: b.next_cursor } : b,
  'trends-nested': (b, { op, now, params }) => {
    if (op !== 'trends') return b;
    const woeid = Number(params.woeid ?? 1);
    const trends = (b.trends as Body[]).map((t, k) => ({
      trend: {
        name: t.name,
        target: { query: t.query },
        rank: k + 1,
        meta_description: t.tweet_volume ? `${scalarText(t.tweet_volume)} posts` : null,
      },
    }));
    return {
      ...b,
      trends,
      metadata: {
        timestamp: now,
        refresh_interval_millis: 300_000,
        woeid: { name: WOEIDS[woeid] ?? 'Unknown', id: woeid },
      },
    };
  },
  ...RECORDED_SHAPES,
  ...ROUND2_SHAPES,
  'live-objects': (b, { op }) => {
    const key = OPERATIONS[op].collectionKey;
    if (OPERATIONS[op].itemKind !== 'post' || !Array.isArray(b[key])) return b;
    return { ...b, [key]: (b[key] as Body[]).map((p, k) => livePost(p, k)) };
  },
};

/** apply the shape quirks in `names` (paging quirks are the pager's business) */
export function applyShapeQuirks(body: Body, names: Iterable<QuirkName>, ctx: Parameters<Shape>[1]): Body {
  let out = body;
  for (const name of names) out = SHAPES[name]?.(out, ctx) ?? out;
  return out;
}

/**
 * A post as the live service sends it: extra fields, media in
 * `extendedEntities`, "" for some nulls, `viewCount` as a number, missing or
 * `[0]` (by position), and every fifth post a retweet whose text is cut.
 */
function livePost(p: Body, position: number): Body {
  const author = p.author as Body;
  const entities = (p.entities ?? {}) as Body;
  const media = (entities.media ?? []) as Body[];
  const { media: _dropped, ...otherEntities } = entities;
  const out: Body = {
    ...p,
    twitterUrl: String(p.url).replace('https://social.example/', 'https://twitter.social.example/'),
    source: '<a href="https://social.example/download" rel="nofollow">Social for Android</a>',
    card: null,
    place: {},
    isRetweet: false,
    isQuote: p.quoted_tweet !== null,
    isPinned: false,
    inReplyToId: p.inReplyToId ?? '',
    inReplyToUserId: p.isReply ? ((entities.user_mentions as Body[] | undefined)?.[0]?.id_str ?? '') : '',
    inReplyToUsername: p.isReply ? ((entities.user_mentions as Body[] | undefined)?.[0]?.screen_name ?? null) : null,
    entities: otherEntities,
    extendedEntities: media.length ? { media: media.map((m, k) => liveMedia(m, k + position)) } : {},
  };
  switch (position % 4) {
    case 0:
      out.viewCount = Number(p.viewCount ?? 0);
      break;
    case 1:
      delete out.viewCount;
      break;
    case 2:
      out.viewCount = [0];
      break;
  }
  if (position % 5 === 4) {
    const text = `RT @${String(author.userName)}: ${String(p.text)}`;
    return {
      ...out,
      isRetweet: true,
      text: [...text].length > 140 ? `${[...text].slice(0, 139).join('')}…` : text,
      retweeted_tweet: p,
    };
  }
  return out;
}

function liveMedia(m: Body, k: number): Body {
  const info = ((m.media_results as Body).result as Body).media_info as Body;
  const base = {
    display_url: m.display_url,
    expanded_url: m.expanded_url,
    id_str: m.id_str,
    indices: m.indices,
    media_key: `3_${String(m.id_str)}`,
    media_url_https: info.original_img_url,
    url: m.url,
    original_info: { width: info.original_img_width, height: info.original_img_height },
    ...(info.alt_text ? { ext_alt_text: info.alt_text } : {}),
  };
  if (k % 3 !== 1) return { ...base, type: 'photo' };
  return {
    ...base,
    type: k % 2 ? 'video' : 'animated_gif',
    video_info: {
      aspect_ratio: [16, 9],
      duration_millis: 12_000,
      variants: [
        { content_type: 'application/x-mpegURL', url: `${String(info.original_img_url)}.m3u8` },
        { bitrate: 832_000, content_type: 'video/mp4', url: `${String(info.original_img_url)}.mp4` },
      ],
    },
  };
}
