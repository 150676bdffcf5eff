import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeTrendQuery, trendSearchUrl } from './trend-query';

describe('decodeTrendQuery', () => {
  it('decodes percent escapes and plus signs', () => {
    expect(decodeTrendQuery('%23Engines')).toBe('#Engines');
    expect(decodeTrendQuery('%22big+news%22')).toBe('"big news"');
    expect(decodeTrendQuery('S%C3%A3o%20Paulo')).toBe('São Paulo');
    expect(decodeTrendQuery('%24EUR')).toBe('$EUR');
    expect(decodeTrendQuery('1%2B1')).toBe('1+1');
  });
  it('keeps broken escapes instead of failing', () => {
    expect(decodeTrendQuery('100%25 %ZZ sure')).toBe('100% %ZZ sure');
    expect(decodeTrendQuery('%E0%A4%A and %23ok')).toBe('%E0%A4%A and #ok');
    expect(decodeTrendQuery('plain')).toBe('plain');
  });
  it('round-trips anything the encoder produces', () => {
    for (const s of ['#Tag2026', 'Ünïcødé 🎉', 'a+b c', '<b>x</b>', '%'])
      expect(decodeTrendQuery(encodeURIComponent(s))).toBe(s);
    fc.assert(fc.property(fc.string({ unit: 'grapheme' }), (s) => decodeTrendQuery(encodeURIComponent(s)) === s));
  });
  it('never throws, whatever the service sends', () => {
    fc.assert(fc.property(fc.string(), (s) => typeof decodeTrendQuery(s) === 'string'));
  });
});

describe('trendSearchUrl', () => {
  it('opens only web addresses', () => {
    expect(trendSearchUrl('https://social.example/search?q=%23A')).toBe('https://social.example/search?q=%23A');
    expect(trendSearchUrl('javascript:alert(1)')).toBeNull();
    expect(trendSearchUrl('not a url')).toBeNull();
  });
  it('opens https only', () => {
    expect(trendSearchUrl('http://social.example/search?q=A')).toBeNull();
  });
});
