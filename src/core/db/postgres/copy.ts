/**
 * A query's rows read with `COPY (query) TO STDOUT` (pg-copy-streams): the server sends each row as one line of
 * text, and this parses them here, the whole lines of each read at once, with no driver parse per field
 * (node-postgres makes a string and runs a type parser for every field of every row: for a table of millions, as
 * much time as the rest of its export). The stream is read as rows are asked for, so the server is never ahead by
 * more than the socket holds.
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

/** a number field of `text` from `from` to `to`: up to 15 digits read in place (no slice), others by `Number` */
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
 * The row of `text` (whole lines, each ending with a newline) that starts at `at`, into `row`: text decoded, numbers
 * as numbers, `\N` as null. Fields are read where they lie in the text: no string per line, none per number. Returns
 * where the next row starts.
 */
function copyRow(text: string, at: number, numbers: readonly boolean[], row: unknown[]): number {
  const last = numbers.length - 1;
  const lineEnd = text.indexOf('\n', at);
  for (let i = 0; i <= last; i++) {
    let end = i === last ? lineEnd : text.indexOf('\t', at);
    // a line with fewer fields than asked (none has): the rest are undefined
    if (end < 0 || end > lineEnd) {
      end = lineEnd;
      row.fill(undefined, i + 1);
    }
    if (end - at === 2 && text.charCodeAt(at) === BACKSLASH && text.charCodeAt(at + 1) === 78) row[i] = null;
    else if (numbers[i]) row[i] = numberAt(text, at, end);
    else {
      const field = text.slice(at, end);
      const plain = field.includes('\\') ? unescapeCopy(field) : field;
      row[i] = plain.charCodeAt(0) === 1 ? fromPg(plain) : plain;
    }
    if (end === lineEnd) break;
    at = end + 1;
  }
  return lineEnd + 1;
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
  /** the read in hand (with the last one's cut row before it), its last newline, and its first byte not decoded */
  let bytes: Buffer | null = null;
  let cut = -1;
  let from = 0;
  /** the piece of whole lines decoded, and where its next row starts */
  let piece = '';
  let at = 0;
  let over = false;
  let closed = false;
  const finish = (clean: boolean) => {
    if (over) return;
    over = true;
    if (!clean) stream.destroy();
    done(clean);
  };
  /** a piece with a row in it to read (decoded, or a read waited for): false at the end */
  const fill = async (): Promise<boolean> => {
    while (at >= piece.length) {
      if (closed) return false;
      if (bytes !== null && from <= cut) {
        // whole lines decoded (UTF-8 never has a newline byte inside a character): no decoder state carried
        // between reads, no string joined to the last read's rest; a few KB at a time (see PIECE)
        const to = from + PIECE >= cut ? cut : bytes.indexOf(NEWLINE, from + PIECE);
        piece = bytes.toString('utf8', from, to + 1);
        at = 0;
        from = to + 1;
        continue;
      }
      if (over) return false;
      // the bytes after the last whole line: a row (and a character) may be cut between reads
      const partial = bytes !== null && cut + 1 < bytes.length ? bytes.subarray(cut + 1) : null;
      const step: IteratorResult<Buffer> = await chunks.next();
      if (step.done === true) {
        finish(true);
        bytes = null;
        // COPY ends every row with a newline: anything after the last one would be a row cut short
        if (partial === null) return false;
        piece = `${partial.toString('utf8')}\n`;
        at = 0;
        continue;
      }
      bytes = partial ? Buffer.concat([partial, step.value]) : step.value;
      cut = bytes.lastIndexOf(NEWLINE);
      from = 0;
    }
    return true;
  };
  /** up to `max` rows, each into `into()` and handed to `each`; how many */
  const read = async (max: number, into: () => unknown[], each: (row: unknown[]) => void): Promise<number> => {
    let n = 0;
    try {
      while (n < max && (await fill()))
        for (; n < max && at < piece.length; n++) {
          const row = into();
          at = copyRow(piece, at, numbers, row);
          each(row);
        }
    } catch (e) {
      finish(false);
      throw e;
    }
    return n;
  };
  const width = numbers.length;
  return {
    next: async (max) => {
      const rows: unknown[][] = [];
      await read(
        max,
        () => new Array<unknown>(width),
        (row) => rows.push(row),
      );
      return rows;
    },
    visit: (max, each) => {
      const row = new Array<unknown>(width);
      return read(max, () => row, each);
    },
    close: async () => {
      closed = true;
      finish(false);
    },
  };
}
