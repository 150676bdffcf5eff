/** What a model coder asks and how its answer becomes a value: a category's value or label, or nothing. */
import { describe, expect, it } from 'vitest';
import { CodebookDefinition } from '../../shared/coding/codebook';
import { systemPrompt, valueFromAnswer } from './model';

const def = CodebookDefinition.parse({
  fields: [
    {
      key: 'stance',
      label: 'Stance',
      type: 'category',
      categories: [
        { value: 'support', label: 'Supports', description: 'agrees' },
        { value: 'oppose', label: 'Opposes' },
        { value: 'neutral', label: 'Neither' },
      ],
    },
    {
      key: 'topics',
      label: 'Topics',
      type: 'category',
      multiple: true,
      categories: [
        { value: 'health', label: 'Health' },
        { value: 'economy', label: 'Economy' },
      ],
    },
    { key: 'summary', label: 'Summary', type: 'text' },
  ],
});
const [stance, topics, summary] = def.fields as [
  (typeof def.fields)[0],
  (typeof def.fields)[0],
  (typeof def.fields)[0],
];

describe('a model coder’s prompt and answer', () => {
  it('asks for exactly one value, or one or more, listing the choices', () => {
    expect(systemPrompt(stance, 'Code the stance.')).toBe(
      'Code the stance.\nAnswer with exactly one of these values and nothing else: support (Supports: agrees); oppose (Opposes); neutral (Neither).',
    );
    expect(systemPrompt(topics, 'Topics?')).toContain('one or more of these values, separated by |');
    expect(systemPrompt(summary, 'Summarise.')).toBe('Summarise.\nAnswer with a short text.');
  });

  it('reads a value or a label, whatever the case, quotes or full stop; anything else is no value', () => {
    expect(valueFromAnswer(stance, 'support')).toBe('support');
    expect(valueFromAnswer(stance, '"Opposes".')).toBe('oppose');
    expect(valueFromAnswer(stance, 'NEITHER')).toBe('neutral');
    expect(valueFromAnswer(stance, 'neutral, because the post hedges')).toBe('neutral');
    expect(valueFromAnswer(stance, 'Neutral because it hedges')).toBe('neutral');
    expect(valueFromAnswer(stance, 'I cannot tell')).toBeNull();
    expect(valueFromAnswer(stance, '')).toBeNull();
  });

  it('reads several choices, sorted, and ignores what is not one', () => {
    expect(valueFromAnswer(topics, 'Economy | health')).toEqual(['economy', 'health']);
    expect(valueFromAnswer(topics, 'economy, sports')).toEqual(['economy']);
    expect(valueFromAnswer(topics, 'sports')).toBeNull();
  });

  it('keeps a text answer as it is, cut at 4,000 characters', () => {
    expect(valueFromAnswer(summary, '  A short summary.  ')).toBe('A short summary.');
    expect((valueFromAnswer(summary, 'x'.repeat(5000)) as string).length).toBe(4000);
  });
});
