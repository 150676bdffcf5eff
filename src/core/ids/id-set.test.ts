import { describe, expect, it } from 'vitest';
import { IdSet } from './id-set';

describe('IdSet', () => {
  it('tells a new id from one seen before, across growth, for 19-digit ids and short ones', () => {
    const set = new IdSet();
    const ids: string[] = [];
    for (let i = 0; i < 20_000; i++) ids.push(String(1_600_000_000_000_000_000n + BigInt(i) * 7919n), String(i + 1));
    for (const id of ids) expect(set.add(id)).toBe(true);
    for (const id of ids) expect(set.add(id)).toBe(false);
    expect(set.size).toBe(40_000);
  });

  it('keeps ids apart that share their halves, and holds what is not a plain number as text', () => {
    const set = new IdSet();
    // same last nine digits, different leading ones; a leading zero; the largest 19 digits; 20 digits
    const hostile = ['1000000001', '2000000001', '1', '01', '001', '9999999999999999999', '99999999999999999999', '0'];
    for (const id of hostile) expect(set.add(id)).toBe(true);
    for (const id of hostile) expect(set.add(id)).toBe(false);
    expect(set.add('999999999999999999')).toBe(true);
    // thousands that differ only in their leading digits (the same last nine), and only in their last nine
    for (let k = 3; k < 5000; k++) expect(set.add(`${k}000000001`)).toBe(true);
    for (let k = 2; k < 5000; k++) expect(set.add(`1${String(k).padStart(9, '0')}`)).toBe(true);
    expect(set.size).toBe(hostile.length + 1 + 4997 + 4998);
  });

  it('says whether it holds an id without adding it, across growth and for ids held as text', () => {
    const set = new IdSet();
    const held = Array.from({ length: 30_000 }, (_, i) => String(1_600_000_000_000_000_000n + BigInt(i) * 7919n));
    const text = ['01', 'abc', '99999999999999999999', ''];
    for (const id of [...held, ...text]) set.add(id);
    for (const id of [...held, ...text]) expect(set.has(id)).toBe(true);
    // near misses: one more, the same last nine digits, a leading zero, a number held only as text
    for (const id of ['1600000000000000001', '2600000000000000000', '0' + held[5], '1', '9999999999999999999'])
      expect(set.has(id)).toBe(false);
    expect(set.size).toBe(held.length + text.length);
    expect(set.add('1600000000000000001')).toBe(true);
    expect(set.has('1600000000000000001')).toBe(true);
  });

  it('gives its memory back as soon as the reading is done, not at the next full collection', () => {
    const set = new IdSet();
    for (let i = 0; i < 200_000; i++) set.add(String(1_600_000_000_000_000_000n + BigInt(i) * 7919n));
    const before = process.memoryUsage().arrayBuffers;
    set.release();
    // 200,000 ids: a table of 2^19 slots, 12 bytes each, for a new set's 2^12
    expect(before - process.memoryUsage().arrayBuffers).toBeGreaterThanOrEqual(12 * (2 ** 19 - 2 ** 12));
    // empty after, and usable again: nothing it held is still "seen"
    expect(set.size).toBe(0);
    for (let i = 0; i < 10_000; i++) expect(set.add(String(1_600_000_000_000_000_000n + BigInt(i) * 7919n))).toBe(true);
    expect(set.add(String(1_600_000_000_000_000_000n))).toBe(false);
    expect(set.size).toBe(10_000);
  });
});
