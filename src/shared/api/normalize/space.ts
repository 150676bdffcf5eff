/**
 * Audio space: the spec nests it as `data.data.audio_space_by_rest_id`; the
 * vendor's current documentation shows `data: {id, title, state, created_at,
 * scheduled_start, settings, stats, creator, participants: {admins, speakers,
 * listeners}}` with states `NotStarted`, `Live`, `Ended`. Both read into the
 * spec's shape (`Live` is the spec's `Running`); the documented fields are kept
 * on the metadata. People in the documented shape carry a few facts only: the
 * spec's user record is filled with neutral values for what they do not say
 * (the view shows only name, handle and avatar; the export keeps the raw answer).
 */
import { spaceUserOf } from '../space-user';
import { bool, epochMs, idString, isObject, str, toInt, type Obj } from './values';
import { scalarText } from '../../scalar-text';

const STATES: Record<string, string> = {
  Live: 'Running',
  Running: 'Running',
  NotStarted: 'NotStarted',
  Ended: 'Ended',
};

function isSpecShape(v: unknown): boolean {
  return isObject(v) && isObject(v.data) && isObject(v.data.audio_space_by_rest_id);
}

function first(o: Obj, keys: readonly string[]): string {
  for (const k of keys) {
    const v = o[k];
    if (typeof v === 'string' && v !== '') return v;
    if (typeof v === 'number' && Number.isSafeInteger(v)) return String(v);
  }
  return '';
}

interface Person {
  id: string;
  name: string;
  handle: string;
  avatar: string;
  muted: boolean;
}

function person(v: unknown): Person | null {
  if (!isObject(v)) return null;
  const inner = isObject(v.user) ? v.user : v;
  const layers = [v, inner];
  const pick = (keys: readonly string[]) => layers.map((o) => first(o, keys)).find((s) => s !== '') ?? '';
  const id = String(idString(pick(['user_id', 'id', 'rest_id', 'id_str'])));
  const handle = pick(['screen_name', 'userName', 'username', 'social_screen_name', 'twitter_screen_name']);
  if (!/^\d+$/.test(id) && handle === '') return null;
  return {
    id,
    name: pick(['display_name', 'name']) || handle,
    handle,
    avatar: pick(['avatar_url', 'profilePicture', 'profile_image_url_https', 'profile_image_url']),
    muted: bool(v.is_muted_by_admin, false) || bool(v.is_muted, false),
  };
}

function participant(v: unknown): Obj | null {
  const p = person(v);
  if (!p) return null;
  return {
    ...(isObject(v) ? v : {}),
    avatar_url: p.avatar,
    display_name: p.name,
    is_muted_by_admin: p.muted,
    is_muted_by_guest: false,
    social_screen_name: p.handle,
    user_id: p.id,
    user_results: { rest_id: p.id, result: spaceUserOf(p) },
  };
}

const list = (v: unknown): Obj[] => (Array.isArray(v) ? v.map(participant).filter((x): x is Obj => x !== null) : []);

/** The canonical `SpaceData` from either shape; anything else is given back as it is (and fails the schema). */
export function normalizeSpace(v: unknown): unknown {
  if (!isObject(v) || isSpecShape(v)) return v;
  const id = idString(v.id ?? v.rest_id ?? v.space_id);
  const stateWord = str(v.state, '');
  if (typeof id !== 'string' || id === '' || stateWord === '') return v;
  const creatorPerson = person(v.creator) ?? { id: '', name: '', handle: '', avatar: '', muted: false };
  const parts = isObject(v.participants) ? v.participants : {};
  const stats = isObject(v.stats) ? v.stats : {};
  const settings = isObject(v.settings) ? v.settings : {};
  const admins = list(parts.admins);
  const speakers = list(parts.speakers);
  const listeners = list(parts.listeners);
  const count = (...keys: string[]) => keys.map((k) => toInt(stats[k] ?? v[k])).find((n) => n !== undefined) ?? 0;
  const state = STATES[stateWord] ?? stateWord;
  const started = epochMs(v.started_at ?? v.start ?? (state === 'NotStarted' ? v.scheduled_start : v.created_at));
  const metadata: Obj = {
    ...v,
    conversation_controls: 0,
    creator_results: { rest_id: creatorPerson.id, result: spaceUserOf(creatorPerson) },
    creator_user_id: creatorPerson.id,
    disallow_join: false,
    is_muted: false,
    is_space_available_for_clipping: bool(settings.is_space_available_for_clipping, false),
    is_space_available_for_replay: bool(settings.is_space_available_for_replay ?? settings.replay_enabled, false),
    max_admin_capacity: 0,
    media_key: str(v.media_key, ''),
    narrow_cast_space_type: 0,
    no_incognito: false,
    participants: {
      admins,
      speakers,
      listeners,
      total: toInt(parts.total) ?? admins.length + speakers.length + listeners.length,
      poll_interval_sec: toInt(parts.poll_interval_sec) ?? 5,
    },
    primary_admin_user_id: creatorPerson.id,
    start: started,
    state,
    title: str(v.title, ''),
    total_live_listeners: count('total_live_listeners', 'live_listeners'),
    total_participated: count('total_participated', 'total_participants', 'participant_count'),
    total_replay_watched: count('total_replay_watched', 'replay_watched'),
    tweet_results: { rest_id: scalarText(idString(v.tweet_id)) },
  };
  const ended = epochMs(v.ended_at);
  if (ended > 0) metadata.ended_at = ended;
  return { data: { audio_space_by_rest_id: { is_subscribed: bool(v.is_subscribed, false), metadata } } };
}
