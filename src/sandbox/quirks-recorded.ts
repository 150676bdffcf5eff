/**
 * The variants confirmed on real recorded bodies (`api-field-notes.md`, "Confirmed on real recorded
 * bodies"), applied to a spec-shaped answer on request: long posts under a `[k, 280 + k]` display range,
 * retweet wrappers with `isRetweet: false`, `viewCount` as a number (or `[0]`), users whose bio is only in
 * `profile_bio` (or with `profile_bio: {}`, `coverPicture: ""`, `verifiedType`), the live `community_info`,
 * the documented audio space, unwrapped trends without a URL.
 */
import { OPERATIONS, type OperationId } from '../shared/api';
import { longText } from '../shared/api/fixtures/recorded';
import type { QuirkName } from './faults';
import { scalarText } from '../shared/scalar-text';

type Body = Record<string, unknown>;
type Shape = (body: Body, ctx: { op: OperationId; now: number; params: Record<string, unknown> }) => Body;

const isObj = (v: unknown): v is Body => typeof v === 'object' && v !== null && !Array.isArray(v);
const ENTITY_LISTS = ['hashtags', 'symbols', 'urls', 'user_mentions', 'media'] as const;

/** entity lists with every index at or past `at` moved by `by` code points */
function shifted(entities: unknown, at: number, by: number): unknown {
  if (!isObj(entities)) return entities;
  const out: Body = { ...entities };
  for (const k of ENTITY_LISTS) {
    if (!Array.isArray(out[k])) continue;
    out[k] = (out[k] as unknown[]).map((e) => {
      if (!isObj(e) || !Array.isArray(e.indices)) return e;
      const [a, b] = e.indices as number[];
      return { ...e, indices: [a! >= at ? a! + by : a, b! >= at ? b! + by : b] };
    });
  }
  return out;
}

/** the post made long: text grows to 2,656 characters at its display range's end, which stays 280 wide */
function longPost(p: Body): Body {
  const text = String(p.text);
  const cps = [...text];
  const range = Array.isArray(p.displayTextRange) ? (p.displayTextRange as number[]) : [0, cps.length];
  const [start = 0, end = cps.length] = range;
  const insert = [...longText(' — and the rest of it:', Math.max(300, 2656 - cps.length))];
  return {
    ...p,
    text: [...cps.slice(0, end), ...insert, ...cps.slice(end)].join(''),
    displayTextRange: [start, start + 280],
    entities: shifted(p.entities, end, insert.length),
  };
}

/** a user as the recordings show one: the bio only in `profile_bio` (even positions) or `profile_bio: {}` (every third) */
function recordedUserShape(u: Body, position: number): Body {
  const bio = isObj(u.profile_bio) ? u.profile_bio : { description: u.description };
  const out: Body = {
    ...u,
    coverPicture: '',
    verifiedType: position % 2 ? null : 'Business',
    isVerified: false,
    status: '',
    withheldInCountries: [],
  };
  if (position % 3 === 2) return { ...out, profile_bio: {} };
  if (position % 2 === 0)
    return {
      ...out,
      description: '',
      profile_bio: { ...bio, description: scalarText(bio.description ?? u.description) },
    };
  return out;
}

/**
 * Media as recorded: the full entries in `extendedEntities.media[]` (`media_url_https`, `original_info`,
 * `ext_alt_text`; the first one a video when `video` is set) and only a reduced `media_results` left in
 * `entities.media[]`.
 */
function recordedMedia(p: Body, video: boolean): Body {
  const entities = isObj(p.entities) ? p.entities : {};
  const media = Array.isArray(entities.media) ? (entities.media as Body[]) : [];
  if (media.length === 0) return p;
  const extended = media.map((m, k) => {
    const result = isObj(m.media_results) && isObj(m.media_results.result) ? m.media_results.result : {};
    const info = isObj(result.media_info) ? result.media_info : {};
    const url = scalarText(info.original_img_url);
    const base: Body = {
      display_url: m.display_url,
      expanded_url: m.expanded_url,
      id_str: m.id_str,
      indices: m.indices,
      media_key: `3_${String(m.id_str)}`,
      media_url_https: url,
      type: 'photo',
      url: m.url,
      original_info: { width: info.original_img_width, height: info.original_img_height },
      ...(typeof info.alt_text === 'string' ? { ext_alt_text: info.alt_text } : {}),
    };
    if (!video || k > 0) return base;
    return {
      ...base,
      type: 'video',
      video_info: {
        aspect_ratio: [16, 9],
        duration_millis: 30_000,
        variants: [{ bitrate: 832_000, content_type: 'video/mp4', url: `${url}.mp4` }],
      },
    };
  });
  const reduced = media.map((m) => ({
    display_url: m.display_url,
    expanded_url: m.expanded_url,
    id_str: m.id_str,
    indices: m.indices,
    media_results: { result: { media_key: `3_${String(m.id_str)}` } },
    type: 'photo',
    url: m.url,
  }));
  return { ...p, entities: { ...entities, media: reduced }, extendedEntities: { media: extended } };
}

