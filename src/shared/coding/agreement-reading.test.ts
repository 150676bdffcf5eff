import { describe, expect, it } from 'vitest';
import { alphaVerdict, itemsFor, readAgreement, widthWords } from './agreement-reading';

const row = (alpha: number | null, interval: { low: number; high: number } | null, units = 20) => ({
  levels: ['nominal'] as const,
  alpha: { nominal: alpha },
  interval,
  units,
});

describe('agreement read in words', () => {
  it('reads α by the usual convention, and says it is one', () => {
    expect(alphaVerdict(0.8)).toBe('reliable');
    expect(alphaVerdict(0.799)).toBe('tentative');
    expect(alphaVerdict(0.667)).toBe('tentative');
    expect(alphaVerdict(0.666)).toBe('not-reliable');
    const r = readAgreement(row(0.706, { low: 0.397, high: 0.926 }));
    expect(r.verdict).toBe('tentative');
    expect(r.short).toBe('tentative conclusions only');
    expect(r.sentences[0]).toContain('α 0.706: tentative conclusions only');
    expect(r.sentences[0]).toContain('usual convention');
    expect(readAgreement(row(0.85, null)).short).toBe('reliable by the usual convention');
    expect(readAgreement(row(0.4, null)).short).toBe('not reliable');
  });

  it('calls 20 items’ interval wide and says how many items would narrow it, as an approximation', () => {
    const r = readAgreement(row(0.706, { low: 0.397, high: 0.926 }));
    expect(r.sentences[1]).toContain('0.397 to 0.926 (±0.26), is wide');
    expect(r.sentences[1]).toContain('from “not reliable” to “reliable by the usual convention”');
    // half-width 0.2645 → 20 · (0.2645 / 0.05)² ≈ 560
    expect(r.sentences[2]).toContain('With 20 items double-coded the interval is wide; about 560 items');
    expect(r.sentences[2]).toContain('±0.05');
    expect(r.sentences[2]).toContain('approximation');
  });

  it('a narrow interval needs no advice; widths in words; the estimate scales with 1/√n', () => {
    const r = readAgreement(row(0.9, { low: 0.87, high: 0.93 }, 400));
    expect(r.sentences).toHaveLength(2);
    expect(r.sentences[1]).toContain('is narrow');
    expect(widthWords(0.08)).toBe('moderate');
    expect(widthWords(0.2)).toBe('wide');
    // halving the width takes four times the items
    expect(itemsFor(100, 0.1)).toBe(400);
  });

  it('says when α is undefined or nothing was double-coded', () => {
    expect(readAgreement(row(null, null)).verdict).toBeNull();
    expect(readAgreement(row(null, null)).sentences[0]).toContain('undefined');
    expect(readAgreement(row(0.9, null, 0)).sentences[0]).toContain('No item was coded by two coders');
  });

  it('says how many values it could not read were left out, last', () => {
    expect(readAgreement({ ...row(0.9, null), unread: 2 }).sentences.at(-1)).toBe(
      '2 values of this field this Skein cannot read (a newer Skein’s, or damaged) are left out of these figures.',
    );
    expect(readAgreement({ ...row(0.9, null, 0), unread: 1 }).sentences).toEqual([
      'No item was coded by two coders or more yet.',
      '1 value of this field this Skein cannot read (a newer Skein’s, or damaged) is left out of these figures.',
    ]);
    expect(readAgreement({ ...row(0.9, null), unread: 0 }).sentences).toHaveLength(1);
  });
});
