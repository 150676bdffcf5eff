/**
 * The agreement statistics against published worked examples, to three decimals: Krippendorff's own reliability
 * data matrices ("Computing Krippendorff's Alpha-Reliability", 2011: the binary two-coder matrix, the nominal
 * two-coder matrix, and the four-coder matrix with missing values at every level), the standard 2×2 example of
 * Cohen's κ, and the 10-subject, 14-rater example of Fleiss' κ.
 */
import { describe, expect, it } from 'vitest';
import {
  bootstrapInterval,
  coincidences,
  cohenKappa,
  fleissKappa,
  krippendorffAlpha,
  percentAgreement,
  type Unit,
} from './stats';

/** A reliability data matrix (coders as rows, units as columns, null missing) as units of value indices. */
function unitsOf(rows: ReadonlyArray<ReadonlyArray<number | null>>, toIndex: (v: number) => number): Unit[] {
  const width = rows[0]!.length;
  const units: Unit[] = [];
  for (let u = 0; u < width; u++) units.push(rows.flatMap((r) => (r[u] === null ? [] : [toIndex(r[u]!)])));
  return units;
}

describe("Krippendorff's α: the published examples", () => {
  it('binary data, two coders (α = 0.095)', () => {
    const units = unitsOf(
      [
        [0, 1, 0, 0, 0, 0, 0, 0, 1, 0],
        [1, 1, 1, 0, 0, 1, 0, 0, 0, 0],
      ],
      (v) => v,
    );
    expect(krippendorffAlpha(units, 2, 'nominal')).toBeCloseTo(0.095, 3);
  });

  it('nominal data, two coders, no missing values (α = 0.692)', () => {
    const letters = 'abcde';
    // Coder A: a a b b d c c c e d d a; Coder B: b a b b b c c c e d d d
    const rows = ['aabbdcccedda', 'babbbccceddd'];
    const units = unitsOf(
      rows.map((r) => [...r].map((c) => letters.indexOf(c))),
      (v) => v,
    );
    expect(krippendorffAlpha(units, 5, 'nominal')).toBeCloseTo(0.692, 3);
  });

  // four coders, twelve units, values 1-5, missing values (.)
  const C = [
    [1, 2, 3, 3, 2, 1, 4, 1, 2, null, null, null],
    [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, null, 3],
    [null, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, null],
    [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, null],
  ];
  const units = unitsOf(C, (v) => v - 1);
  const values = [1, 2, 3, 4, 5];

  it('four coders with missing values: the coincidence matrix has n = 40 pairable values', () => {
    const { n, units: pairable } = coincidences(units, 5);
    expect(n).toBeCloseTo(40, 10);
    expect(pairable).toBe(11);
  });

  it('four coders with missing values: nominal α = 0.743', () => {
    expect(krippendorffAlpha(units, 5, 'nominal')).toBeCloseTo(0.743, 3);
  });

  it('four coders with missing values: ordinal α = 0.815', () => {
    expect(krippendorffAlpha(units, 5, 'ordinal')).toBeCloseTo(0.815, 3);
  });

  it('four coders with missing values: interval α = 0.849', () => {
    expect(krippendorffAlpha(units, 5, 'interval', values)).toBeCloseTo(0.849, 3);
  });

  it('is undefined without variation, and with nothing pairable', () => {
    expect(
      krippendorffAlpha(
        [
          [0, 0],
          [0, 0, 0],
        ],
        2,
        'nominal',
      ),
    ).toBeNull();
    expect(krippendorffAlpha([[0], [1]], 2, 'nominal')).toBeNull();
    expect(krippendorffAlpha([], 2, 'nominal')).toBeNull();
  });

  it('perfect agreement is 1 at every level', () => {
    const perfect: Unit[] = [
      [0, 0],
      [1, 1, 1],
      [2, 2],
    ];
    for (const level of ['nominal', 'ordinal', 'interval'] as const)
      expect(krippendorffAlpha(perfect, 3, level)).toBe(1);
  });
});

