import { describe, expect, it } from 'vitest';
import type { FieldDef, KeptValue } from '../../../shared/coding/codebook';
import type { Coder, Coding } from '../../../shared/coding/records';
import { recalFile } from './tables';

const topics: FieldDef = {
  key: 'topics',
  label: 'Topics',
  type: 'category',
  multiple: true,
  description: '',
  categories: ['x', 'y'].map((value) => ({ value, label: value.toUpperCase(), description: '', examples: [] })),
};
const coders: Coder[] = [1, 2].map((id) => ({
  id,
  name: `C${id}`,
  kind: 'person',
  model: null,
  createdAt: 0,
  revealedAt: null,
}));
const coding = (id: string, coder: number, value: KeptValue): Coding => ({
  kind: 'post',
  id,
  field: 'topics',
  coder,
  value,
  codedAt: 0,
  version: 1,
});

describe("ReCal's file", () => {
  it('leaves out an item with a value this Skein cannot read, rather than read it as no category', () => {
    const file = recalFile(
      topics,
      [
        coding('1', 1, ['x']),
        coding('1', 2, ['x', 'y']),
        coding('2', 1, ['y']),
        coding('2', 2, { unread: '{"topics":["y"]}' }),
      ],
      coders,
    );
    expect(file.units).toBe(1);
    expect(file.data.trim()).toBe('1,1,0,1');
  });
});
