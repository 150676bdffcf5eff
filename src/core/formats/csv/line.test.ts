import { stringify } from 'csv-stringify/sync';
import { describe, expect, it } from 'vitest';
import { neutraliseFormula } from './formula';
import { csvLine } from './line';
import type { Cell } from './table';

/** What the CSV writer wrote through csv-stringify before csv-line.ts: the reference it must equal byte for byte. */
function reference(cells: Cell[], neutral: boolean): string {
  return stringify([cells], {
    cast: {
      boolean: (v: boolean) => (v ? 'true' : 'false'),
      string: (v: string) => (neutral && !/^="\d+"$/.test(v) ? String(neutraliseFormula(v)) : v),
    },
  });
}

const HOSTILE: Cell[] = [
  '',
  'plain',
  'a,b',
  'say "hi"',
  '"',
  '""',
  'line\nbreak',
  'cr\ronly',
  'crlf\r\nend',
  '=SUM(A1:A2)',
  '+1',
  '-1',
  '@handle',
  '\tTAB',
  '\rCR',
  '="1234567890123456789"',
  '="12a"',
  "=cmd|' /C calc'!A0",
  '\ufeffbom',
  '\u0000nul\u0007bel',
  '\ud800 lone surrogate',
  '日本語, é',
  ' spaced ',
  'back\\slash',
  0,
  -1,
  1.5,
  1e21,
  2 ** 64,
  Number.MAX_SAFE_INTEGER,
  true,
  false,
  null,
];

describe('csvLine', () => {
  for (const neutral of [true, false]) {
    it(`writes every hostile cell as csv-stringify did (${neutral ? 'neutralised' : 'exact'})`, () => {
      for (const cell of HOSTILE) expect(csvLine([cell], neutral)).toBe(reference([cell], neutral));
      expect(csvLine(HOSTILE, neutral)).toBe(reference(HOSTILE, neutral));
    });
  }

  it('neutralises formula cells but never Skein\'s own ="id" cells', () => {
    expect(csvLine(['=1+1', '="123"', '-2'], true)).toBe(`'=1+1,"=""123""",'-2\n`);
    expect(csvLine(['=1+1'], false)).toBe('=1+1\n');
  });
});
