import { describe, expect, it } from 'vitest';
import { searchTerms } from './search-terms';

describe('the archive search box read as chips', () => {
  it('shows each term in plain words, and removing one rewrites the text without it', () => {
    const t = searchTerms('"big storm" (heron OR egret) AND -rain from:@Ada min_likes:10 has:media');
    expect(t.ok && t.chips.map((c) => c.label)).toEqual([
      '“big storm”',
      'heron or egret',
      'Without rain',
      'From @ada',
      'At least 10 likes',
      'With media',
    ]);
    expect(t.ok && t.chips[2]!.without).toBe('"big storm" (heron OR egret) from:@Ada min_likes:10 has:media');
    expect(t.ok && t.chips[1]!.without).toBe('"big storm" -rain from:@Ada min_likes:10 has:media');
    // the text without a chip reads as the other chips
    const after = searchTerms(t.ok ? t.chips[0]!.without : '');
    expect(after.ok && after.chips.map((c) => c.label)).toEqual(t.ok ? t.chips.slice(1).map((c) => c.label) : []);
  });

  it('an OR of everything is one chip; nothing typed, none', () => {
    const t = searchTerms('a OR is:reply');
    expect(t.ok && t.chips).toEqual([{ label: 'a or Replies', without: '' }]);
    expect(searchTerms('  ')).toEqual({ ok: true, chips: [] });
  });

  it('says in plain words where the text cannot be read', () => {
    expect(searchTerms('heron "big storm')).toEqual({
      ok: false,
      position: 6,
      message: 'Expected a closing quote for the quote at character 7.',
    });
  });
});
