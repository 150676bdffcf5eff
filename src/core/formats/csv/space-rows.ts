/**
 * An audio space's two CSV tables: the space itself (one row) and its participants (one row per person and
 * role), read from the spec's shape and the live one (`normalizeSpace`).
 */
import { normalizeSpace } from '../../../shared/api/normalize/space';
import { csvId } from './id';
import type { Row, RowContext } from './table';
import { arr, bool, isoFromMs, num, obj, str, type Obj } from '../item-fields';

export const SPACE_COLUMNS = [
  'space_id',
  'title',
  'state',
  'started_at',
  'start_ms',
  'creator_user_id',
  'creator_screen_name',
  'tweet_id',
  'participants_total',
  'total_live_listeners',
  'total_participated',
  'total_replay_watched',
  'is_space_available_for_replay',
] as const;

function spaceMeta(raw: unknown): Obj {
  // the spec's nested object or the documented `{id, title, state, …}`: read as one shape
  return obj(obj(obj(obj(normalizeSpace(raw))?.data)?.audio_space_by_rest_id)?.metadata) ?? {};
}

function screenName(o: Obj | null): string | null {
  if (!o) return null;
  for (const [k, v] of Object.entries(o)) if (k.endsWith('screen_name') && typeof v === 'string') return v;
  return null;
}

export function spaceRow(raw: unknown, params: RowContext['params']): Row {
  const m = spaceMeta(raw);
  const creator = obj(obj(m.creator_results)?.result);
  return {
    space_id: csvId(str(params.space_id)),
    title: str(m.title),
    state: str(m.state),
    started_at: isoFromMs(m.start),
    start_ms: num(m.start),
    creator_user_id: csvId(str(m.creator_user_id)),
    creator_screen_name: screenName(obj(creator?.core)),
    tweet_id: csvId(str(obj(m.tweet_results)?.rest_id)),
    participants_total: num(obj(m.participants)?.total),
    total_live_listeners: num(m.total_live_listeners),
    total_participated: num(m.total_participated),
    total_replay_watched: num(m.total_replay_watched),
    is_space_available_for_replay: bool(m.is_space_available_for_replay),
  };
}

export const PARTICIPANT_COLUMNS = [
  'space_id',
  'role',
  'user_id',
  'screen_name',
  'display_name',
  'followers',
  'is_blue_verified',
  'is_muted_by_admin',
  'is_muted_by_guest',
  'avatar_url',
] as const;

export function participantRows(raw: unknown, params: RowContext['params']): Row[] {
  const parts = obj(spaceMeta(raw).participants) ?? {};
  const rows: Row[] = [];
  for (const [role, key] of [
    ['admin', 'admins'],
    ['speaker', 'speakers'],
    ['listener', 'listeners'],
  ] as const) {
    for (const entry of arr(parts[key])) {
      const e = obj(entry) ?? {};
      const user = obj(obj(e.user_results)?.result);
      rows.push({
        space_id: csvId(str(params.space_id)),
        role,
        user_id: csvId(str(e.user_id)),
        screen_name: screenName(e),
        display_name: str(e.display_name),
        followers: num(obj(user?.relationship_counts)?.followers),
        is_blue_verified: bool(obj(user?.verification)?.is_blue_verified),
        is_muted_by_admin: bool(e.is_muted_by_admin),
        is_muted_by_guest: bool(e.is_muted_by_guest),
        avatar_url: str(e.avatar_url),
      });
    }
  }
  return rows;
}
