import { describe, expect, it } from 'vitest';
import { compactCount, countLabel, creditsLabel, fullCount, readCount } from './format';

describe('readCount', () => {
  it('accepts numbers and numeric strings', () => {
    expect(readCount(12)).toBe(12);
    expect(readCount('1234')).toBe(1234);
    expect(readCount(0)).toBe(0);
  });
  it('treats anything else as unknown, never 0', () => {
    for (const v of [null, undefined, '', 'n/a', [0], {}, -1, Number.NaN, '1.5e3']) expect(readCount(v)).toBeNull();
  });
});

describe('counts', () => {
  it('formats compactly and fully, and keeps unknown distinct from zero', () => {
    expect(compactCount(1234, 'en-US')).toBe('1.2K');
    expect(compactCount(0, 'en-US')).toBe('0');
    expect(compactCount(null)).toBe('unknown');
    expect(fullCount(1234567, 'en-US')).toBe('1,234,567');
    expect(countLabel(1, 'reply', 'replies', 'en-US')).toBe('1 reply');
    expect(countLabel(0, 'reply', 'replies', 'en-US')).toBe('0 replies');
    expect(countLabel(null, 'reply', 'replies')).toBe('unknown replies');
  });
  it('shows credits with dollars', () => {
    expect(creditsLabel(1500, 0.015, 'en-US')).toBe('1,500 credits ($0.02)');
    expect(creditsLabel(451, 0.00451, 'en-US')).toBe('451 credits (< $0.01)');
    expect(creditsLabel(15, null, 'en-US')).toBe('15 credits');
  });
});

describe('postLabel', () => {
  it('names a post by its author and first words, never its id', async () => {
    const { postLabel } = await import('./format');
    expect(
      postLabel({ author: { userName: 'ann' }, text: 'one two three four five six seven eight nine ten' }, '123'),
    ).toBe('@ann: “one two three four five six seven eight…”');
    expect(postLabel({ author: { userName: 'ann' }, text: 'short https://t.co/x' }, '123')).toBe('@ann: “short”');
    expect(postLabel({ author: { userName: 'ann' }, text: '' }, '123')).toBe('@ann');
    expect(postLabel(null, 'post 123')).toBe('post 123');
    // 61 code points of CJK without spaces: cut whole, never half an emoji
    expect(postLabel({ author: { userName: 'li' }, text: '漢'.repeat(59) + '😀😀' }, 'x')).toBe(
      `@li: “${'漢'.repeat(59)}😀…”`,
    );
    // a megabyte of one word, as a hostile server sends it, is quoted by its first 60 code points
    expect(postLabel({ author: { userName: 'x' }, text: 'a'.repeat(1_000_000) + ' b' }, 'x')).toBe(
      `@x: “${'a'.repeat(60)}…”`,
    );
    expect(postLabel({ author: { userName: 'x' }, text: 'see:https://t.co/x  two' }, 'x')).toBe('@x: “see: two”');
  });
});
