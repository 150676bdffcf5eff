/**
 * Audio spaces. A running space's speakers and listeners are a pure function
 * of the sandbox clock: each pool member has its own period and phase and is
 * present in some of its time slots, so polling every few seconds shows people
 * joining and leaving, and two sandboxes at the same clock agree.
 */
import type { AudioSpace, SpaceParticipant } from '../../shared/api';
import { mediaUrl } from '../media';
import { Rng, unit } from '../random';
import { renderSpaceUser, type PeopleContext } from './people';
import type { UserRecord } from './users';
import { DAY_MS } from './time';

export type SpaceState = 'Running' | 'Ended' | 'NotStarted';

export interface SpaceRecord {
  index: number;
  id: string;
  title: string;
  state: SpaceState;
  creator: number;
  cohost: number;
  /** epoch ms: started (or scheduled to start) */
  start: number;
  ended: number | null;
  speakerPool: number[];
  listenerPool: number[];
  /** the creator's post announcing the space (post index) */
  post: number;
  mediaKey: string;
  replayWatched: number;
}

export const POLL_INTERVAL_SEC = 5;
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const STATES: readonly SpaceState[] = ['Running', 'Ended', 'Running', 'NotStarted', 'Ended', 'Ended'];
const TITLES = [
  'Open source office hours',
  'Markets after the bell',
  'Design critique night',
  'Late night jazz talk',
  'Climate tech roundtable',
  'Indie game devs AMA',
  'Morning coffee chat',
  'Election night live',
];

export function buildSpaces(
  seed: number,
  count: number,
  now: number,
  users: number,
  postOf: (user: number) => number,
): SpaceRecord[] {
  const hour = Math.floor(now / HOUR) * HOUR;
  const day = Math.floor(now / DAY_MS) * DAY_MS;
  return Array.from({ length: count }, (_, s) => {
    const rng = new Rng(seed, 'space', s);
    const state = STATES[s % STATES.length] as SpaceState;
    const creator = s === 0 ? 0 : rng.int(Math.min(users, 200));
    const pool = (n: number): number[] => {
      const out = new Set<number>();
      while (out.size < Math.min(n, users - 2)) {
        const u = rng.int(users);
        if (u !== creator) out.add(u);
      }
      return [...out];
    };
    const start =
      state === 'Running'
        ? hour - (40 + s * 7) * MINUTE
        : state === 'Ended'
          ? day - (1 + s) * DAY_MS + 18 * HOUR
          : day + 2 * DAY_MS + 19 * HOUR;
    const speakerPool = pool(8);
    return {
      index: s,
      id: `1${rng.chars(12)}`,
      title: TITLES[s % TITLES.length] as string,
      state,
      creator,
      cohost: speakerPool[0] as number,
      start,
      ended: state === 'Ended' ? start + HOUR + rng.int(90) * MINUTE : null,
      speakerPool: speakerPool.slice(1),
      listenerPool: pool(Math.min(140, users - 10)),
      post: postOf(creator),
      mediaKey: `28_${1_800_000_000_000_000_000n + BigInt(rng.int(1e9))}`,
      replayWatched: state === 'Ended' ? rng.heavy(800) : 0,
    };
  });
}

/** true when pool member `u` is in the space at time `t` */
function present(
  seed: number,
  space: SpaceRecord,
  role: string,
  u: number,
  t: number,
  p: number,
  minPeriod: number,
): boolean {
  const period = minPeriod + Math.floor(unit(seed, space.id, role, u, 'period') * 3 * minPeriod);
  const phase = Math.floor(unit(seed, space.id, role, u, 'phase') * period);
  const slot = Math.floor((t - space.start + phase) / period);
  return unit(seed, space.id, role, u, slot) < p;
}

export function renderSpace(ctx: PeopleContext, space: SpaceRecord, t: number): AudioSpace {
  const users = ctx.users;
  const user = (u: number): UserRecord => users[u] as UserRecord;
  const participant = (u: number, muted: boolean): SpaceParticipant => ({
    avatar_url: mediaUrl(ctx.origin(), 'avatar', user(u).id, 'png'),
    display_name: user(u).name,
    is_muted_by_admin: false,
    is_muted_by_guest: muted,
    social_screen_name: user(u).userName,
    user_id: user(u).id,
    user_results: { rest_id: user(u).id, result: renderSpaceUser(ctx, user(u)) },
  });
  const live = space.state === 'Running' && t >= space.start;
  const seed = ctx.seed;
  const slotMuted = (u: number): boolean => unit(seed, space.id, 'mute', u, Math.floor(t / 30_000)) < 0.3;
  const admins = [participant(space.creator, false)];
  const speakers: SpaceParticipant[] = [];
  const listeners: SpaceParticipant[] = [];
  if (live) {
    if (present(seed, space, 'cohost', space.cohost, t, 0.85, 5 * MINUTE))
      admins.push(participant(space.cohost, slotMuted(space.cohost)));
    for (const u of space.speakerPool)
      if (present(seed, space, 'speaker', u, t, 0.45, 45_000)) speakers.push(participant(u, slotMuted(u)));
    for (const u of space.listenerPool)
      if (present(seed, space, 'listener', u, t, 0.55, 20_000)) listeners.push(participant(u, true));
  }
  const elapsedMin = Math.max(0, Math.floor(((space.ended ?? t) - space.start) / MINUTE));
  const creator = user(space.creator);
  return {
    is_subscribed: false,
    metadata: {
      conversation_controls: 0,
      creator_results: { rest_id: creator.id, result: renderSpaceUser(ctx, creator) },
      creator_user_id: creator.id,
      disallow_join: space.state !== 'Running',
      is_muted: false,
      is_space_available_for_clipping: space.state === 'Running',
      is_space_available_for_replay: space.state === 'Ended',
      max_admin_capacity: 10,
      media_key: space.mediaKey,
      narrow_cast_space_type: 0,
      no_incognito: false,
      participants: {
        admins: live || space.state !== 'Running' ? admins : [],
        listeners,
        speakers,
        total: live ? admins.length + speakers.length + listeners.length : 0,
        poll_interval_sec: POLL_INTERVAL_SEC,
      },
      primary_admin_user_id: creator.id,
      start: space.start,
      ...(space.state === 'NotStarted' ? { scheduled_start: space.start } : {}),
      ...(space.ended !== null ? { ended_at: String(space.ended) } : {}),
      state: space.state,
      title: space.title,
      total_live_listeners: live ? listeners.length : 0,
      total_participated: space.state === 'NotStarted' ? 0 : 3 + elapsedMin * 4 + (space.index % 7),
      total_replay_watched: space.replayWatched,
      tweet_results: { rest_id: ctx.postIds[space.post] as string },
    },
  };
}
