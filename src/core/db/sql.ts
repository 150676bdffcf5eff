/**
 * Queries written once for both stores: a tagged template whose values become bound parameters, compiled for
 * one dialect at a time (`?` for SQLite, `$1, $2, …` for PostgreSQL). A value that is itself a query is
 * spliced in with its own parameters; `sql.raw` splices trusted text (a column name from a fixed list, never a
 * value); `sql.of` splices the one piece of text where the dialects differ (dialect.ts keeps the common ones).
 * Kysely's "split query building and execution" is the idea, in a page and with no dependency: compiling is
 * pure, so SQLite's statements stay synchronous in the archive's worker.
 */
export type DialectName = 'sqlite' | 'postgres';

type Piece =
  string | { value: unknown } | { dialect: Record<DialectName, string> } | { rows: ReadonlyArray<readonly unknown[]> };

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
sql.of = (by: Record<DialectName, string>): Sql => new Sql([{ dialect: by }]);

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
 * whole list, so a batch of thousands of rows builds no object per row.
 */
sql.rows = (rows: ReadonlyArray<readonly unknown[]>): Sql => new Sql([{ rows }]);

/** A query as one dialect runs it: its text and its values in order. */
export interface Compiled {
  text: string;
  values: unknown[];
}

/** The text and values of `q` for `dialect`; `encode` turns each bound value into what the driver takes. */
export function compile(q: Sql, dialect: DialectName, encode: (v: unknown) => unknown = (v) => v): Compiled {
  let text = '';
  const values: unknown[] = [];
  for (const piece of q.pieces) {
    if (typeof piece === 'string') text += piece;
    else if ('dialect' in piece) text += piece.dialect[dialect];
    else if ('rows' in piece)
      piece.rows.forEach((row, r) => {
        let tuple = r > 0 ? ', (' : '(';
        row.forEach((v, i) => {
          values.push(encode(v));
          tuple += (i > 0 ? ', ' : '') + (dialect === 'postgres' ? `$${values.length}` : '?');
        });
        text += `${tuple})`;
      });
    else {
      values.push(encode(piece.value));
      text += dialect === 'postgres' ? `$${values.length}` : '?';
    }
  }
  return { text, values };
}
