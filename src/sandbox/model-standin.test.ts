import { describe, expect, it } from 'vitest';
import { buildSandbox } from './server';
import { offeredValues, standInAnswer } from './model-standin';

const SYSTEM =
  'Code the stance.\nAnswer with exactly one of these values and nothing else: support (Supports: agrees); oppose (Opposes); neutral (Neither).';

describe('the model stand-in', () => {
  it('reads the offered values from the prompt Skein sends', () => {
    expect(offeredValues(SYSTEM)).toEqual({ values: ['support', 'oppose', 'neutral'], multiple: false });
    expect(
      offeredValues(
        'Tag it.\nAnswer with one or more of these values, separated by |, and nothing else: a (A); b (B).',
      ),
    ).toEqual({
      values: ['a', 'b'],
      multiple: true,
    });
    expect(offeredValues('Describe it.\nAnswer with a short text.').values).toEqual([]);
  });

  it('answers deterministically: the same text, prompt and model, the same value; cue words lead', () => {
    const texts = Array.from({ length: 40 }, (_, i) => `post number ${i} about rivers`);
    const first = texts.map((t) => standInAnswer(SYSTEM, t, 'skein-standin-1'));
    expect(texts.map((t) => standInAnswer(SYSTEM, t, 'skein-standin-1'))).toEqual(first);
    expect(new Set(first).size).toBe(3);
    expect(standInAnswer(SYSTEM, 'Totally agree with this', 'm')).toBe('support');
    expect(standInAnswer(SYSTEM, 'Source? I disagree', 'm')).toBe('oppose');
  });

  it('serves an OpenAI-compatible chat completion and refuses a malformed request', async () => {
    const { app, shutdown } = buildSandbox({ size: 'small' });
    const ok = await app.inject({
      method: 'POST',
      url: '/v1/chat/completions',
      payload: {
        model: 'skein-standin-1',
        messages: [
          { role: 'system', content: SYSTEM },
          { role: 'user', content: 'This is the way' },
        ],
      },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({
      object: 'chat.completion',
      choices: [{ message: { role: 'assistant', content: 'support' } }],
    });
    const bad = await app.inject({ method: 'POST', url: '/v1/chat/completions', payload: { messages: 'nope' } });
    expect(bad.statusCode).toBe(400);
    expect((await app.inject({ method: 'GET', url: '/v1/models' })).json()).toMatchObject({ object: 'list' });
    shutdown();
    await app.close();
  });
});
