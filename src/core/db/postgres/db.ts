/**
 * What a team project's parts share (the project, its coding tables, its watch tables): the pool of connections
 * to its schema, its address (for messages, never with the password), the clock, a query's failure said in plain
 * words, and one transaction on one connection.
 */
import type pg from 'pg';
import { SkeinError } from '../../../shared/errors';
import type { PgConnection } from './connection';
import { checkout, explain, isTransient } from './pool';
import type { Params } from './params';

export interface PgDb {
  readonly pool: pg.Pool;
  readonly connection: PgConnection;
  readonly now: () => number;
  /** `work`, its failure in plain words (a transient one marked so, for the host to keep its batch) */
  run: <T>(work: () => Promise<T>) => Promise<T>;
  /** `work` in one transaction on one connection: committed when it returns, rolled back when it throws */
  transaction: <T>(work: (client: pg.PoolClient) => Promise<T>) => Promise<T>;
  /** one statement's rows, in plain words when it fails */
  rows: <R extends pg.QueryResultRow>(sql: string, values?: unknown[]) => Promise<R[]>;
}

export function pgDb(pool: pg.Pool, connection: PgConnection, now: () => number): PgDb {
  const run = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (e) {
      if (isTransient(e)) throw Object.assign(explain(e, connection), { transient: true });
      throw e instanceof SkeinError ? e : explain(e, connection);
    }
  };
  const transaction = <T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> =>
    run(async () => {
      const client = await checkout(pool);
      try {
        await client.query('BEGIN');
        try {
          const out = await work(client);
          await client.query('COMMIT');
          return out;
        } catch (e) {
          await client.query('ROLLBACK').catch(() => undefined);
          throw e;
        }
      } finally {
        client.release();
      }
    });
  return {
    pool,
    connection,
    now,
    run,
    transaction,
    rows: <R extends pg.QueryResultRow>(sql: string, values: unknown[] = []) =>
      run(async () => (await pool.query<R>(sql, values)).rows),
  };
}

/**
 * A query's rows read a chunk at a time through a server-side cursor, in a read-only snapshot on a connection
 * of its own until closed (or read to its end).
 */
export async function openCursor<R extends pg.QueryResultRow, T>(
  db: PgDb,
  sql: string,
  p: Params,
  map: (row: R) => T,
): Promise<{ next: (max: number) => Promise<T[]>; close: () => Promise<void> }> {
  return db.run(async () => {
    const client = await checkout(db.pool);
    let open = true;
    const close = async () => {
      if (!open) return;
      open = false;
      await client.query('COMMIT').catch(() => undefined);
      client.release();
    };
    try {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      await client.query(`DECLARE reader NO SCROLL CURSOR FOR ${sql}`, p.values);
    } catch (e) {
      await close();
      throw e;
    }
    return {
      next: async (max: number) => {
        if (!open) return [];
        const r = await db.run(() => client.query<R>(`FETCH FORWARD ${Math.max(1, Math.floor(max))} FROM reader`));
        if (r.rows.length === 0) await close();
        return r.rows.map(map);
      },
      close,
    };
  });
}
