import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chunk, parseIdList } from './id-list';

describe('parseIdList', () => {
  it('accepts commas, spaces, newlines and post URLs, keeping order and dropping repeats', () => {
    const text = '11, 22\n33 https://x.com/ada/status/44?s=1\n\n22;https://twitter.com/i/web/status/55';
    expect(parseIdList(text, 'posts')).toEqual({
      ids: ['11', '22', '33', '44', '55'],
      invalid: [],
      repeated: 1,
      handles: [],
      damaged: [],
    });
  });
  it('lists what it could not read', () => {
    expect(parseIdList('11 abc @ada 12x', 'posts')).toEqual({
      ids: ['11'],
      invalid: ['abc', '@ada', '12x'],
      repeated: 0,
      handles: [],
      damaged: [],
    });
  });
  it('does not read post URLs as user ids', () => {
    expect(parseIdList('https://x.com/ada/status/44 7', 'users')).toEqual({
      ids: ['7'],
      invalid: ['https://x.com/ada/status/44'],
      repeated: 0,
      handles: [],
      damaged: [],
    });
  });
  it('returns nothing for blank input', () => {
    expect(parseIdList('  \n, ', 'users')).toEqual({ ids: [], invalid: [], repeated: 0, handles: [], damaged: [] });
  });
  it("reads Skein's own spreadsheet cells back", () => {
    expect(parseIdList('="1234567890123456789"\n"=""9223372036854775807"""', 'posts').ids).toEqual([
      '1234567890123456789',
      '9223372036854775807',
    ]);
  });
  it('refuses ids a spreadsheet damaged, before any call, and says why', () => {
    const parsed = parseIdList('1.23457E+18, 1,23E+18 1850000000000000000 1850000000000000001 44196397', 'users');
    expect(parsed.ids).toEqual(['1850000000000000001', '44196397']);
    expect(parsed.damaged.map((d) => d.token)).toEqual(['1.23457E+18', '1.23E+18', '1850000000000000000']);
    expect(parsed.damaged[0]!.why).toMatch(/scientific notation/);
    expect(parsed.damaged[2]!.why).toMatch(/15 digits, then zeros/);
  });
  it('an id ending in zeros among many long ids with all their digits is genuine, not rounded', () => {
    const many = Array.from({ length: 120 }, (_, i) => `18500000000${String(i * 7919 + 12345678).padStart(8, '0')}`);
    const list = [...many.slice(0, 60), '1850000001234560000', ...many.slice(60)];
    const parsed = parseIdList(list.join(' '), 'posts');
    expect(parsed.damaged).toEqual([]);
    // in the place it was pasted: the looked-up posts come in the list's order
    expect(parsed.ids).toEqual(list);
    // refused, it is taken out again, and its repeat is no repeat
    const few = parseIdList([...many.slice(0, 20), '1850000001234560000', '1850000001234560000'].join(' '), 'posts');
    expect(few).toMatchObject({ ids: many.slice(0, 20), repeated: 0 });
    expect(few.damaged).toHaveLength(2);
  });
  it('users: accepts @handles, bare handles and profile URLs, to be resolved', () => {
    const parsed = parseIdList(
      '@ada ada_l https://x.com/Grace/ https://twitter.com/i/user/12 x.com/home @Ada https://example.com/bob',
      'users',
    );
    expect(parsed).toMatchObject({
      ids: ['12'],
      handles: ['ada', 'ada_l', 'Grace'],
      repeated: 1,
      invalid: ['x.com/home', 'https://example.com/bob'],
    });
  });
});

describe('chunk', () => {
  it('splits 250 ids into 100 + 100 + 50', () => {
    const ids = Array.from({ length: 250 }, (_, i) => String(i));
    expect(chunk(ids, 100).map((c) => c.length)).toEqual([100, 100, 50]);
  });
  it('keeps every item once, in order, in batches no larger than the limit', () => {
    fc.assert(
      fc.property(fc.array(fc.integer()), fc.integer({ min: 1, max: 20 }), (xs, n) => {
        const parts = chunk(xs, n);
        expect(parts.flat()).toEqual(xs);
        expect(parts.every((p) => p.length >= 1 && p.length <= n)).toBe(true);
      }),
    );
  });
});
