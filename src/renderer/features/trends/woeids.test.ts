import { describe, expect, it } from 'vitest';
import { PLACES, parseCount, parseLocation, placeName } from './woeids';

describe('the places table', () => {
  it('has Worldwide as 1 and no WOEID or name twice', () => {
    expect(PLACES[0]).toEqual({ woeid: 1, name: 'Worldwide', kind: 'world' });
    expect(new Set(PLACES.map((p) => p.woeid)).size).toBe(PLACES.length);
    expect(new Set(PLACES.map((p) => p.name.toLowerCase())).size).toBe(PLACES.length);
    expect(PLACES.some((p) => p.kind === 'country')).toBe(true);
    expect(PLACES.some((p) => p.kind === 'city')).toBe(true);
  });
  it('names places, and unknown ones by number', () => {
    expect(placeName(44418)).toBe('London');
    expect(placeName(23424977)).toBe('United States');
    expect(placeName(12345)).toBe('WOEID 12345');
  });
});

describe('parseLocation', () => {
  it('accepts a known name, whatever the case or accents', () => {
    expect(parseLocation('Tokyo')).toEqual({ ok: true, value: 1118370 });
    expect(parseLocation('  new   york ')).toEqual({ ok: true, value: 2459115 });
    expect(parseLocation('sao paulo')).toEqual({ ok: true, value: 455827 });
  });
  it('accepts any positive whole WOEID', () => {
    expect(parseLocation('1')).toEqual({ ok: true, value: 1 });
    expect(parseLocation('2487956')).toEqual({ ok: true, value: 2487956 });
    expect(parseLocation('99999')).toEqual({ ok: true, value: 99999 });
  });
  it('explains what is wrong otherwise', () => {
    for (const bad of ['', '0', '-1', '1.5', '3000000000', 'Atlantis']) {
      const r = parseLocation(bad);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.message.length).toBeGreaterThan(10);
    }
  });
});

describe('parseCount', () => {
  it('accepts 1 to 50 and refuses the rest', () => {
    expect(parseCount('30')).toEqual({ ok: true, value: 30 });
    expect(parseCount(' 50 ')).toEqual({ ok: true, value: 50 });
    for (const bad of ['0', '51', 'ten', '', '2.5']) expect(parseCount(bad).ok).toBe(false);
  });
});
