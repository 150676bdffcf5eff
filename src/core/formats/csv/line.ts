/**
 * One CSV record as text, byte for byte what csv-stringify wrote with the
 * options Skein used (`,` delimiter, `"` quote doubled inside, `\n` after each
 * record, a cell quoted only when it holds `,`, `"`, CR or LF; null → empty;
 * numbers as `String(n)`; booleans `true`/`false`), without its per-cell
 * option objects, column getters and casts: the export's CPU went there
 * (`npm run bench:export`). `csv-line.test.ts` compares the two on hostile
 * cells.
 */
import { neutraliseFormula } from './formula';
import type { Cell } from './table';

const NEEDS_QUOTES = /[",\r\n]/;
const QUOTE = /"/g;
/** Skein's own numeric-id text formulas (`="123…"`): the one kind of formula written. */
const SPREADSHEET_ID = /^="\d+"$/;

/** A text cell as written: neutralised when asked (never Skein's `="id"` cells), quoted when needed. */
function textCell(value: string, neutral: boolean): string {
  // the first character decides whether a cell is formula-like (`neutraliseFormula`): no regex for the rest
  const c = value.charCodeAt(0);
  const formulaLike = c === 61 || c === 43 || c === 45 || c === 64 || c === 9 || c === 13;
  const v = neutral && formulaLike && !SPREADSHEET_ID.test(value) ? neutraliseFormula<string>(value) : value;
  if (!NEEDS_QUOTES.test(v)) return v;
  return `"${v.replace(QUOTE, '""')}"`;
}

export function csvCell(value: Cell | undefined, neutral: boolean): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return textCell(value, neutral);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  return String(value);
}

/** A record and its line end. */
export function csvLine(cells: ReadonlyArray<Cell | undefined>, neutral: boolean): string {
  let line = '';
  for (let i = 0; i < cells.length; i++) {
    if (i > 0) line += ',';
    line += csvCell(cells[i], neutral);
  }
  return `${line}\n`;
}

export const UTF8_BOM = '\ufeff';
