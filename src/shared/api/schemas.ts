/**
 * The Social Data Read API's resources as zod schemas, exactly as the spec
 * (`shared/spec/social-data-read-api.md`) describes them.
 *
 * Every object schema is loose: fields the spec does not list are kept,
 * never dropped (the live service sends more than it documents, and exports
 * must carry everything). Types are derived from these schemas; nothing here
 * is typed twice by hand.
 */
import { z } from 'zod';
import { readCard, type PostCardView } from './normalize/card';

const indices = z.tuple([z.number().int(), z.number().int()]);

/* ---------------------------------------------------------------- entities */

export const UrlEntity = z.looseObject({
  display_url: z.string(),
  expanded_url: z.string(),
  indices,
  url: z.string(),
});

export const UserMentionEntity = z.looseObject({
  id_str: z.string(),
  indices,
  name: z.string(),
  screen_name: z.string(),
});

/** Hashtags and symbols: the spec says "array" only; the common shape is {text, indices}. */
export const TagEntity = z.looseObject({
  text: z.string(),
  indices,
});

const RgbColor = z.looseObject({
  blue: z.number().int(),
  green: z.number().int(),
  red: z.number().int(),
});

const MediaInfo = z.looseObject({
  __typename: z.string(),
  alt_text: z.string().nullable().optional(),
  color_info: z
    .looseObject({
      palette: z.array(z.looseObject({ percentage: z.number(), rgb: RgbColor })),
    })
    .optional(),
  original_img_height: z.number().int(),
  original_img_url: z.string(),
  original_img_width: z.number().int(),
});

export const MediaEntity = z.looseObject({
  display_url: z.string(),
  expanded_url: z.string(),
  features: z.looseObject({}),
  id_str: z.string(),
  indices,
  url: z.string(),
  media_results: z.looseObject({
    id: z.string(),
    result: z.looseObject({
      __typename: z.string(),
      id: z.string(),
      media_availability_v2: z.looseObject({ status: z.string() }),
      media_id: z.string(),
      media_info: MediaInfo,
    }),
  }),
});

const Entities = z.looseObject({
  hashtags: z.array(TagEntity).optional(),
  symbols: z.array(TagEntity).optional(),
  urls: z.array(UrlEntity).optional(),
  user_mentions: z.array(UserMentionEntity).optional(),
  media: z.array(MediaEntity).optional(),
});

/* -------------------------------------------------------------------- user */

const ProfileBio = z.looseObject({
  description: z.string(),
  entities: z
    .looseObject({
      description: z.looseObject({}).optional(),
      url: z.looseObject({ urls: z.array(UrlEntity) }).optional(),
    })
    .optional(),
});

export const User = z.looseObject({
  type: z.literal('user'),
  userName: z.string(),
  url: z.string(),
  id: z.string().regex(/^\d+$/, 'a numeric id'),
  name: z.string(),
  isBlueVerified: z.boolean(),
  description: z.string(),
  location: z.string().nullable(),
  /** null: the service sent nothing that reads as a count ("unknown", never 0) */
  followers: z.number().int().nullable(),
  following: z.number().int().nullable(),
  statusesCount: z.number().int().nullable(),
  createdAt: z.string(),
  profilePicture: z.string(),
  coverPicture: z.string().nullable(),
  canDm: z.boolean(),
  pinnedTweetIds: z.array(z.string()),
  profile_bio: ProfileBio.nullable(),
  /** the live service's automated-account flag and its operator's handle (the reader always sets both) */
  isAutomated: z.boolean().optional(),
  automatedBy: z.string().nullable().optional(),
});
export type User = z.infer<typeof User>;

/* -------------------------------------------------------------------- post */

/** `Sun Nov 22 02:13:21 +0000 2026` */
export const CREATED_AT_PATTERN =
  /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{2} \d{2}:\d{2}:\d{2} \+0000 \d{4}$/;

const counter = z.number().int().nullable();

