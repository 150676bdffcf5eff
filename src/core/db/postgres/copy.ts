/**
 * A query's rows read with `COPY (query) TO STDOUT` (pg-copy-streams): the server sends each row as one line of
 * text, and this parses them here, a line at a time, with no driver parse per field (node-postgres makes a string
 * and runs a type parser for every field of every row: for a table of millions, as much time as the rest of its
 * export). The stream is read as rows are asked for, so the server is never ahead by more than the socket holds.
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

/** one row's fields from `line` (no newline): text decoded, numbers as numbers, `\N` as null */
function copyRow(line: string, numbers: readonly boolean[]): unknown[] {
  const row = new Array<unknown>(numbers.length);
  let at = 0;
  for (let i = 0; i < numbers.length; i++) {
    let end = line.indexOf('\t', at);
    if (end < 0 || i === numbers.length - 1) end = line.length;
    const field = line.slice(at, end);
    if (field === '\\N') row[i] = null;
    else if (numbers[i]) row[i] = Number(field);
    else {
      const text = field.includes('\\') ? unescapeCopy(field) : field;
      row[i] = text.charCodeAt(0) === 1 ? fromPg(text) : text;
    }
    at = end + 1;
  }
  return row;
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
  const decoder = new TextDecoder();
  const rows: unknown[][] = [];
  let rest = '';
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
          const end = step.done === true;
          const value = end ? undefined : step.value;
          const text = rest + (end ? decoder.decode() : decoder.decode(value, { stream: true }));
          let at = 0;
          for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', at)) {
            rows.push(copyRow(text.slice(at, nl), numbers));
            at = nl + 1;
          }
          rest = text.slice(at);
          if (end) finish(true);
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
