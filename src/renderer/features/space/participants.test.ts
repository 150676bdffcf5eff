import { describe, expect, it } from 'vitest';
import { spaceFixture } from '../../../shared/api/fixtures';
import type { AudioSpace, SpaceParticipant } from '../../../shared/api/schemas';
import {
  describeChanges,
  diffParticipants,
  groupParticipants,
  type Groups,
  type Person,
  type Role,
} from './participants';

const base = spaceFixture.data.audio_space_by_rest_id;
const template = base.metadata.participants.admins[0] as SpaceParticipant;

function p(id: string, extra: Partial<SpaceParticipant> = {}): SpaceParticipant {
  return {
    ...template,
    user_id: id,
    display_name: `Name ${id}`,
    social_screen_name: `h${id}`,
    is_muted_by_guest: false,
    user_results: { ...template.user_results, rest_id: id },
    ...extra,
  };
}

function space(admins: SpaceParticipant[], speakers: SpaceParticipant[], listeners: SpaceParticipant[]): AudioSpace {
  return {
    ...base,
    metadata: { ...base.metadata, participants: { ...base.metadata.participants, admins, speakers, listeners } },
  };
}

const person = (id: string, role: Role): Person => ({
  id,
  name: `Name ${id}`,
  handle: `h${id}`,
  avatarUrl: template.avatar_url,
  muted: false,
  role,
});
const groups = (admin: string[], speaker: string[], listener: string[]): Groups => ({
  admin: admin.map((id) => person(id, 'admin')),
  speaker: speaker.map((id) => person(id, 'speaker')),
  listener: listener.map((id) => person(id, 'listener')),
});

describe('groupParticipants', () => {
  it('groups people by role with name, handle, avatar and muted state', () => {
    const g = groupParticipants(
      space([p('1')], [p('2', { is_muted_by_admin: true })], [p('3', { is_muted_by_guest: true }), p('4')]),
    );
    expect(g.admin.map((x) => x.handle)).toEqual(['h1']);
    expect(g.speaker).toEqual([
      { id: '2', name: 'Name 2', handle: 'h2', avatarUrl: template.avatar_url, muted: true, role: 'speaker' },
    ]);
    expect(g.listener.map((x) => [x.id, x.muted])).toEqual([
      ['3', true],
      ['4', false],
    ]);
  });

  it('lists someone who appears twice once, under the higher role', () => {
    const g = groupParticipants(space([p('1')], [p('1'), p('2')], [p('2'), p('3')]));
    expect(g.admin.map((x) => x.id)).toEqual(['1']);
    expect(g.speaker.map((x) => x.id)).toEqual(['2']);
    expect(g.listener.map((x) => x.id)).toEqual(['3']);
  });

  it('falls back to the user result id when user_id is empty', () => {
    const g = groupParticipants(space([p('', { user_results: { ...template.user_results, rest_id: '77' } })], [], []));
    expect(g.admin[0]?.id).toBe('77');
  });
});

describe('diffParticipants', () => {
  it('highlights nothing on the first poll', () => {
    const d = diffParticipants(null, groups(['1'], ['2'], ['3']));
    expect(d.joined.size).toBe(0);
    expect(d.left).toEqual([]);
    expect(describeChanges(d)).toBe('');
  });

  it('finds who joined and who left since the previous poll', () => {
    const d = diffParticipants(groups(['1'], ['2'], ['3', '4']), groups(['1'], ['2', '5'], ['4', '6']));
    expect([...d.joined].sort()).toEqual(['5', '6']);
    expect(d.left.map((x) => [x.id, x.role])).toEqual([['3', 'listener']]);
    expect(d.moved.size).toBe(0);
    expect(describeChanges(d)).toBe('2 joined, 1 left');
  });

  it('reports a listener who became a speaker as a role change, not a join', () => {
    const d = diffParticipants(groups(['1'], [], ['2']), groups(['1'], ['2'], []));
    expect(d.joined.size).toBe(0);
    expect(d.left).toEqual([]);
    expect(d.moved.get('2')).toBe('listener');
    expect(describeChanges(d)).toBe('1 changed role');
  });

  it('sees no change between identical polls', () => {
    const g = groups(['1'], ['2'], ['3']);
    expect(describeChanges(diffParticipants(g, groups(['1'], ['2'], ['3'])))).toBe('');
  });
});
