import { describe, expect, it } from 'vitest';
import { assignKeys, CodebookDefinition } from '../../../shared/coding/codebook';
import { isDone, keyMap, pressed, valueLabel } from './keys';

const def = assignKeys(
  CodebookDefinition.parse({
    fields: [
      {
        key: 'stance',
        label: 'Stance',
        type: 'category',
        categories: [
          { value: 'a', label: 'A' },
          { value: 'b', label: 'B' },
        ],
      },
      {
        key: 'topics',
        label: 'Topics',
        type: 'category',
        multiple: true,
        categories: [
          { value: 'x', label: 'X' },
          { value: 'y', label: 'Y' },
        ],
      },
      { key: 'memo', label: 'Memo', type: 'note' },
    ],
  }),
);

describe('coding by keyboard', () => {
  it('gives each category a key in order, never j or k', () => {
    const map = keyMap(def);
    expect([...map.entries()].map(([k, t]) => `${k}:${t.field.key}=${t.value}`)).toEqual([
      '1:stance=a',
      '2:stance=b',
      '3:topics=x',
      '4:topics=y',
    ]);
    const many = assignKeys(
      CodebookDefinition.parse({
        fields: [
          {
            key: 'f',
            label: 'F',
            type: 'category',
            categories: Array.from({ length: 22 }, (_, i) => ({ value: `v${i}`, label: `V${i}` })),
          },
        ],
      }),
    );
    const keys = many.fields[0]!.categories.map((c) => c.key);
    expect(keys).not.toContain('j');
    expect(keys).not.toContain('k');
    expect(new Set(keys).size).toBe(22);
  });

  it('picks a single choice, and clears it when pressed again', () => {
    const stance = def.fields[0]!;
    expect(pressed(stance, null, 'a')).toBe('a');
    expect(pressed(stance, 'a', 'b')).toBe('b');
    expect(pressed(stance, 'a', 'a')).toBeNull();
  });

  it('toggles a multiple choice', () => {
    const topics = def.fields[1]!;
    expect(pressed(topics, null, 'y')).toEqual(['y']);
    expect(pressed(topics, ['y'], 'x')).toEqual(['x', 'y']);
    expect(pressed(topics, ['x', 'y'], 'y')).toEqual(['x']);
    expect(pressed(topics, ['x'], 'x')).toBeNull();
  });

  it('replaces a value this Skein cannot read with the choice', () => {
    expect(pressed(def.fields[0]!, { unread: '{"stars":4}' }, 'a')).toBe('a');
    expect(pressed(def.fields[1]!, { unread: '{"stars":4}' }, 'x')).toEqual(['x']);
  });

  it('an item is done when every compared field has a value (notes do not count)', () => {
    expect(isDone(def, [{ field: 'stance' }])).toBe(false);
    expect(isDone(def, [{ field: 'stance' }, { field: 'topics' }])).toBe(true);
  });

  it('says values by their labels', () => {
    expect(valueLabel(def.fields[1], ['x', 'y'])).toBe('X, Y');
    expect(valueLabel(def.fields[2], 'see <b>')).toBe('see <b>');
    expect(valueLabel(def.fields[0], null)).toBe('—');
    // a value this Skein cannot read: as written, and said so, never as a category's label
    expect(valueLabel(def.fields[0], { unread: 'a' })).toBe('a (as written; this Skein cannot read it)');
  });
});
