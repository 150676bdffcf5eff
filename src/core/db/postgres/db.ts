/**
 * What a team project's parts share (the project, its coding tables, its watch tables): the pool of connections
 * to its schema, its address (for messages, never with the password), the clock, a query's failure said in plain
 * words, and one transaction on one connection.
 */
import type pg from 'pg';
import { SkeinError } from '../../../shared/errors';
import type { PgConnection } from './connection';
import { checkout, explain, isDenied, isTransient } from './pool';

export interface PgDb {
  readonly pool: pg.Pool;
  readonly connection: PgConnection;
  readonly now: () => number;
  /** `work`, its failure in plain words (a transient one marked so, for the host to keep its batch) */
  run: <T>(work: () => Promise<T>) => Promise<T>;
  /** `work` in one transaction on one connection: committed when it returns, rolled back when it throws */
  transaction: <T>(work: (client: pg.PoolClient) => Promise<T>) => Promise<T>;
}

export function pgDb(pool: pg.Pool, connection: PgConnection, now: () => number): PgDb {
  const run = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (e) {
      if (isTransient(e)) throw Object.assign(explain(e, connection), { transient: true });
      if (isDenied(e)) throw Object.assign(explain(e, connection), { denied: true });
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
  return { pool, connection, now, run, transaction };
}
