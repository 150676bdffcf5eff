/**
 * A space's participants as the page shows them (one flat shape per person,
 * grouped by role), and what changed between two polls: who joined, who
 * left and who changed role. Pure: the page keeps the previous poll and asks.
 */
import type { AudioSpace, SpaceParticipant } from '../../../shared/api/schemas';

export type Role = 'admin' | 'speaker' | 'listener';
export const ROLES: readonly Role[] = ['admin', 'speaker', 'listener'];
export const ROLE_LABELS: Record<Role, string> = { admin: 'Admins', speaker: 'Speakers', listener: 'Listeners' };

export interface Person {
  id: string;
  name: string;
  handle: string;
  avatarUrl: string;
  muted: boolean;
  role: Role;
}

export type Groups = Record<Role, Person[]>;

function person(p: SpaceParticipant, role: Role): Person {
  return {
    id: p.user_id || p.user_results.rest_id,
    name: p.display_name,
    handle: p.social_screen_name,
    avatarUrl: p.avatar_url,
    muted: p.is_muted_by_admin || p.is_muted_by_guest,
    role,
  };
}

/** Participants grouped by role; someone listed twice keeps the highest role. */
export function groupParticipants(space: AudioSpace): Groups {
  const { admins, speakers, listeners } = space.metadata.participants;
  const seen = new Set<string>();
  const take = (list: readonly SpaceParticipant[], role: Role): Person[] => {
    const out: Person[] = [];
    for (const p of list) {
      const one = person(p, role);
      if (seen.has(one.id)) continue;
      seen.add(one.id);
      out.push(one);
    }
    return out;
  };
  const admin = take(admins, 'admin');
  const speaker = take(speakers, 'speaker');
  const listener = take(listeners, 'listener');
  return { admin, speaker, listener };
}

export interface ParticipantDiff {
  /** ids present now that were not in the previous poll */
  joined: ReadonlySet<string>;
  /** people of the previous poll who are gone now (with the role they had) */
  left: readonly Person[];
  /** ids present in both polls whose role changed, with the role they had */
  moved: ReadonlyMap<string, Role>;
}

const NO_CHANGES: ParticipantDiff = { joined: new Set(), left: [], moved: new Map() };

function index(groups: Groups): Map<string, Person> {
  const out = new Map<string, Person>();
  for (const role of ROLES) for (const p of groups[role]) out.set(p.id, p);
  return out;
}

/** What changed from `previous` to `current`; nothing when there is no previous poll. */
export function diffParticipants(previous: Groups | null, current: Groups): ParticipantDiff {
  if (!previous) return NO_CHANGES;
  const before = index(previous);
  const now = index(current);
  const joined = new Set<string>();
  const moved = new Map<string, Role>();
  for (const [id, p] of now) {
    const was = before.get(id);
    if (!was) joined.add(id);
    else if (was.role !== p.role) moved.set(id, was.role);
  }
  const left = [...before.values()].filter((p) => !now.has(p.id));
  return { joined, left, moved };
}

/** "3 joined, 1 left" — the line a screen reader announces after a poll; empty when nothing changed. */
export function describeChanges(diff: ParticipantDiff): string {
  const parts: string[] = [];
  if (diff.joined.size) parts.push(`${diff.joined.size} joined`);
  if (diff.left.length) parts.push(`${diff.left.length} left`);
  if (diff.moved.size) parts.push(`${diff.moved.size} changed role`);
  return parts.join(', ');
}
