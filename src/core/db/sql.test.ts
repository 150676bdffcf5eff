import { describe, expect, it } from 'vitest';
import { compile, sql } from './sql';

describe('a query written once', () => {
  it('binds every value, numbered as PostgreSQL numbers them and as ? for SQLite', () => {
    const q = sql`SELECT * FROM t WHERE a = ${'x'} AND b IN (${sql.join([1, 2])}) AND c = ${null}`;
    expect(compile(q, 'sqlite')).toEqual({
      text: 'SELECT * FROM t WHERE a = ? AND b IN (?, ?) AND c = ?',
      values: ['x', 1, 2, null],
    });
    expect(compile(q, 'postgres').text).toBe('SELECT * FROM t WHERE a = $1 AND b IN ($2, $3) AND c = $4');
  });

  it('splices a nested query with its own values in order, a trusted name as text, and per-dialect text', () => {
    const where = sql`kind = ${'post'}`;
    const q = sql`SELECT ${sql.raw('id')} FROM items WHERE ${where} AND n > ${sql.of({ sqlite: 'max', postgres: 'GREATEST' })}(${1}, ${2})`;
    expect(compile(q, 'postgres')).toEqual({
      text: 'SELECT id FROM items WHERE kind = $1 AND n > GREATEST($2, $3)',
      values: ['post', 1, 2],
    });
    expect(compile(q, 'sqlite').text).toBe('SELECT id FROM items WHERE kind = ? AND n > max(?, ?)');
  });

  it('never pastes a value into the text, however it reads', () => {
    const hostile = "x'); DROP TABLE items; --";
    const { text, values } = compile(sql`SELECT 1 WHERE a = ${hostile}`, 'postgres');
    expect(text).not.toContain('DROP');
    expect(values).toEqual([hostile]);
  });

  it('binds a list of rows as one piece, numbered across rows', () => {
    const q = sql`INSERT INTO t (a, b) VALUES ${sql.rows([
      [1, 'x'],
      [2, null],
    ])} ON CONFLICT DO NOTHING`;
    expect(compile(q, 'postgres')).toEqual({
      text: 'INSERT INTO t (a, b) VALUES ($1, $2), ($3, $4) ON CONFLICT DO NOTHING',
      values: [1, 'x', 2, null],
    });
    expect(compile(q, 'sqlite').text).toBe('INSERT INTO t (a, b) VALUES (?, ?), (?, ?) ON CONFLICT DO NOTHING');
  });

  it('binds records by their columns, in order, after the values before them', () => {
    const q = sql`SELECT ${0} FROM t WHERE (a, b) IN (VALUES ${sql.rows(
      [
        { b: 'x', a: 1, c: true },
        { b: 'y', a: 2, c: false },
      ],
      ['a', 'b'],
    )})`;
    expect(compile(q, 'postgres')).toEqual({
      text: 'SELECT $1 FROM t WHERE (a, b) IN (VALUES ($2, $3), ($4, $5))',
      values: [0, 1, 'x', 2, 'y'],
    });
    expect(compile(q, 'sqlite').text).toBe('SELECT ? FROM t WHERE (a, b) IN (VALUES (?, ?), (?, ?))');
    expect(() => compile(sql`VALUES ${sql.rows([[1, 2], [3]])}`, 'sqlite')).toThrow(/width/);
  });

  it("writes another driver's placeholders when told, each given its value, in a batch too", () => {
    const q = sql`SELECT ${'a'} WHERE x IN (VALUES ${sql.rows([[1, 2]])}) AND y = ${3}`;
    expect(
      compile(
        q,
        'postgres',
        (v) => v,
        () => '%s',
      ),
    ).toEqual({
      text: 'SELECT %s WHERE x IN (VALUES (%s, %s)) AND y = %s',
      values: ['a', 1, 2, 3],
    });
    expect(
      compile(
        q,
        'sqlite',
        (v) => v,
        (n, v) => `<${n}:${String(v)}>`,
      ).text,
    ).toBe('SELECT <1:a> WHERE x IN (VALUES (<2:1>, <3:2>)) AND y = <4:3>');
  });
});