const postFields = {
  type: z.literal('tweet'),
  id: z.string().regex(/^\d+$/, 'a numeric id'),
  url: z.string(),
  text: z.string(),
  /** counters: null when the service sent nothing that reads as a count ("unknown", never 0) */
  retweetCount: counter,
  replyCount: counter,
  likeCount: counter,
  quoteCount: counter,
  bookmarkCount: counter,
  viewCount: z.string().nullable(),
  createdAt: z.string(),
  lang: z.string(),
  isReply: z.boolean(),
  inReplyToId: z.string().nullable(),
  conversationId: z.string().nullable(),
  displayTextRange: indices.nullable(),
  entities: Entities.nullable(),
  /** null: the author could not be read (a deleted post's `author: {}`); the view says "unknown author" */
  author: User.nullable(),
};

/**
 * A post nested in another (a quoted post) that cannot be read as one: a deleted post arrives as an object
 * of empty strings, its id alone kept (api-field-notes.md, "Round 2"). Its parent is shown; this reads "This post is
 * unavailable", with whatever could be read of it. The raw item keeps what came.
 */
export const UnavailablePost = z.looseObject({
  type: z.literal('unavailable'),
  /** its id when it came with one (a deleted post keeps it on the live service), else null */
  id: z.string().nullable(),
  /** its text and author's handle when it had them, else null */
  text: z.string().nullable(),
  userName: z.string().nullable(),
  /** `empty`: every field empty (deleted or withheld); `unreadable`: no id Skein can read */
  reason: z.enum(['empty', 'unreadable']),
});
export type UnavailablePost = z.infer<typeof UnavailablePost>;

const PostBase = z.looseObject(postFields);
/**
 * A post; `quoted_tweet` is itself a post (whose own quoted_tweet may be null), or an `UnavailablePost`
 * when it cannot be read. A retweet is a wrapper whose `retweeted_tweet` is the original post (the live
 * service's; the spec does not list it): the readers set it only when it reads as a post.
 */
export type Post = z.infer<typeof PostBase> & {
  quoted_tweet: Post | UnavailablePost | null;
  retweeted_tweet?: Post | null;
};
export const Post: z.ZodType<Post> = PostBase.extend({
  quoted_tweet: z.lazy(() => z.union([Post, UnavailablePost]).nullable()),
  retweeted_tweet: z.lazy(() => Post.nullable()).optional(),
});

type CounterField = 'retweetCount' | 'replyCount' | 'likeCount' | 'quoteCount' | 'bookmarkCount';
/**
 * A post exactly as the spec documents one (what the sandbox serves): an author, integer counters, quoted
 * and original posts that are posts. Every `SpecPost` is a `Post`; the readers' `Post` is looser.
 */
export type SpecPost = OmitKnown<Post, 'author' | 'quoted_tweet' | 'retweeted_tweet' | CounterField> & {
  [K in CounterField]: number;
} & { author: User; quoted_tweet: SpecPost | null; retweeted_tweet?: SpecPost | null };

export function isUnavailable(p: { type: string } | null | undefined): p is UnavailablePost {
  return p?.type === 'unavailable';
}

/**
 * A post as it crosses the bridge: whole but for its author (and its quoted post's), cut to what a post
 * card shows. The author's whole profile stays in main (response store, exports): it was two thirds of
 * a page's bytes, copied into the renderer and kept there for every post held.
 */
export const CARD_AUTHOR_FIELDS = [
  'type',
  'id',
  'userName',
  'name',
  'url',
  'isBlueVerified',
  'profilePicture',
  'isAutomated',
  'automatedBy',
] as const;
export type CardAuthor = Pick<User, (typeof CARD_AUTHOR_FIELDS)[number]>;
/** `Omit` that keeps an open object's index signature and its other named fields */
type OmitKnown<T, K extends PropertyKey> = { [P in keyof T as P extends K ? never : P]: T[P] };
/**
 * A post as a card shows it: its author cut to `CardAuthor`, and its `card` read (a poll, a link preview,
 * a broadcast: `normalize/card.ts`); the raw card, with its key/value pairs and embedded users, stays in main.
 */
