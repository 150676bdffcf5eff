import { describe, expect, it } from 'vitest';
import type { Codebook, Coding } from '../../shared/coding/records';
import { exportPolicy } from './policy';
import { keptValueOf } from './tables/rows';
import type { Handle, StoreOf } from './store';

/** a value as the project's row holds it (JSON text), read as the store reads it */
const coding = (id: string, field: string, written: string, coder = 1): Coding => ({
  kind: 'post',
  id,
  field,
  coder,
  value: keptValueOf(written),
  codedAt: 1,
  version: 2,
  detail: null,
});

describe('the code columns of an export', () => {
  it('writes a value of a field a newer Skein added as its JSON, as written', async () => {
    const book = {
      id: 1,
      name: 'Team',
      createdAt: 1,
      version: 2,
      codings: 3,
      versions: [
        {
          version: 2,
          note: '',
          createdAt: 1,
          definition: {
            fields: [
              { key: 'stance', label: 'Stance', type: 'category', categories: [] },
              { key: 'rating', label: 'Rating', type: 'stars' },
            ],
          },
        },
      ],
    } as unknown as Codebook;
    const project = {
      optOuts: async () => [],
      codebooks: async () => [book],
      codebook: async () => book,
      codings: async () => [
        coding('7', 'stance', '"for"'),
        coding('7', 'rating', '{"stars":4}'),
        coding('8', 'rating', '3'),
        coding('8', 'stance', '["b","a"]'),
      ],
      adjudications: async () => [],
    };
    const policy = await exportPolicy({ store: (async () => project) as unknown as StoreOf })({} as Handle, 'post');
    expect(policy?.extra?.columns).toEqual(['code_stance', 'code_stance_status', 'code_rating', 'code_rating_status']);
    expect(policy?.extra?.values.get('7')).toEqual(['for', 'single', '{"stars":4}', 'single']);
    expect(policy?.extra?.values.get('8')).toEqual(['b|a', 'single', '3', 'single']);
  });
});
