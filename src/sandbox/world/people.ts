/** User objects in the two shapes the API uses: the post/profile `user` and the space `User`. */
import type { SpaceUser, User } from '../../shared/api';
import { mediaUrl } from '../media';
import { unit } from '../random';
import { formatCreatedAt } from './time';
import type { UserRecord } from './users';

export interface PeopleContext {
  /** the server's own origin, for media URLs (known once it listens) */
  origin: () => string;
  anchor: number;
  seed: number;
  users: readonly UserRecord[];
  postIds: readonly string[];
  /** number of posts the user wrote */
  statusesCount: (user: number) => number;
}

function profileUrl(userName: string): string {
  return `https://social.example/${userName}`;
}

/** `statusesCount` is null inside embedded post authors, an integer elsewhere */
export function renderUser(ctx: PeopleContext, u: UserRecord, withStatuses: boolean): User {
  const descriptionEntities: Record<string, unknown> = {};
  if (u.descriptionUrls.length) descriptionEntities.urls = u.descriptionUrls;
  if (u.descriptionMentions.length) {
    descriptionEntities.user_mentions = u.descriptionMentions.map((m) => {
      const other = ctx.users[m.index] as UserRecord;
      return { id_str: other.id, indices: m.indices, name: other.name, screen_name: other.userName };
    });
  }
  return {
    type: 'user',
    userName: u.userName,
    url: profileUrl(u.userName),
    id: u.id,
    name: u.name,
    isBlueVerified: u.verified,
    description: u.description,
    location: u.location,
    followers: u.followers,
    following: u.following,
    statusesCount: withStatuses ? ctx.statusesCount(u.index) : null,
    createdAt: formatCreatedAt(ctx.anchor - u.ageMs),
    profilePicture: mediaUrl(ctx.origin(), 'avatar', u.id, 'png'),
    coverPicture: u.hasCover ? mediaUrl(ctx.origin(), 'cover', u.id) : null,
    canDm: u.canDm,
    pinnedTweetIds: u.pinned >= 0 ? [ctx.postIds[u.pinned] as string] : [],
    profile_bio: {
      description: u.description,
      entities: {
        description: descriptionEntities,
        ...(u.website ? { url: { urls: [u.website] } } : {}),
      },
    },
  };
}

export function renderSpaceUser(ctx: PeopleContext, u: UserRecord): SpaceUser {
  const flag = (what: string, p: number): boolean => unit(ctx.seed, 'space-user', u.index, what) < p;
  return {
    __typename: 'User',
    affiliates_highlighted_label: {},
    avatar: { image_url: mediaUrl(ctx.origin(), 'avatar', u.id, 'png') },
    banner: { image_url: mediaUrl(ctx.origin(), 'cover', u.id) },
    core: { created_at_ms: Math.round(ctx.anchor - u.ageMs), name: u.name, screen_name: u.userName },
    dm_permissions: { can_dm: u.canDm },
    exclusive_tweet_following: false,
    follow_request_sent: false,
    has_graduated_access: true,
    legacy: { profile_interstitial_type: '', want_retweets: false },
    media_permissions: { can_media_tag: flag('tag', 0.7) },
    notifications_settings: { notifications_enabled: false },
    parody_commentary_fan_label: 'None',
    pinned_items: { tweet_ids_str: u.pinned >= 0 ? [ctx.postIds[u.pinned] as string] : [] },
    privacy: { protected: false, suspended: false },
    private_super_following: false,
    profile_bio: { description: u.description, entities: { description: {} } },
    profile_image_shape: 'Circle',
    relationship_counts: { followers: u.followers, following: u.following },
    relationship_perspectives: {
      blocked_by: false,
      blocking: false,
      followed_by: flag('followed_by', 0.1),
      following: flag('following', 0.2),
      live_following: false,
      muted_by: false,
      muting: false,
    },
    reply_device_following_v2: false,
    rest_id: u.id,
    smart_blocked_by: false,
    smart_blocking: false,
    super_follow_eligible: flag('super', 0.05),
    super_followed_by: false,
    super_following: false,
    verification: {
      is_blue_verified: u.verified,
      is_verified_organization: false,
      is_verified_organization_affiliate: false,
      verified: false,
    },
  };
}
