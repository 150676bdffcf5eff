/**
 * What the community page shows, read from the API's object: the banner
 * (custom, else default), counts, role, and whether joining or leaving is
 * possible and why not, in plain words.
 */
import type { Community, CommunityData } from '../../../shared/api/schemas';
import { reasonSentence, roleLabel } from '../../lib/plain-words';

export interface Banner {
  url: string;
  width: number;
  height: number;
  kind: 'custom' | 'default';
}

export interface ActionAvailability {
  available: boolean;
  /** plain-words explanation; empty when available and nothing more is said */
  text: string;
}

export interface CommunitySummary {
  id: string;
  name: string;
  description: string;
  createdAt: number | null;
  members: number;
  moderators: number;
  pinned: boolean;
  role: string;
  banner: Banner | null;
  join: ActionAvailability;
  leave: ActionAvailability;
  /** rule names, in the API's order (shown numbered) */
  rules: Array<{ id: string; name: string }>;
  /** the creator, when the API says anything readable about them */
  creator: string | null;
  /** who may join (`Open`, `Closed`, …): the live `community_info` says it instead of join/leave actions */
  joinPolicy: string | null;
  /** whether the API said anything about joining or leaving (the live shape does not) */
  membershipSaid: boolean;
}

type BannerResults = Community['custom_banner_media_results'];

function banner(results: BannerResults, kind: Banner['kind']): Banner | null {
  const info = results?.result?.media_info;
  if (!info || !/^https?:\/\//i.test(info.original_img_url)) return null;
  return { url: info.original_img_url, width: info.original_img_width, height: info.original_img_height, kind };
}

type ActionResult = Community['actions']['join_action_result'];

/** An `...Unavailable` result is a no with its reason; anything else is a yes. */
export function availability(result: ActionResult, verb: 'join' | 'leave'): ActionAvailability {
  if (!result) return { available: false, text: `The API does not say whether the account can ${verb}.` };
  const unavailable = /unavailable/i.test(result.__typename);
  if (!unavailable) return { available: true, text: result.message?.trim() ?? '' };
  const why = result.reason ? reasonSentence(result.reason) : result.message?.trim() || 'No reason given.';
  return { available: false, text: why };
}

export function summarizeCommunity(data: CommunityData): CommunitySummary {
  const wrapper = data.data.community_results_by_rest_id;
  const c = wrapper.result;
  const creator = c.creator_results.result;
  const creatorName =
    creator && !/unavailable/i.test(creator.__typename)
      ? ((['name', 'screen_name', 'userName']
          .map((k) => (creator as Record<string, unknown>)[k])
          .find((v) => typeof v === 'string' && v) as string | undefined) ?? null)
      : null;
  return {
    id: c.rest_id || wrapper.rest_id,
    name: c.name,
    description: c.description,
    createdAt: Number.isFinite(c.created_at) && c.created_at > 0 ? c.created_at : null,
    members: c.member_count,
    moderators: c.moderator_count,
    pinned: c.is_pinned,
    role: roleLabel(c.role),
    banner: banner(c.custom_banner_media_results, 'custom') ?? banner(c.default_banner_media_results, 'default'),
    join: availability(c.actions.join_action_result, 'join'),
    leave: availability(c.actions.leave_action_result, 'leave'),
    rules: c.rules.map((r) => ({ id: r.rest_id, name: r.name })),
    creator: creatorName,
    membershipSaid: Boolean(c.actions.join_action_result ?? c.actions.leave_action_result),
    joinPolicy:
      typeof (c as Record<string, unknown>).join_policy === 'string'
        ? ((c as Record<string, unknown>).join_policy as string)
        : null,
  };
}
