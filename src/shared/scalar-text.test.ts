import { describe, expect, it } from 'vitest';
import { scalarText } from './scalar-text';

describe('scalarText', () => {
  it('writes scalars as they are', () => {
    expect(scalarText('a b')).toBe('a b');
    expect(scalarText(12)).toBe('12');
    expect(scalarText(12n)).toBe('12');
    expect(scalarText(false)).toBe('false');
  });

  it('never prints an object, an array or a missing value', () => {
    expect(scalarText({ toString: () => 'x' })).toBe('');
    expect(scalarText([1, 2])).toBe('');
    expect(scalarText(null, '-')).toBe('-');
    expect(scalarText(undefined)).toBe('');
  });
});
