import { describe, expect, it } from 'vitest';
import { recordFields, textField, timeField } from './unread-record';

describe('what can be told of a record this Skein cannot read', () => {
  it('reads no fields from what is not an object', () => {
    for (const value of [undefined, null, 'text', 7, ['a'], true]) expect(recordFields(value)).toEqual({});
    expect(recordFields({ name: 'x' })).toEqual({ name: 'x' });
  });

  it('takes a text only as text, cut short', () => {
    expect(textField('a'.repeat(500), 200)).toHaveLength(200);
    expect(textField('<b>kept as text</b>', 200)).toBe('<b>kept as text</b>');
    for (const value of [7, null, { text: 'x' }, ['x']]) expect(textField(value, 200)).toBeNull();
  });

  it('takes a time only as a finite number', () => {
    expect(timeField(1_764_000_000_000)).toBe(1_764_000_000_000);
    for (const value of [Number.NaN, Number.POSITIVE_INFINITY, '2026-12-02', null, {}])
      expect(timeField(value)).toBeNull();
  });
});
