/**
 * The facts at the top of a space's page, read from the API's object: what
 * it is, whether it is live, how long it has run, who hosts it and how many
 * people take part. Pure; "now" is passed in so durations can be tested.
 */
import { ownValue } from '../../../shared/own';
import type { AudioSpace } from '../../../shared/api/schemas';
import { humanize } from '../../lib/plain-words';

export interface SpaceSummary {
  title: string;
  state: string;
  /** "Live", "Ended", "Scheduled", or the API's word split into words */
  stateLabel: string;
  /** the API says it is running: polling makes sense */
  live: boolean;
  /** epoch ms; null when the API sends none */
  start: number | null;
  /** epoch ms when it ended, when the API says so */
  ended: number | null;
  /** how long it has run (to now when live, to its end when ended); null before it starts */
  durationMs: number | null;
  host: { id: string; name: string; handle: string; avatarUrl: string | null };
  counts: {
    admins: number;
    speakers: number;
    listeners: number;
    liveListeners: number;
    participated: number;
    replays: number;
  };
  pollIntervalSec: number;
}

const STATE_LABELS: Record<string, string> = {
  Running: 'Live',
  Ended: 'Ended',
  NotStarted: 'Scheduled',
  Canceled: 'Cancelled',
};

function readEpoch(value: unknown): number | null {
  if (typeof value === 'number' && Number.isFinite(value) && value > 0) return value;
  if (typeof value === 'string' && /^\d{9,}$/.test(value)) return Number(value);
  return null;
}

export function summarizeSpace(space: AudioSpace, now: number): SpaceSummary {
  const m = space.metadata;
  const live = m.state === 'Running';
  const start = readEpoch(m.start);
  const ended = readEpoch((m as Record<string, unknown>).ended_at);
  const until = ended ?? (live ? now : null);
  const durationMs = start !== null && until !== null && until >= start ? until - start : null;
  const creator = m.creator_results.result;
  return {
    title: m.title?.trim() || 'Untitled space',
    state: m.state,
    stateLabel: ownValue(STATE_LABELS, m.state) ?? humanize(m.state),
    live,
    start,
    ended,
    durationMs,
    host: {
      id: m.creator_results.rest_id || m.creator_user_id,
      name: creator.core.name,
      handle: creator.core.screen_name,
      avatarUrl: creator.avatar.image_url || null,
    },
    counts: {
      admins: m.participants.admins.length,
      speakers: m.participants.speakers.length,
      listeners: m.participants.listeners.length,
      liveListeners: m.total_live_listeners,
      participated: m.total_participated,
      replays: m.total_replay_watched,
    },
    pollIntervalSec: m.participants.poll_interval_sec,
  };
}

/** "42 s", "5 min", "1 h 23 min", "2 d 3 h". */
export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s} s`;
  const min = Math.floor(s / 60);
  if (min < 60) return `${min} min`;
  const h = Math.floor(min / 60);
  if (h < 24) return min % 60 ? `${h} h ${min % 60} min` : `${h} h`;
  const d = Math.floor(h / 24);
  return h % 24 ? `${d} d ${h % 24} h` : `${d} d`;
}

/** "updated just now", "updated 4 s ago", "updated 2 min ago". */
export function updatedAgo(fetchedAt: number, now: number): string {
  const s = Math.max(0, Math.floor((now - fetchedAt) / 1000));
  if (s < 1) return 'updated just now';
  if (s < 60) return `updated ${s} s ago`;
  return `updated ${formatDuration(now - fetchedAt)} ago`;
}