const POST_EXTRAS = {
  source: '',
  isLimitedReply: false,
  communityInfo: null,
  article: null,
  place: {},
  isRetweet: false,
};

/** a post as recorded: number viewCount (`[0]` every seventh), extras, long text every third, recorded author */
function recordedPost(p: Body, position: number, page: readonly unknown[]): Body {
  const entities = isObj(p.entities) ? { ...p.entities, timestamps: [] } : { timestamps: [] };
  let out: Body = {
    ...p,
    ...POST_EXTRAS,
    card: position % 2 ? {} : null,
    viewCount: position % 7 === 6 ? [0] : Number(p.viewCount ?? 0),
    entities,
    author: isObj(p.author) ? recordedUserShape(p.author, position) : p.author,
  };
  if (position % 3 === 0) out = longPost(out);
  out = recordedMedia(out, position % 5 === 4);
  if (isObj(p.quoted_tweet))
    out.quoted_tweet = longPost({ ...p.quoted_tweet, viewCount: Number(p.quoted_tweet.viewCount ?? 0) });
  if (position % 5 === 4) {
    // the wrapper: its author reposts the (long) original; its own text is cut, `isRetweet` false
    const original = longPost(out);
    const handle = isObj(p.author) ? String(p.author.userName) : 'someone';
    const text = `RT @${handle}: ${[...String(original.text)].slice(0, 120).join('')}…`;
    // the reposter: the author of another post of the page
    const other = page
      .map((x) => (isObj(x) ? x.author : null))
      .find((a) => isObj(a) && a.id !== (isObj(p.author) ? p.author.id : null));
    const author = isObj(other) ? recordedUserShape(other, position + 1) : out.author;
    return {
      ...out,
      author,
      id: `${String(p.id).slice(0, -1)}9`,
      text,
      displayTextRange: [0, [...text].length],
      entities: { timestamps: [] },
      likeCount: 0,
      quoted_tweet: null,
      retweeted_tweet: original,
    };
  }
  return out;
}

function mapList(b: Body, op: OperationId, fn: (item: Body, k: number, page: readonly unknown[]) => Body): Body {
  const key = OPERATIONS[op].collectionKey;
  if (!Array.isArray(b[key])) return b;
  const page = b[key] as unknown[];
  return { ...b, [key]: page.map((x, k) => (isObj(x) ? fn(x, k, page) : x)) };
}

/** the live `community_info` (19 keys) from the spec's community */
function communityInfo(b: Body): Body {
  const holder = isObj(b.data) && isObj(b.data.data) ? b.data.data.community_results_by_rest_id : null;
  const c = isObj(holder) && isObj(holder.result) ? holder.result : null;
  if (!c) return b;
  const banner =
    isObj(c.custom_banner_media_results) && isObj(c.custom_banner_media_results.result)
      ? c.custom_banner_media_results.result
      : null;
  const info: Body = {
    id: c.rest_id,
    name: c.name,
    description: c.description,
    question: '',
    member_count: c.member_count,
    moderator_count: c.moderator_count,
    created_at: new Date(Number(c.created_at)).toUTCString(),
    join_policy: 'Open',
    invites_policy: 'MemberInvitesAllowed',
    is_nsfw: false,
    is_pinned: c.is_pinned,
    role: c.role,
    primary_topic: { id: '1', name: 'Science' },
    banner_url: isObj(banner) && isObj(banner.media_info) ? banner.media_info.original_img_url : '',
    search_tags: [],
    rules: (c.rules as Body[]).map((r) => ({ id: r.rest_id, name: r.name, description: '' })),
    creator: null,
    admin: null,
    members_preview: [],
  };
  return { community_info: info, status: b.status, msg: b.msg };
}

