import { describe, expect, it } from 'vitest';
import { readEntities, segmentText, unescapeText } from './entities';

describe('segmentText', () => {
  it('places entities by code point, so emoji before them do not shift them', () => {
    const text = '🚀🚀 hi @ada see https://t.co/x #ml $ACME';
    const segs = segmentText(text, {
      user_mentions: [{ screen_name: 'ada', id_str: '7', indices: [8, 12] }],
      urls: [{ url: 'https://t.co/x', expanded_url: 'https://example.org/page', display_url: 'example.org/page', indices: [17, 31] }],
      hashtags: [{ text: 'ml', indices: [32, 35] }],
      symbols: [{ text: 'ACME', indices: [36, 41] }],
    });
    expect(segs).toEqual([
      { kind: 'text', text: '🚀🚀 hi ' },
      { kind: 'mention', text: '@ada', userId: '7', screenName: 'ada' },
      { kind: 'text', text: ' see ' },
      { kind: 'url', text: 'example.org/page', href: 'https://example.org/page' },
      { kind: 'text', text: ' ' },
      { kind: 'hashtag', text: '#ml', tag: 'ml' },
      { kind: 'text', text: ' ' },
      { kind: 'symbol', text: '$ACME', symbol: 'ACME' },
    ]);
  });

  it('keeps markup as text', () => {
    const segs = segmentText('<img src=x onerror=alert(1)> &amp; &lt;b&gt;', null);
    expect(segs).toEqual([{ kind: 'text', text: '<img src=x onerror=alert(1)> & <b>' }]);
  });

  it('drops the media link (shown as a grid) and the text outside the display range', () => {
    const text = '@bob nice photo https://t.co/m';
    const segs = segmentText(text, { media: [{ url: 'https://t.co/m', indices: [16, 30] }], user_mentions: [{ screen_name: 'bob', indices: [0, 4] }] }, [5, 30]);
    expect(segs).toEqual([{ kind: 'text', text: 'nice photo' }]);
  });

  it('finds entities whose indices are off (UTF-16 counted), and ignores ones not in the text', () => {
    const text = '😀 hello @ada';
    const segs = segmentText(text, {
      user_mentions: [
        { screen_name: 'ada', id_str: '1', indices: [9, 13] },
        { screen_name: 'ghost', id_str: '2', indices: [0, 6] },
      ],
    });
    expect(segs).toEqual([
      { kind: 'text', text: '😀 hello ' },
      { kind: 'mention', text: '@ada', userId: '1', screenName: 'ada' },
    ]);
  });

  it('never lets entities overlap', () => {
    const segs = segmentText('#a', { hashtags: [{ text: 'a', indices: [0, 2] }, { text: 'a', indices: [0, 2] }] });
    expect(segs).toEqual([{ kind: 'hashtag', text: '#a', tag: 'a' }]);
  });

  it('keeps plain text intact when there are no entities', () => {
    expect(segmentText('just words', undefined)).toEqual([{ kind: 'text', text: 'just words' }]);
    expect(segmentText('', null)).toEqual([]);
  });
});

describe('unescapeText', () => {
  it('decodes only the escapes the API uses', () => {
    expect(unescapeText('a &amp;amp; b &copy;')).toBe('a &amp; b &copy;');
  });
});

describe('readEntities', () => {
  it('keeps well-formed entries of an open-shaped entities object and drops the rest', () => {
    const e = readEntities({
      urls: [{ url: 'https://t.co/a', expanded_url: 'https://a.example', display_url: 'a.example', indices: [0, 14] }, { url: 5, indices: [0, 1] }],
      user_mentions: [{ screen_name: 'ada', indices: [1] }],
      hashtags: 'nope',
    });
    expect(e?.urls).toHaveLength(1);
    expect(e?.user_mentions).toEqual([]);
    expect(e?.hashtags).toEqual([]);
    expect(readEntities(null)).toBeNull();
  });
});
