import { describe, expect, it } from 'vitest';
import { sampleRank } from '../db';
import { allocate, assign, boundFor, drawSample, readingSource, type SampleSource, type SourceItem } from './sampling';

function chunks(items: SourceItem[], chunk = 7) {
  return async function* () {
    for (let i = 0; i < items.length; i += chunk) yield items.slice(i, i + chunk);
  };
}

const source = (items: SourceItem[], stratified: boolean, chunk = 7) => readingSource(chunks(items, chunk), stratified);

const days = ['2026-11-01', '2026-11-02', '2026-11-03', '2026-11-04'];
/** 1,000 posts: 400, 300, 200 and 100 on four days */
const population: SourceItem[] = Array.from({ length: 1000 }, (_, i) => ({
  id: String(1_800_000_000_000_000_000n + BigInt(i)),
  group: days[i < 400 ? 0 : i < 700 ? 1 : i < 900 ? 2 : 3]!,
}));

describe('drawing a sample', () => {
  it('the same seed draws the same items whatever order the source is read in; another seed others', async () => {
    const a = await drawSample(source(population, false), {
      kind: 'post',
      size: 100,
      seed: 'heron',
      stratified: false,
    });
    const b = await drawSample(source([...population].reverse(), false, 13), {
      kind: 'post',
      size: 100,
      seed: 'heron',
      stratified: false,
    });
    const c = await drawSample(source(population, false), {
      kind: 'post',
      size: 100,
      seed: 'egret',
      stratified: false,
    });
    expect(a.items.map((i) => i.id)).toEqual(b.items.map((i) => i.id));
    expect(a.items).toHaveLength(100);
    expect(new Set(a.items.map((i) => i.id)).size).toBe(100);
    expect(a.population).toBe(1000);
    const overlap = c.items.filter((i) => a.items.some((x) => x.id === i.id)).length;
    expect(overlap).toBeLessThan(40);
  });

  it('stratified: each day in proportion to its size', async () => {
    const s = await drawSample(source(population, true), { kind: 'post', size: 100, seed: '1', stratified: true });
    const byDay = new Map<string, number>();
    for (const i of s.items) byDay.set(i.stratum!, (byDay.get(i.stratum!) ?? 0) + 1);
    expect(Object.fromEntries(byDay)).toEqual({
      '2026-11-01': 40,
      '2026-11-02': 30,
      '2026-11-03': 20,
      '2026-11-04': 10,
    });
    expect(s.strata).toEqual([
      { value: '2026-11-01', population: 400, drawn: 40 },
      { value: '2026-11-02', population: 300, drawn: 30 },
      { value: '2026-11-03', population: 200, drawn: 20 },
      { value: '2026-11-04', population: 100, drawn: 10 },
    ]);
  });

  it('what a source could not rank is ranked by the draw, and the same sample is drawn', async () => {
    const js = source(population, true);
    const options = { kind: 'post' as const, size: 100, seed: '1', stratified: true };
    // a store that ranks every item but these (PostgreSQL's escaped ids) sends those besides its picks
    const unranked = new Set(population.filter((_, i) => i % 3 === 0).map((p) => p.id));
    const partial: SampleSource = {
      counts: js.counts,
      lowest: async (prefix, quotas) => {
        const ranked = await readingSource(chunks(population.filter((p) => !unranked.has(p.id))), true).lowest(
          prefix,
          quotas,
        );
        return [...ranked, ...population.filter((p) => unranked.has(p.id)).map((p) => ({ ...p, rank: null }))];
      },
    };
    const whole = await drawSample(js, options);
    expect(await drawSample(partial, options)).toEqual(whole);
    expect(whole.items.some((i) => unranked.has(i.id))).toBe(true);
  });

  it('a stratum with fewer items within its bound than its quota is drawn again without it', async () => {
    const js = source(population, true);
    const options = { kind: 'post' as const, size: 100, seed: '1', stratified: true };
    const asks: Array<Array<string | null>> = [];
    // a store that keeps the bounds, one of them (wrongly) far too tight the first time
    const bounded: SampleSource = {
      counts: js.counts,
      lowest: async (prefix, quotas) => {
        asks.push(quotas.map(([, , bound]) => bound));
        const tight = asks.length === 1 ? quotas[0]![0] : null;
        return (await js.lowest(prefix, quotas)).filter(
          (item) => item.group !== tight || sampleRank(prefix, item.id) < '08',
        );
      },
    };
    expect(await drawSample(bounded, options)).toEqual(await drawSample(js, options));
    expect(asks).toHaveLength(2);
    expect(asks[0]!.every((b) => b !== null)).toBe(true);
    expect(asks[1]).toEqual([null]);
  });

  it('bounds a stratum by the share of ranks its quota needs, with room to spare; none for the whole stratum', () => {
    expect(boundFor(10, 400)).toMatch(/^[0-9a-f]{8}f{8}$/);
    // 10 of 400 is 2.5 %; the bound leaves room for 10 + 6·√10 + 10 ≈ 39 of them: about 9.7 %
    expect(parseInt(boundFor(10, 400)!.slice(0, 8), 16) / 2 ** 32).toBeCloseTo(0.097, 2);
    expect(boundFor(30, 30)).toBeNull();
    expect(boundFor(20, 40)).toBeNull();
  });

  it('a sample as large as the source is the whole source; a larger one too', async () => {
    const s = await drawSample(source(population.slice(0, 30), true), {
      kind: 'post',
      size: 50,
      seed: 'x',
      stratified: true,
    });
    expect(s.items).toHaveLength(30);
  });

  it('an empty source draws nothing', async () => {
    const s = await drawSample(source([], false), { kind: 'user', size: 10, seed: 'x', stratified: false });
    expect(s).toEqual({ items: [], population: 0, strata: [] });
  });
});

