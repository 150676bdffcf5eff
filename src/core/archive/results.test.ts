import { describe, expect, it } from 'vitest';
import { hitsOf, type HitRow } from './results';

const row = (id: string, raw: string): HitRow => ({
  rowid: Number(id),
  kind: 'post',
  id,
  raw,
  first_seen: 1,
  last_seen: 2,
  requests: 1,
});

describe('a page of the archive’s hits', () => {
  it('lists an item whose kept JSON no longer reads where it falls, said so, with its provenance', () => {
    const page = hitsOf(
      [
        row('1', JSON.stringify({ id: '1', text: '<b>kept</b>', author: { userName: 'ana' } })),
        row('2', '{not json'),
        row('3', JSON.stringify({ id: '3', text: 'after' })),
      ],
      0,
      10,
      5,
    );
    expect(page.hits.map((h) => [h.id, h.unread ?? false])).toEqual([
      ['1', false],
      ['2', true],
      ['3', false],
    ]);
    expect(page.hits[1]).toMatchObject({ item: null, firstSeen: 1, lastSeen: 2, requests: 1 });
    expect(page.hits[0]?.item).toMatchObject({ text: '<b>kept</b>' });
  });
});
