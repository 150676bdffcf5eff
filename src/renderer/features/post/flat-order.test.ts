import { describe, expect, it } from 'vitest';
import { flatSort, sortFlat } from './flat-order';

const at = (iso: string) =>
  new Date(iso).toUTCString().replace(/^(\w+), (\d+) (\w+) (\d+) ([\d:]+) GMT$/, '$1 $3 $2 $5 +0000 $4');

// a depth-first page as the API sends it: a reply, then its (newer) answers, then an older reply
const page1 = [
  { id: '105', createdAt: at('2026-11-22T10:00:00Z'), likeCount: 3 },
  { id: '109', createdAt: at('2026-11-22T12:00:00Z'), likeCount: 9 },
  { id: '103', createdAt: at('2026-11-22T09:00:00Z'), likeCount: 0 },
];
const page2 = [
  { id: '111', createdAt: at('2026-11-22T13:00:00Z'), likeCount: 1 },
  { id: '104', createdAt: 'not a date', likeCount: 5 },
  { id: '100', createdAt: at('2026-11-22T08:00:00Z') },
];

describe('the flat reply list', () => {
  it('is newest first for Latest, exactly, and stays so as a page brings newer replies', () => {
    expect(flatSort('Latest', false)).toBe('newest');
    expect(sortFlat(page1, 'newest').map((p) => p.id)).toEqual(['109', '105', '103']);
    // the next page holds a reply newer than all of them: it goes on top, an unreadable time goes last
    expect(sortFlat([...page1, ...page2], 'newest').map((p) => p.id)).toEqual([
      '111',
      '109',
      '105',
      '103',
      '100',
      '104',
    ]);
  });

  it('is oldest first when asked, most liked first for Likes, and the service ranking for Relevance', () => {
    expect(flatSort('Latest', true)).toBe('oldest');
    expect(sortFlat([...page1, ...page2], 'oldest').map((p) => p.id)).toEqual([
      '100',
      '103',
      '105',
      '109',
      '111',
      '104',
    ]);
    expect(flatSort('Likes', false)).toBe('likes');
    expect(sortFlat([...page1, ...page2], 'likes').map((p) => p.id)).toEqual([
      '109',
      '104',
      '105',
      '111',
      '103',
      '100',
    ]);
    expect(flatSort('Relevance', false)).toBe('service');
    expect(sortFlat(page1, 'service')).toEqual(page1);
  });

  it('sorts without touching what it was given', () => {
    const given = [...page1];
    sortFlat(given, 'newest');
    expect(given).toEqual(page1);
  });
});
