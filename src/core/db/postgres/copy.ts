/**
 * A query's rows read with `COPY (query) TO STDOUT` (pg-copy-streams): the server sends each row as one line of
 * text, and this parses them here, the whole lines of each read at once, with no driver parse per field
 * (node-postgres makes a string and runs a type parser for every field of every row: for a table of millions, as
 * much time as the rest of its export). The stream is read as rows are asked for, so the server is never ahead by more than the socket holds.
 *
 * COPY takes no bound parameters: the query's values are written into it as literals (strings through the
 * NUL-safe codec and pg's quoting, numbers as digits). Text format: rows end with a newline, fields with a tab,
 * `\N` is null, and a backslash escapes what follows (`\n`, `\t`, `\\`, …; COPY TO never writes octal or hex).
 */
import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import type { RowStream } from '../executor';
import { compile, type Sql } from '../sql';
import { fromPg } from './text';

/** a value as a literal of PostgreSQL's SQL (already encoded: strings hold no NUL) */
function pgLiteral(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error('a number SQL cannot say');
    return Number.isInteger(value) ? BigInt(value).toString() : String(value);
  }
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'string') return pg.escapeLiteral(value);
  throw new Error('a value COPY cannot take');
}

const ESCAPED: Record<string, string> = { b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v' };

/** a field's text as COPY wrote it, its escapes undone */
function unescapeCopy(field: string): string {
  return field.replace(/\\(.)/gs, (_m, c: string) => ESCAPED[c] ?? c);
}

const NEWLINE = 10;
const BACKSLASH = 92;
const MINUS = 45;
/**
 * Lines are decoded about this many bytes at a time. A string the size of a socket's read (~95 KB) cost 0.37 ms to
 * make in the archive's worker, 12× what the same bytes cost as strings of 8 KB (measured over a 1.2M-row table);
 * its rows' text, sliced from it, holds it alive past the young generation.
 */
const PIECE = 8192;

/** a number field of `text` from `from` to `to`: up to 15 digits read in place (no slice), any other as `Number` reads it */
function numberAt(text: string, from: number, to: number): number {
  let i = from;
  const negative = text.charCodeAt(i) === MINUS;
  if (negative) i++;
  if (i === to || to - i > 15) return Number(text.slice(from, to));
  let v = 0;
  for (; i < to; i++) {
    const digit = text.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return Number(text.slice(from, to));
    v = v * 10 + digit;
  }
  return negative ? -v : v;
}

/**
 * Every row of `text` (whole lines, each ending with a newline) onto `rows`: text decoded, numbers as numbers, `\N`
 * as null. Fields are read where they lie in the chunk's text: no string per line, none per number.
 */
function copyRows(text: string, numbers: readonly boolean[], rows: unknown[][]): void {
  const last = numbers.length - 1;
  let at = 0;
  while (at < text.length) {
    const lineEnd = text.indexOf('\n', at);
    const row = new Array<unknown>(numbers.length);
    for (let i = 0; i <= last; i++) {
      let end = i === last ? lineEnd : text.indexOf('\t', at);
      // a line with fewer fields than asked (none has): the rest stay undefined
      if (end < 0 || end > lineEnd) end = lineEnd;
      if (end - at === 2 && text.charCodeAt(at) === BACKSLASH && text.charCodeAt(at + 1) === 78) row[i] = null;
      else if (numbers[i]) row[i] = numberAt(text, at, end);
      else {
        const field = text.slice(at, end);
        const plain = field.includes('\\') ? unescapeCopy(field) : field;
        row[i] = plain.charCodeAt(0) === 1 ? fromPg(plain) : plain;
      }
      at = end + 1;
      if (end === lineEnd) break;
    }
    at = lineEnd + 1;
    rows.push(row);
  }
}

/**
 * `q`'s rows through COPY on `client` (checked out for this stream alone): `done` is told when the stream is over
 * (read to its end: the connection is clean; closed early or failed: it must be dropped, COPY cannot be stopped
 * halfway on it).
 */
export function copyStream(
  client: pg.PoolClient,
  q: Sql,
  numbers: readonly boolean[],
  encode: (v: unknown) => unknown,
  done: (clean: boolean) => void,
): RowStream {
  const { text } = compile(q, 'postgres', encode, (_n, v) => pgLiteral(v));
  const stream = client.query(copyTo(`COPY (${text}) TO STDOUT`));
  const chunks: AsyncIterator<Buffer> = stream[Symbol.asyncIterator]();
  const rows: unknown[][] = [];
  /** the bytes after the last whole line: a row (and a character) may be cut between chunks */
  let partial: Buffer | null = null;
  let over = false;
  const finish = (clean: boolean) => {
    if (over) return;
    over = true;
    if (!clean) stream.destroy();
    done(clean);
  };
  return {
    next: async (max) => {
      try {
        while (rows.length < max && !over) {
          const step: IteratorResult<Buffer> = await chunks.next();
          if (step.done === true) {
            // COPY ends every row with a newline: anything after the last one would be a row cut short
            if (partial) copyRows(`${partial.toString('utf8')}\n`, numbers, rows);
            partial = null;
            finish(true);
            break;
          }
          const bytes: Buffer = partial ? Buffer.concat([partial, step.value]) : step.value;
          // whole lines decoded (UTF-8 never has a newline byte inside a character): no decoder state carried
          // between chunks, no string joined to the last chunk's rest; a few KB at a time (see PIECE)
          const cut = bytes.lastIndexOf(NEWLINE);
          partial = cut + 1 < bytes.length ? bytes.subarray(cut + 1) : null;
          for (let from = 0; from <= cut;) {
            const to = from + PIECE >= cut ? cut : bytes.indexOf(NEWLINE, from + PIECE);
            copyRows(bytes.toString('utf8', from, to + 1), numbers, rows);
            from = to + 1;
          }
        }
      } catch (e) {
        finish(false);
        throw e;
      }
      return rows.splice(0, max);
    },
    close: async () => finish(false),
  };
}
