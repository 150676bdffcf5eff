/**
 * Queries written once for both stores: a tagged template whose values become bound parameters, compiled for
 * one dialect at a time (`?` for SQLite, `$1, $2, …` for PostgreSQL). A value that is itself a query is
 * spliced in with its own parameters; `sql.raw` splices trusted text (a column name from a fixed list, never a
 * value); `sql.of` splices the one piece of text where the dialects differ (dialect.ts keeps the common ones).
 * Kysely's "split query building and execution" is the idea, in a page and with no dependency: compiling is
 * pure, so SQLite's statements stay synchronous in the archive's worker.
 */
export type DialectName = 'sqlite' | 'postgres';

/**
 * What a query may be compiled for: a store's dialect, or DuckDB, which no store runs but a script a person
 * runs does (over a Parquet copy of the project). DuckDB reads PostgreSQL's SQL except where a piece says
 * its own text.
 */
export type ScriptDialect = DialectName | 'duckdb';

/** the text of a piece that differs by dialect: each store's, and DuckDB's where it is not PostgreSQL's */
type ByDialect = Record<DialectName, string> & { duckdb?: string };

type Piece = string | { value: unknown } | { dialect: ByDialect } | Batch;

/** rows of values: lists, or records whose `columns` are bound in order */
interface Batch {
  rows: readonly object[];
  columns: readonly PropertyKey[] | null;
}

/** A query (or part of one), not yet compiled for a dialect. */
export class Sql {
  /** @internal the pieces in order: text, bound values and per-dialect text */
  constructor(readonly pieces: readonly Piece[]) {}
}

const isSql = (v: unknown): v is Sql => v instanceof Sql;

/** `sql\`SELECT * FROM t WHERE id = ${id}\``: every interpolated value is bound, never pasted. */
export function sql(strings: TemplateStringsArray, ...values: unknown[]): Sql {
  const pieces: Piece[] = [];
  strings.forEach((text, i) => {
    if (text) pieces.push(text);
    if (i >= values.length) return;
    const v = values[i];
    if (isSql(v)) pieces.push(...v.pieces);
    else pieces.push({ value: v });
  });
  return new Sql(pieces);
}

/** Trusted text spliced as it stands: a table or column name from a fixed list in the code, never a value. */
sql.raw = (text: string): Sql => new Sql([text]);

/** Text that differs by dialect (a function's name, a type, a clause only one of them has). */
sql.of = (by: ByDialect): Sql => new Sql([{ dialect: by }]);

/** Parts joined by a separator (`, ` unless told): a list of values becomes one bound parameter each. */
sql.join = (parts: readonly unknown[], separator = ', '): Sql => {
  const pieces: Piece[] = [];
  parts.forEach((p, i) => {
    if (i > 0) pieces.push(separator);
    if (isSql(p)) pieces.push(...p.pieces);
    else pieces.push({ value: p });
  });
  return new Sql(pieces);
};

/**
 * Rows of bound values, `(a, b), (c, d), …`: a multi-row insert's VALUES or a list of keys. One piece for the
 * whole list, so a batch of thousands of rows builds no object per row. Each row is a list of values, or a
 * record whose `columns` are bound in order (a batch of records then builds no list per row either).
 */
function rows(list: ReadonlyArray<readonly unknown[]>): Sql;
function rows<T extends object>(list: readonly T[], columns: ReadonlyArray<keyof T>): Sql;
function rows(list: readonly object[], columns: readonly PropertyKey[] | null = null): Sql {
  return new Sql([{ rows: list, columns }]);
}
sql.rows = rows;

/** A query as one dialect runs it: its text and its values in order. */
export interface Compiled {
  text: string;
  values: unknown[];
}

/** how many values each of a batch's rows binds */
const widthOf = ({ rows, columns }: Batch): number =>
  columns?.length ?? (rows[0] as unknown[] | undefined)?.length ?? 0;

/** how many values a piece binds */
const valueCount = (piece: Piece): number => {
  if (typeof piece === 'string' || 'dialect' in piece) return 0;
  return 'value' in piece ? 1 : piece.rows.length * widthOf(piece);
};

/** A placeholder's text for the `n`th value (from 1), given that value as encoded. */
export type Mark = (n: number, value: unknown) => string;

/**
 * The text and values of `q` for `dialect`; `encode` turns each bound value into what the driver takes, `mark`
 * writes each placeholder (another driver's, such as psycopg2's `%s`, or a value as a literal for a script).
 */
export function compile(
  q: Sql,
  dialect: ScriptDialect,
  encode: (v: unknown) => unknown = (v) => v,
  mark?: Mark,
): Compiled {
  let text = '';
  // sized once: a batch's thousands of values are bound without the list growing step by step
  const values = new Array<unknown>(q.pieces.reduce((n, piece) => n + valueCount(piece), 0));
  let n = 0;
  for (const piece of q.pieces) {
    if (typeof piece === 'string') text += piece;
    else if ('dialect' in piece)
      text += dialect === 'duckdb' ? (piece.dialect.duckdb ?? piece.dialect.postgres) : piece.dialect[dialect];
    else if ('value' in piece) {
      values[n++] = encode(piece.value);
      text += mark ? mark(n, values[n - 1]) : dialect === 'sqlite' ? '?' : `$${n}`;
    } else {
      text += batch(piece, dialect, values, n, encode, mark);
      n += valueCount(piece);
    }
  }
  return { text, values };
}

/** A batch's `(a, b), (c, d), …`, its values encoded into `values` from `at` on. */
function batch(
  piece: Batch,
  dialect: ScriptDialect,
  values: unknown[],
  at: number,
  encode: (v: unknown) => unknown,
  mark: Mark | undefined,
): string {
  const { rows, columns } = piece;
  const width = widthOf(piece);
  let n = at;
  for (const row of rows) {
    if (!columns && (row as unknown[]).length !== width) throw new Error('the rows of a batch differ in width');
    for (let i = 0; i < width; i++)
      values[n++] = encode(
        columns ? (row as Record<PropertyKey, unknown>)[columns[i] as PropertyKey] : (row as unknown[])[i],
      );
  }
  const tuple = (r: number) =>
    `(${Array.from({ length: width }, (_, i) => (dialect === 'sqlite' ? '?' : `$${at + r * width + i + 1}`)).join(', ')})`;
  if (mark) {
    const place = (r: number, i: number) => at + r * width + i + 1;
    return rows
      .map(
        (_, r) => `(${Array.from({ length: width }, (_, i) => mark(place(r, i), values[place(r, i) - 1])).join(', ')})`,
      )
      .join(', ');
  }
  // SQLite's placeholders are the same for every row: built once, not row by row
  return dialect === 'sqlite'
    ? Array<string>(rows.length).fill(tuple(0)).join(', ')
    : rows.map((_, r) => tuple(r)).join(', ');
}
