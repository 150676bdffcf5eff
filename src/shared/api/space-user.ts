import type { SpaceUser } from './schemas';

/**
 * The spec's space user for someone known only by id, name, handle and avatar (what the live service's space
 * answers say of a participant): every other field of the documented shape at its neutral value.
 */
export function spaceUserOf(who: { id: string; name: string; handle: string; avatar: string }): SpaceUser {
  return {
    __typename: 'User',
    affiliates_highlighted_label: {},
    avatar: { image_url: who.avatar },
    core: { created_at_ms: 0, name: who.name, screen_name: who.handle },
    dm_permissions: { can_dm: false },
    exclusive_tweet_following: false,
    follow_request_sent: false,
    has_graduated_access: false,
    legacy: { profile_interstitial_type: '', want_retweets: false },
    media_permissions: { can_media_tag: false },
    notifications_settings: { notifications_enabled: false },
    parody_commentary_fan_label: '',
    pinned_items: { tweet_ids_str: [] },
    privacy: { protected: false, suspended: false },
    private_super_following: false,
    profile_bio: { description: '' },
    profile_image_shape: 'Circle',
    relationship_counts: { followers: 0, following: 0 },
    relationship_perspectives: {
      blocked_by: false,
      blocking: false,
      followed_by: false,
      following: false,
      live_following: false,
      muted_by: false,
      muting: false,
    },
    reply_device_following_v2: false,
    rest_id: who.id,
    smart_blocked_by: false,
    smart_blocking: false,
    super_follow_eligible: false,
    super_followed_by: false,
    super_following: false,
    verification: {
      is_blue_verified: false,
      is_verified_organization: false,
      is_verified_organization_affiliate: false,
      verified: false,
    },
  };
}