export type CardPost = OmitKnown<Post, 'author' | 'quoted_tweet' | 'retweeted_tweet' | 'card'> & {
  author: CardAuthor | null;
  quoted_tweet: CardPost | UnavailablePost | null;
  retweeted_tweet?: CardPost | null;
  /** the card as read (absent in posts made by hand: tests) */
  card?: PostCardView | null;
};
export type { PostCardView };

function cardAuthor(user: User | null): CardAuthor | null {
  if (!user) return null;
  const out: Record<string, unknown> = {};
  for (const k of CARD_AUTHOR_FIELDS) if (k in user) out[k] = user[k];
  return out as CardAuthor;
}

export function cardPost(post: Post): CardPost {
  const { retweeted_tweet: original, quoted_tweet: quoted, ...rest } = post;
  const out: CardPost = {
    ...rest,
    author: cardAuthor(post.author),
    quoted_tweet: quoted ? (isUnavailable(quoted) ? quoted : cardPost(quoted)) : null,
    card: readCard(post.card, post.entities?.urls),
  };
  if (original !== undefined) out.retweeted_tweet = original ? cardPost(original) : null;
  return out;
}

/* --------------------------------------------------------------- community */

const ActionResult = z.looseObject({
  __typename: z.string(),
  message: z.string().optional(),
  reason: z.string().optional(),
});

const BannerMedia = z.looseObject({
  __typename: z.string(),
  id: z.string(),
  media_info: z.looseObject({
    __typename: z.string(),
    original_img_height: z.number().int(),
    original_img_url: z.string(),
    original_img_width: z.number().int(),
    salient_rect: z
      .looseObject({
        height: z.number().int(),
        left: z.number().int(),
        top: z.number().int(),
        width: z.number().int(),
      })
      .optional(),
  }),
});

export const Community = z.looseObject({
  __typename: z.string(),
  rest_id: z.string(),
  name: z.string(),
  description: z.string(),
  created_at: z.number().int(),
  member_count: z.number().int(),
  moderator_count: z.number().int(),
  is_pinned: z.boolean(),
  role: z.string(),
  rules: z.array(z.looseObject({ name: z.string(), rest_id: z.string() })),
  actions: z.looseObject({
    join_action_result: ActionResult.optional(),
    leave_action_result: ActionResult.optional(),
  }),
  creator_results: z.looseObject({ result: z.looseObject({ __typename: z.string() }).optional() }),
  custom_banner_media_results: z.looseObject({ result: BannerMedia.nullable().optional() }).optional(),
  default_banner_media_results: z.looseObject({ result: BannerMedia.nullable().optional() }).optional(),
});
export type Community = z.infer<typeof Community>;

export const CommunityData = z.looseObject({
  data: z.looseObject({
    community_results_by_rest_id: z.looseObject({
      rest_id: z.string(),
      result: Community,
    }),
  }),
});
export type CommunityData = z.infer<typeof CommunityData>;

/* ------------------------------------------------------------- audio space */

export const SpaceUser = z.looseObject({
  __typename: z.string(),
  affiliates_highlighted_label: z.looseObject({}),
  avatar: z.looseObject({ image_url: z.string() }),
  banner: z.looseObject({ image_url: z.string() }).optional(),
  core: z.looseObject({ created_at_ms: z.number().int(), name: z.string(), screen_name: z.string() }),
  dm_permissions: z.looseObject({ can_dm: z.boolean() }),
  exclusive_tweet_following: z.boolean(),
  follow_request_sent: z.boolean(),
  has_graduated_access: z.boolean(),
  legacy: z.looseObject({ profile_interstitial_type: z.string(), want_retweets: z.boolean() }),
  media_permissions: z.looseObject({ can_media_tag: z.boolean() }),
  notifications_settings: z.looseObject({ notifications_enabled: z.boolean() }),
  parody_commentary_fan_label: z.string(),
  pinned_items: z.looseObject({ tweet_ids_str: z.array(z.string()) }),
  privacy: z.looseObject({ protected: z.boolean(), suspended: z.boolean() }),
  private_super_following: z.boolean(),
  profile_bio: z.looseObject({
    description: z.string(),
    entities: z.looseObject({ description: z.looseObject({}) }).optional(),
  }),
  profile_image_shape: z.string(),
  relationship_counts: z.looseObject({ followers: z.number().int(), following: z.number().int() }),
  relationship_perspectives: z.looseObject({
    blocked_by: z.boolean(),
    blocking: z.boolean(),
    followed_by: z.boolean(),
    following: z.boolean(),
    live_following: z.boolean(),
    muted_by: z.boolean(),
    muting: z.boolean(),
  }),
  reply_device_following_v2: z.boolean(),
  rest_id: z.string(),
  smart_blocked_by: z.boolean(),
  smart_blocking: z.boolean(),
  super_follow_eligible: z.boolean(),
  super_followed_by: z.boolean(),
  super_following: z.boolean(),
  verification: z.looseObject({
    is_blue_verified: z.boolean(),
    is_verified_organization: z.boolean(),
    is_verified_organization_affiliate: z.boolean(),
    verified: z.boolean(),
  }),
});
export type SpaceUser = z.infer<typeof SpaceUser>;