const SPACE_STATES: Record<string, string> = { Running: 'Live', NotStarted: 'NotStarted', Ended: 'Ended' };

/** the documented `data: {id, title, state, …}` from the spec's space */
function documentedSpace(b: Body, params: Record<string, unknown>): Body {
  const space = isObj(b.data) && isObj(b.data.data) ? b.data.data.audio_space_by_rest_id : null;
  const m = isObj(space) && isObj(space.metadata) ? space.metadata : null;
  if (!m) return b;
  const creator = isObj(m.creator_results) && isObj(m.creator_results.result) ? m.creator_results.result : {};
  const core = isObj(creator.core) ? creator.core : {};
  const avatar = isObj(creator.avatar) ? creator.avatar : {};
  const parts = isObj(m.participants) ? m.participants : {};
  const people = (list: unknown) =>
    (Array.isArray(list) ? (list as Body[]) : []).map((x) => ({
      user_id: x.user_id,
      screen_name: x.social_screen_name,
      display_name: x.display_name,
      avatar_url: x.avatar_url,
      is_muted_by_admin: x.is_muted_by_admin,
    }));
  const state = String(m.state);
  return {
    status: b.status,
    msg: b.msg,
    data: {
      id: scalarText(params.space_id),
      title: m.title ?? '',
      state: SPACE_STATES[state] ?? state,
      created_at: m.start,
      scheduled_start: m.start,
      started_at: state === 'NotStarted' ? null : m.start,
      ended_at: m.ended_at ?? null,
      settings: { is_space_available_for_replay: m.is_space_available_for_replay },
      stats: {
        total_live_listeners: m.total_live_listeners,
        total_participated: m.total_participated,
        total_replay_watched: m.total_replay_watched,
      },
      creator: {
        id: m.creator_user_id,
        screen_name: core.screen_name,
        name: core.name,
        profile_image_url: avatar.image_url,
      },
      participants: {
        admins: people(parts.admins),
        speakers: people(parts.speakers),
        listeners: people(parts.listeners),
      },
    },
  };
}

function decoded(q: string): string {
  try {
    return decodeURIComponent(q);
  } catch {
    return q;
  }
}

/** the envelopes seen live, per operation (status/msg/code and paging keys as recorded) */
function recordedEnvelope(b: Body, op: OperationId): Body {
  const { status, msg: _m, message: _n, ...rest } = b;
  const said = { status, msg: 'success' };
  switch (op) {
    case 'userTimeline':
      return {
        code: 0,
        ...said,
        data: { tweets: rest.tweets, pin_tweet: null },
        has_next_page: rest.has_next_page,
        next_cursor: rest.next_cursor,
      };
    case 'postsByIds':
      return { code: 0, ...said, tweets: rest.tweets };
    case 'postReplies':
    case 'postRepliesV2':
    case 'userMentions':
      return {
        tweets: rest.tweets ?? rest.replies,
        has_next_page: rest.has_next_page,
        next_cursor: rest.next_cursor,
        ...said,
      };
    case 'userSearch':
      return { users: rest.users, has_next_page: rest.has_next_page, next_cursor: rest.next_cursor };
    case 'trends':
      return { trends: rest.trends, metadata: { timestamp: 0, refresh_interval_millis: 300_000 }, ...said };
    default:
      return b;
  }
}

export const RECORDED_SHAPES: Partial<Record<QuirkName, Shape>> = {
  'recorded-envelopes': (b, { op }) => recordedEnvelope(b, op),
  'recorded-posts': (b, { op }) => (OPERATIONS[op].itemKind === 'post' ? mapList(b, op, recordedPost) : b),
  'recorded-users': (b, { op }) =>
    op === 'userSearch' || op === 'usersByIds' || op === 'listFollowers' ? mapList(b, op, recordedUserShape) : b,
  'community-live': (b, { op }) => (op === 'communityInfo' ? communityInfo(b) : b),
  'space-documented': (b, { op, params }) => (op === 'spaceDetail' ? documentedSpace(b, params) : b),
  'trends-unwrapped': (b, { op }) =>
    op === 'trends' && Array.isArray(b.trends)
      ? {
          ...b,
          trends: (b.trends as Body[]).map((t, k) => ({
            name: t.name,
            target: { query: decoded(String(t.query)) },
            rank: k + 1,
            meta_description: null,
          })),
        }
      : b,
};
