/**
 * Community info: the spec nests it as `data.data.community_results_by_rest_id`;
 * the live service answers with a top-level `community_info` object (about 19 keys:
 * `id`, `name`, `description`, `member_count`, `moderator_count`, `created_at`,
 * `join_policy`, `rules`, `banner_url`, `creator`, `admin`, `members_preview`, …).
 * Both read into the spec's shape; every live key is kept on the community.
 */
import { normalizeUser } from './user';
import { bool, epochMs, idString, isObject, str, toInt, type Obj } from './values';
import { scalarText } from '../../scalar-text';

/** the object an answer's community is read from (the raw item an export keeps), or undefined */
export function communitySource(body: Obj): unknown {
  if (isObject(body.community_info)) return body.community_info;
  if (isObject(body.data) && isObject(body.data.community_info)) return body.data.community_info;
  return body.data;
}

/** a live user (creator, admin) as the spec's `{__typename, …}` result; undefined when there is none */
function userResult(v: unknown): Obj | undefined {
  if (!isObject(v)) return undefined;
  const u = normalizeUser(v) as Obj;
  return { __typename: 'User', ...u, screen_name: u.userName };
}

function banner(url: unknown): Obj | undefined {
  if (typeof url !== 'string' || url === '') return undefined;
  const info = { __typename: 'ApiImage', original_img_url: url, original_img_width: 0, original_img_height: 0 };
  return { result: { __typename: 'ApiMedia', id: '', media_info: info } };
}

function isSpecShape(v: unknown): boolean {
  return isObject(v) && isObject(v.data) && isObject(v.data.community_results_by_rest_id);
}

/** The canonical `CommunityData` from either shape; anything else is given back as it is (and fails the schema). */
export function normalizeCommunity(v: unknown): unknown {
  if (!isObject(v) || isSpecShape(v)) return v;
  const c = isObject(v.community_info) ? v.community_info : v;
  const id = idString(c.id ?? c.rest_id ?? c.community_id);
  if (typeof id !== 'string' || typeof c.name !== 'string') return v;
  const rules = (Array.isArray(c.rules) ? c.rules : [])
    .filter(isObject)
    .map((r) => ({ ...r, name: str(r.name, ''), rest_id: scalarText(idString(r.rest_id ?? r.id)) }))
    .filter((r) => r.name !== '');
  const creator = userResult(c.creator) ?? userResult(c.admin);
  const result: Obj = {
    ...c,
    __typename: 'Community',
    rest_id: id,
    name: c.name,
    description: str(c.description, ''),
    created_at: epochMs(c.created_at),
    member_count: toInt(c.member_count) ?? 0,
    moderator_count: toInt(c.moderator_count) ?? 0,
    is_pinned: bool(c.is_pinned, false),
    role: str(c.role, ''),
    rules,
    actions: isObject(c.actions) ? c.actions : {},
    creator_results: creator ? { result: creator } : {},
  };
  const custom = banner(c.banner_url);
  if (custom) result.custom_banner_media_results = custom;
  return { data: { community_results_by_rest_id: { rest_id: id, result } } };
}