export const SpaceParticipant = z.looseObject({
  avatar_url: z.string(),
  display_name: z.string(),
  is_muted_by_admin: z.boolean(),
  is_muted_by_guest: z.boolean(),
  social_screen_name: z.string(),
  user_id: z.string(),
  user_results: z.looseObject({ rest_id: z.string(), result: SpaceUser }),
});
export type SpaceParticipant = z.infer<typeof SpaceParticipant>;

const SpaceMetadata = z.looseObject({
  conversation_controls: z.number().int(),
  creator_results: z.looseObject({ rest_id: z.string(), result: SpaceUser }),
  creator_user_id: z.string(),
  disallow_join: z.boolean(),
  is_muted: z.boolean(),
  is_space_available_for_clipping: z.boolean(),
  is_space_available_for_replay: z.boolean(),
  max_admin_capacity: z.number().int(),
  media_key: z.string(),
  narrow_cast_space_type: z.number().int(),
  no_incognito: z.boolean(),
  participants: z.looseObject({
    admins: z.array(SpaceParticipant),
    listeners: z.array(SpaceParticipant),
    speakers: z.array(SpaceParticipant),
    total: z.number().int(),
    poll_interval_sec: z.number().int(),
  }),
  primary_admin_user_id: z.string(),
  start: z.number().int(),
  state: z.string(),
  title: z.string().optional(),
  total_live_listeners: z.number().int(),
  total_participated: z.number().int(),
  total_replay_watched: z.number().int(),
  tweet_results: z.looseObject({ rest_id: z.string() }),
});

export const AudioSpace = z.looseObject({
  is_subscribed: z.boolean(),
  metadata: SpaceMetadata,
});
export type AudioSpace = z.infer<typeof AudioSpace>;

export const SpaceData = z.looseObject({
  data: z.looseObject({ audio_space_by_rest_id: AudioSpace }),
});
export type SpaceData = z.infer<typeof SpaceData>;

/* ------------------------------------------------------- trends, followers */

export const Trend = z.looseObject({
  name: z.string(),
  url: z.string(),
  query: z.string(),
  tweet_volume: z.number().nullable().optional(),
});
export type Trend = z.infer<typeof Trend>;

/** The spec shows the list-followers array empty only: accept any object. */
export const ListFollower = z.looseObject({});
export type ListFollower = z.infer<typeof ListFollower>;

/** Operations 10, 15, 16 have no documented success body: accept any object. */
export const UnknownObject = z.looseObject({});

export const PagingFields = z.looseObject({
  has_next_page: z.boolean(),
  next_cursor: z.string(),
});

/** The spec's validation error body (FastAPI shape). */
export const ValidationErrorBody = z.looseObject({
  detail: z.array(
    z.looseObject({
      loc: z.array(z.union([z.string(), z.number()])),
      msg: z.string(),
      type: z.string(),
    }),
  ),
});
export type ValidationErrorBody = z.infer<typeof ValidationErrorBody>;
