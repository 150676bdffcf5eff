import { describe, expect, it } from 'vitest';
import { coderOf, codingOf, keptValueOf, sampleDefinitionOf } from './rows';

describe('coding rows as a newer Skein may have written them', () => {
  it('reads the values this Skein codes as they are, and any other as written, marked unread', () => {
    expect(keptValueOf('"for"')).toBe('for');
    expect(keptValueOf('["a","b"]')).toEqual(['a', 'b']);
    for (const written of ['{"stars":4}', '7', 'null', '[1,2]', '{', '', 'constructor'])
      expect(keptValueOf(written)).toEqual({ unread: written });
    // beyond what this Skein keeps a value to: as written, cut, and said to be cut
    const long = JSON.stringify('x'.repeat(25_000));
    expect(keptValueOf(long)).toEqual({ unread: `${long.slice(0, 2_000)}…` });
  });

  it('reads settings and drawings it cannot read as none, and a damaged detail as its text', () => {
    const coder = { id: 3, name: 'Bot', kind: 'model', created_at: 1, revealed_at: null };
    expect(coderOf({ ...coder, model: '{"model":5}' }).model).toBeNull();
    expect(coderOf({ ...coder, model: '{' }).model).toBeNull();
    expect(coderOf({ ...coder, model: '{"model":"llama","topP":0.9}' }).model).toEqual({
      model: 'llama',
      temperature: 0,
      maxTokens: 64,
      prompts: {},
    });
    expect(sampleDefinitionOf('{"method":"cluster"}')).toBeNull();
    expect(sampleDefinitionOf('{')).toBeNull();
    const row = { item_kind: 'post', item_id: '1', field: 'f', coder: 1, value: '"a"', coded_at: 1, version: 1 };
    expect(codingOf({ ...row, detail: '{' }).detail).toBe('{');
    expect(codingOf({ ...row, detail: '{"model":"m"}' }).detail).toEqual({ model: 'm' });
  });
});