describe('allocation', () => {
  it('largest remainders, never more than a stratum holds, ties to the larger stratum', () => {
    expect(
      Object.fromEntries(
        allocate(
          new Map([
            ['a', 1],
            ['b', 1],
            ['c', 1],
          ]),
          2,
        ),
      ),
    ).toEqual({ a: 1, b: 1, c: 0 });
    expect(
      Object.fromEntries(
        allocate(
          new Map([
            ['a', 5],
            ['b', 3],
            ['c', 2],
          ]),
          5,
        ),
      ),
    ).toEqual({ a: 3, b: 1, c: 1 });
    expect(
      Object.fromEntries(
        allocate(
          new Map([
            ['a', 2],
            ['b', 98],
          ]),
          100,
        ),
      ),
    ).toEqual({ a: 2, b: 98 });
  });
});

describe('assignment with overlap', () => {
  const items = Array.from({ length: 100 }, (_, position) => ({
    position,
    kind: 'post' as const,
    id: String(1000 + position),
    stratum: null,
  }));

  it('two coders, 20 % overlap: 20 items coded by both, 40 more each', () => {
    const a = assign(items, [1, 2], 0.2, 's');
    const one = a.filter((x) => x.coder === 1);
    const two = a.filter((x) => x.coder === 2);
    expect(one).toHaveLength(60);
    expect(two).toHaveLength(60);
    const both = one.filter((x) => two.some((y) => y.id === x.id));
    expect(both).toHaveLength(20);
    expect(both.every((x) => x.overlap)).toBe(true);
    expect(new Set(a.map((x) => x.id)).size).toBe(100);
    // the double-coded items are not all at the front of a queue
    const positions = one.filter((x) => x.overlap).map((x) => x.position);
    expect(Math.max(...positions)).toBeGreaterThan(30);
  });

  it('three coders, no overlap: each item once, shares within one', () => {
    const a = assign(items, [4, 5, 6], 0, 's');
    expect(a).toHaveLength(100);
    const sizes = [4, 5, 6].map((c) => a.filter((x) => x.coder === c).length);
    expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
  });

  it('one coder codes everything; no coder, nothing', () => {
    expect(assign(items, [9], 0.5, 's')).toHaveLength(100);
    expect(assign(items, [], 0.5, 's')).toEqual([]);
  });
});
