import { describe, expect, it } from 'vitest';
import { spaceFixture, userFixture } from '../../shared/api/fixtures';
import { entryView, flattenEntry, looksLikeUser } from './entry-shape';

describe('looksLikeUser', () => {
  it('recognises the canonical user, a space participant and a legacy user', () => {
    expect(looksLikeUser(userFixture)?.handle).toBe(userFixture.userName);
    const participant = spaceFixture.data.audio_space_by_rest_id.metadata.participants.admins[0];
    expect(looksLikeUser(participant)).toEqual({
      id: '99',
      handle: 'host',
      name: 'Host',
      avatarUrl: 'https://img.example/a.png',
      description: null,
    });
    expect(
      looksLikeUser({
        id_str: '12',
        screen_name: '@ada',
        name: 'Ada',
        profile_image_url_https: 'https://i.example/a.jpg',
      }),
    ).toEqual({
      id: '12',
      handle: 'ada',
      name: 'Ada',
      avatarUrl: 'https://i.example/a.jpg',
      description: null,
    });
  });

  it('finds a user wrapped as user_results.result with core names', () => {
    const wrapped = {
      user_results: {
        result: {
          rest_id: '5',
          core: { screen_name: 'bob', name: 'Bob' },
          avatar: { image_url: 'https://i.example/b.png' },
        },
      },
    };
    expect(looksLikeUser(wrapped)).toEqual({
      id: '5',
      handle: 'bob',
      name: 'Bob',
      avatarUrl: 'https://i.example/b.png',
      description: null,
    });
  });

  it('says no to things that are not people', () => {
    for (const v of [
      null,
      'ada',
      42,
      [],
      {},
      { id: '1' },
      { screen_name: 'ada' },
      { id: 'abc', screen_name: 'ada' },
      { id: '1', screen_name: 'not a handle!' },
    ]) {
      expect(looksLikeUser(v)).toBeNull();
    }
  });

  it('drops an avatar that is not a web address', () => {
    expect(looksLikeUser({ id: '1', userName: 'a', profilePicture: 'javascript:alert(1)' })?.avatarUrl).toBeNull();
  });
});

describe('flattenEntry', () => {
  it('lays out nested fields as dotted keys', () => {
    expect(flattenEntry({ a: 1, b: { c: 'x', d: [true, null] }, e: [], f: {} })).toEqual([
      { key: 'a', value: '1' },
      { key: 'b.c', value: 'x' },
      { key: 'b.d[0]', value: 'true' },
      { key: 'b.d[1]', value: 'null' },
      { key: 'e', value: 'empty list' },
      { key: 'f', value: 'empty' },
    ]);
  });

  it('stays bounded for deep, wide or long entries', () => {
    expect(flattenEntry({ a: { b: { c: 1 } } }, { maxDepth: 1 })).toEqual([{ key: 'a', value: '1 fields' }]);
    const wide = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, i]));
    const rows = flattenEntry(wide, { maxRows: 3 });
    expect(rows).toHaveLength(4);
    expect(rows[3]).toEqual({ key: '…', value: '47 more fields' });
    expect(flattenEntry({ t: 'x'.repeat(500) }, { maxValueLength: 10 })[0]?.value).toBe(`${'x'.repeat(9)}…`);
  });

  it('shows markup as plain text values', () => {
    expect(flattenEntry({ bio: '<img src=x onerror=alert(1)>' })).toEqual([
      { key: 'bio', value: '<img src=x onerror=alert(1)>' },
    ]);
  });
});

describe('entryView', () => {
  it('picks the user card, then a person row, then fields', () => {
    expect(entryView(userFixture).kind).toBe('user');
    expect(entryView({ id: '3', screen_name: 'c' }).kind).toBe('userLike');
    expect(entryView({ note: 'hello' })).toEqual({ kind: 'fields', rows: [{ key: 'note', value: 'hello' }] });
  });
});
