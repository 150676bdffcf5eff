import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readEntities, segmentText, unescapeText, type EntitiesLike } from './entities';

describe('segmentText', () => {
  it('places entities by code point, so emoji before them do not shift them', () => {
    const text = '🚀🚀 hi @ada see https://t.co/x #ml $ACME';
    const segs = segmentText(text, {
      user_mentions: [{ screen_name: 'ada', id_str: '7', indices: [8, 12] }],
      urls: [
        {
          url: 'https://t.co/x',
          expanded_url: 'https://example.org/page',
          display_url: 'example.org/page',
          indices: [17, 31],
        },
      ],
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
    const segs = segmentText(
      text,
      {
        media: [{ url: 'https://t.co/m', indices: [16, 30] }],
        user_mentions: [{ screen_name: 'bob', indices: [0, 4] }],
      },
      [5, 30],
    );
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
    const segs = segmentText('#a', {
      hashtags: [
        { text: 'a', indices: [0, 2] },
        { text: 'a', indices: [0, 2] },
      ],
    });
    expect(segs).toEqual([{ kind: 'hashtag', text: '#a', tag: 'a' }]);
  });

  it('places a post seen again from its answer once, and anew when its text or range differ', () => {
    const text = '@bob see #ml and #ml';
    const entities: EntitiesLike = {
      user_mentions: [{ screen_name: 'bob', indices: [0, 4] }],
      hashtags: [{ text: 'ml', indices: [99, 102] }],
    };
    const first = segmentText(text, entities, [5, 20]);
    expect(segmentText(text, entities, [5, 20])).toBe(first);
    expect(segmentText(text, entities, [0, 20])).toEqual([
      { kind: 'mention', text: '@bob', userId: null, screenName: 'bob' },
      { kind: 'text', text: ' see ' },
      { kind: 'hashtag', text: '#ml', tag: 'ml' },
      { kind: 'text', text: ' and #ml' },
    ]);
    expect(segmentText('see #ml', entities, [0, 7])).toEqual([
      { kind: 'text', text: 'see ' },
      { kind: 'hashtag', text: '#ml', tag: 'ml' },
    ]);
    // an equal copy of the same entities gives equal segments
    expect(segmentText(text, structuredClone(entities), [5, 20])).toEqual(first);
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
      urls: [
        { url: 'https://t.co/a', expanded_url: 'https://a.example', display_url: 'a.example', indices: [0, 14] },
        { url: 5, indices: [0, 1] },
      ],
      user_mentions: [{ screen_name: 'ada', indices: [1] }],
      hashtags: 'nope',
    });
    expect(e?.urls).toHaveLength(1);
    expect(e?.user_mentions).toEqual([]);
    expect(e?.hashtags).toEqual([]);
    expect(readEntities(null)).toBeNull();
  });
});

describe('segmentText against hostile indices', () => {
  const entityArb = (len: number) =>
    fc.record({
      kind: fc.constantFrom('urls', 'user_mentions', 'hashtags', 'symbols', 'media'),
      word: fc.stringMatching(/^[a-z]{1,4}$/),
      indices: fc.tuple(fc.integer({ min: -5, max: len + 5 }), fc.integer({ min: -5, max: len + 5 })),
    });

  it('property: random indices never throw, never overlap, and keep the text outside entities as it was', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^(?:[a-z @#$]|😀){0,60}$/u),
        fc.array(entityArb(60), { maxLength: 12 }),
        (text, list) => {
          const entities: Record<string, unknown[]> = {
            urls: [],
            user_mentions: [],
            hashtags: [],
            symbols: [],
            media: [],
          };
          for (const e of list) {
            const entry =
              e.kind === 'urls' || e.kind === 'media'
                ? { url: `https://t.co/${e.word}`, indices: e.indices }
                : e.kind === 'user_mentions'
                  ? { screen_name: e.word, indices: e.indices }
                  : { text: e.word, indices: e.indices };
            entities[e.kind]?.push(entry);
          }
          const segs = segmentText(text, entities);
          // every segment's text is found in order in the text: nothing invented, nothing reordered
          let at = 0;
          for (const s of segs) {
            if (s.kind === 'url') continue;
            const found = text.indexOf(s.text, at);
            expect(found).toBeGreaterThanOrEqual(at);
            at = found + s.text.length;
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('1 MB of text with thousands of bad indices is segmented in linear time', () => {
    const text = 'a'.repeat(1_000_000 - 20) + ' #tag @who http://x';
    const wild = (n: number) =>
      Array.from({ length: n }, (_, i) => [(i * 7919) % 2_000_000, ((i * 104729) % 2_000_000) - 5] as [number, number]);
    const entities: EntitiesLike = {
      hashtags: wild(3000).map((indices, i) => ({ text: i % 2 ? 'tag' : `a${'a'.repeat(i % 50)}`, indices })),
      user_mentions: wild(3000).map((indices, i) => ({ screen_name: i % 2 ? 'who' : `aa${i}`, indices })),
      urls: wild(3000).map((indices) => ({ url: 'http://x', indices })),
    };
    const started = performance.now();
    const segs = segmentText(text, entities, [5, 3_000_000]);
    const ms = performance.now() - started;
    expect(segs.map((s) => s.kind)).toEqual(['text', 'hashtag', 'text', 'mention', 'text', 'url']);
    // measured ~40 ms on a quiet machine, 1.3 s on a 2-core one under a load of 20; the quadratic search took
    // 23 s (and did not finish in 120 s at 9,000 bad indices). This bound only tells linear from quadratic.
    console.info(`segmentText: 1 MB, 9,000 bad indices: ${ms.toFixed(1)} ms`);
    expect(ms).toBeLessThan(8000);
  });
});
