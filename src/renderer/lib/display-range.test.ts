/** The display range of a post (api-field-notes.md): its start hides reply mentions, its end never cuts the text. */
import { describe, expect, it } from 'vitest';
import { longText, LONG_TEXT_END } from '../../shared/api/fixtures/recorded';
import { segmentText } from './entities';

const shown = (text: string, range: readonly number[] | null, entities: Parameters<typeof segmentText>[1] = null) =>
  segmentText(text, entities, range)
    .map((s) => s.text)
    .join('');

describe('display range', () => {
  it('shows the whole of a 2,656-character text whose range is [0, 280]', () => {
    const text = longText('A long post.');
    expect(shown(text, [0, 280])).toBe(text);
    expect(shown(text, [0, 280])).toContain(LONG_TEXT_END);
  });

  it('hides the leading reply mentions ([k, 280 + k]) and still shows the rest of a long text', () => {
    const body = longText('The argument in full.', 1200);
    const text = `@orig @booster ${body}`;
    const entities = {
      user_mentions: [
        { screen_name: 'orig', indices: [0, 5] },
        { screen_name: 'booster', indices: [6, 14] },
      ],
    };
    expect(shown(text, [15, 295], entities)).toBe(body);
  });

  it('links a mention that lies past the range end of a long text', () => {
    const text = `${longText('Head.', 400)} thanks @ada`;
    const segs = segmentText(
      text,
      { user_mentions: [{ screen_name: 'ada', id_str: '1', indices: [408, 412] }] },
      [0, 280],
    );
    expect(segs.at(-1)).toEqual({ kind: 'mention', text: '@ada', userId: '1', screenName: 'ada' });
  });

  it('still drops a trailing media link past the range', () => {
    expect(shown('nice photo https://t.co/m', [0, 10], { media: [{ url: 'https://t.co/m', indices: [11, 25] }] })).toBe(
      'nice photo',
    );
  });
});