describe("Cohen's κ and Fleiss' κ: the standard examples", () => {
  it('Cohen: 50 items, 20 yes/yes, 5 yes/no, 10 no/yes, 15 no/no (κ = 0.400)', () => {
    const pairs: Array<[number, number]> = [
      ...Array.from({ length: 20 }, (): [number, number] => [0, 0]),
      ...Array.from({ length: 5 }, (): [number, number] => [0, 1]),
      ...Array.from({ length: 10 }, (): [number, number] => [1, 0]),
      ...Array.from({ length: 15 }, (): [number, number] => [1, 1]),
    ];
    expect(cohenKappa(pairs, 2)).toBeCloseTo(0.4, 3);
  });

  it('Cohen: undefined when both coders always give one and the same value', () => {
    expect(
      cohenKappa(
        [
          [1, 1],
          [1, 1],
        ],
        2,
      ),
    ).toBeNull();
    expect(cohenKappa([], 2)).toBeNull();
  });

  it('Fleiss: 10 subjects, 14 raters, 5 categories (κ = 0.210)', () => {
    const counts = [
      [0, 0, 0, 0, 14],
      [0, 2, 6, 4, 2],
      [0, 0, 3, 5, 6],
      [0, 3, 9, 2, 0],
      [2, 2, 8, 1, 1],
      [7, 7, 0, 0, 0],
      [3, 2, 6, 3, 0],
      [2, 5, 3, 2, 2],
      [6, 5, 2, 1, 0],
      [0, 2, 2, 3, 7],
    ];
    expect(fleissKappa(counts)).toBeCloseTo(0.21, 3);
  });

  it('Fleiss with two raters is close to Scott’s π (and so to α with many units)', () => {
    const units: Unit[] = Array.from({ length: 200 }, (_, i) => (i % 5 === 0 ? [0, 1] : i % 2 ? [1, 1] : [0, 0]));
    const counts = units.map((u) => [u.filter((v) => v === 0).length, u.filter((v) => v === 1).length]);
    const alpha = krippendorffAlpha(units, 2, 'nominal')!;
    const fleiss = fleissKappa(counts)!;
    // α = π (n−1)/n + 1/n for two coders without missing values (Krippendorff's small-sample correction)
    const n = 400;
    expect(alpha).toBeCloseTo(fleiss + (1 - fleiss) / n, 10);
  });

  it('Fleiss refuses units rated a different number of times', () => {
    expect(() =>
      fleissKappa([
        [1, 1],
        [2, 1],
      ]),
    ).toThrow(RangeError);
  });
});

describe('percent agreement and the bootstrap interval', () => {
  it('percent agreement counts agreeing pairs per unit, each unit weighing the same', () => {
    expect(percentAgreement([[0, 0], [0, 1], [1, 1, 1], [2]])).toBeCloseTo((1 + 0 + 1) / 3, 10);
    expect(percentAgreement([[0, 1, 1]])).toBeCloseTo(1 / 3, 10);
    expect(percentAgreement([[0]])).toBeNull();
  });

  it('the interval holds the estimate, is reproducible from its seed, and differs with another seed', async () => {
    const units: Unit[] = Array.from({ length: 120 }, (_, i) => (i % 7 === 0 ? [0, 1] : [i % 3, i % 3]));
    const stat = (s: readonly Unit[]) => krippendorffAlpha(s, 3, 'nominal');
    const alpha = stat(units)!;
    const a = (await bootstrapInterval(units, stat, { seed: 7 }))!;
    const b = (await bootstrapInterval(units, stat, { seed: 7 }))!;
    const c = (await bootstrapInterval(units, stat, { seed: 8 }))!;
    expect(a).toEqual(b);
    expect(a.low).toBeLessThanOrEqual(alpha);
    expect(a.high).toBeGreaterThanOrEqual(alpha);
    expect(a.high - a.low).toBeGreaterThan(0);
    expect(c).not.toEqual(a);
    expect(await bootstrapInterval([[0, 1]], stat)).toBeNull();
  });
});
