import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CUT_MARKER, MAX_DEPTH, boundDepth } from './depth';
import { mediaFromExtended } from './media';

describe('boundDepth', () => {
  it('keeps a normal item as it is', () => {
    const item = { id: '1', quoted_tweet: { id: '2', quoted_tweet: { id: '3' } }, list: [[1, [2]]] };
    const before = JSON.stringify(item);
    expect(boundDepth(item, 'tweets[0]')).toEqual([]);
    expect(JSON.stringify(item)).toBe(before);
  });

  it('cuts posts nested deeper than 3 and anything deeper than the depth bound, iteratively', () => {
    let chain: Record<string, unknown> = { id: 'x' };
    for (let i = 0; i < 50_000; i++) chain = { id: String(i), retweeted_tweet: chain };
    let unknown: unknown = 1;
    for (let i = 0; i < 50_000; i++) unknown = [unknown];
    const item = { ...chain, extra: unknown };
    const cuts = boundDepth(item, 'tweets[0]');
    expect(cuts.map((c) => c.path)).toEqual(
      expect.arrayContaining(['tweets[0].retweeted_tweet.retweeted_tweet.retweeted_tweet.retweeted_tweet']),
    );
    expect(JSON.stringify(item)).toContain(CUT_MARKER);
    expect(JSON.stringify(item).length).toBeLessThan(2000);
  });

  it('names each cut by where it sits, through lists and keys (a key named __proto__ too)', () => {
    let deep: unknown = { leaf: true };
    for (let i = 0; i < MAX_DEPTH + 5; i++) deep = i % 2 ? { k: deep } : [0, deep];
    const posts = { quoted_tweet: { retweeted_tweet: { quoted_tweet: { quoted_tweet: { id: 'x' } } } } };
    // as an answer arrives: parsed, so `__proto__` is a key of its own
    const root = JSON.parse(JSON.stringify({ list: [deep], ['__proto__']: posts })) as Record<string, unknown>;
    expect(boundDepth(root, 'tweets[2]')).toEqual([
      {
        path: 'tweets[2].__proto__.quoted_tweet.retweeted_tweet.quoted_tweet.quoted_tweet',
        message: 'a post nested more than 3 posts deep: cut',
      },
      { path: `tweets[2].list[0][1]${'.k[1]'.repeat(30)}.k`, message: `nested deeper than ${MAX_DEPTH} levels: cut` },
    ]);
    expect(Object.getOwnPropertyDescriptor(root, '__proto__')?.value).toEqual({
      quoted_tweet: { retweeted_tweet: { quoted_tweet: { quoted_tweet: null } } },
    });
  });

  it('property: after the cut no path is deeper than the bound', () => {
    const depthOf = (v: unknown): number =>
      typeof v === 'object' && v !== null ? 1 + Math.max(0, ...Object.values(v).map(depthOf)) : 0;
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 200 }), (n) => {
        let v: unknown = { leaf: true };
        for (let i = 0; i < n; i++) v = i % 2 ? { a: v } : [v];
        const root = { item: v };
        boundDepth(root, 'x');
        expect(depthOf(root)).toBeLessThanOrEqual(MAX_DEPTH);
      }),
      { numRuns: 50 },
    );
  });
});

describe('media type words from data', () => {
  it.each(['__proto__', 'constructor', 'toString'])('%s as a media type is read as a photo', (type) => {
    const media = mediaFromExtended({ type, media_url_https: 'https://img.example/x.png', id_str: '1' });
    const info = (media?.media_results as { result: { media_info: { __typename: unknown } } }).result.media_info;
    expect(info.__typename).toBe('ApiImage');
  });
});
