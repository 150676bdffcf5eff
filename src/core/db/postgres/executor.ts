/**
 * The executor over a team project (node-postgres): each call a query on the pool, a transaction on one
 * connection, strings written and read through the NUL-safe codec (text.ts), failures said in plain words
 * (db.ts). The session lock is an advisory lock held on a connection of its own, kept alive while the process
 * lives (a query every 30 s; the server lets go of it within a minute or two of the process, its machine or its
 * network going: TCP keepalives, and an idle session's timeout where the server has one).
 */
import type pg from 'pg';
import { bindable, visitBatches, type Db, type Row, type RowStream, type SessionLock } from '../executor';
import { compile, sql, type Sql } from '../sql';
import type { PgDb } from './db';
import { copyStream } from './copy';
import { checkout, createPool } from './pool';
import { fromPg, toPg } from './text';

const PING_MS = 30_000;

/** a value as bound: strings (an array's too) through the codec */
const encode = (v: unknown): unknown =>
  typeof v === 'string' ? toPg(v) : Array.isArray(v) ? v.map(encode) : bindable(v);

/** every string of a row as it was written */
function decoded<R>(row: Record<string, unknown>): R {
  for (const key in row) {
    const v = row[key];
    if (typeof v === 'string' && v.charCodeAt(0) === 1) row[key] = fromPg(v);
  }
  return row as R;
}

type Query = (text: string, values: unknown[], rowMode?: 'array') => Promise<pg.QueryResult>;
type Stream = Db['stream'];

function over(db: PgDb, query: Query, transaction: Db['transaction'], stream: Stream): Db {
  const result = (q: Sql, rowMode?: 'array') => {
    const { text, values } = compile(q, 'postgres', encode);
    return db.run(() => query(text, values, rowMode));
  };
  const rows = async <R>(q: Sql): Promise<R[]> => (await result(q)).rows.map((r) => decoded<R>(r as Row));
  return {
    dialect: 'postgres',
    all: <R extends object = Row>(q: Sql) => rows<R>(q),
    tuples: async (q) => {
      const tuples = (await result(q, 'array')).rows as unknown[][];
      for (const t of tuples)
        for (let i = 0; i < t.length; i++) {
          const v = t[i];
          if (typeof v === 'string' && v.charCodeAt(0) === 1) t[i] = fromPg(v);
        }
      return tuples;
    },
    stream,
    get: async <R extends object = Row>(q: Sql) => (await rows<R>(q))[0],
    run: async (q) => (await result(q)).rowCount ?? 0,
    exec: async (script) => {
      await db.run(() => query(script, []));
    },
    transaction,
    sessionLock: (lockClass) => sessionLock(db, lockClass),
  };
}

/**
 * The executor over a team project's pool (`db`: its connections, its address and plain-words failures), and
 * how its owner lets go of every session lock when the project closes.
 */
export function pgExecutor(db: PgDb): Db & { releaseLocks: () => Promise<void> } {
  const locks = new Set<SessionLock>();
  const transaction = async <T>(work: (tx: Db) => Promise<T>, lock?: number): Promise<T> => {
    // the work's own failure (a rule it refused by) reaches the caller as it was, not as the database's
    let own: { error: unknown } | null = null;
    try {
      return await db.transaction(async (client) => {
        if (lock !== undefined)
          await client.query(`SELECT pg_advisory_xact_lock(${Math.trunc(lock)}, hashtext($1))`, [db.connection.schema]);
        const inside = clientExecutor(db, client);
        try {
          return await work(inside);
        } catch (e) {
          if (!(e instanceof Error && 'transient' in e)) own = { error: e };
          throw e;
        }
      });
    } catch (e) {
      throw own ? (own as { error: unknown }).error : e;
    }
  };
  const streams = new Set<RowStream>();
  const executor = over(
    db,
    (text, values, rowMode) => (rowMode ? db.pool.query({ text, values, rowMode }) : db.pool.query(text, values)),
    transaction,
    (q, numbers) => {
      const s = pooledStream(db, q, numbers, () => streams.delete(s));
      streams.add(s);
      return s;
    },
  );
  return {
    ...executor,
    sessionLock: (lockClass) => {
      const lock = sessionLock(db, lockClass);
      locks.add(lock);
      return lock;
    },
    releaseLocks: async () => {
      for (const lock of locks) await lock.release();
      locks.clear();
      // a stream left open holds a connection the pool would wait for
      for (const s of streams) await s.close();
    },
  };
}

/**
 * A stream on a connection of its own, checked out at its first batch and given back at its end (dropped if it
 * ended early: a COPY cannot be stopped halfway on it). `gone`: told once it holds nothing.
 */
function pooledStream(db: PgDb, q: Sql, numbers: readonly boolean[], gone: () => void): RowStream {
  let open: Promise<RowStream> | null = null;
  let closed = false;
  const start = () =>
    (open ??= db.run(async () => {
      const client = await checkout(db.pool);
      return copyStream(client, q, numbers, encode, (clean) => {
        client.release(clean ? undefined : true);
        gone();
      });
    }));
  return {
    next: async (max) => (closed ? [] : db.run(async () => (await start()).next(max))),
    visit: async (max, each) => (closed ? 0 : db.run(async () => (await start()).visit(max, each))),
    close: async () => {
      closed = true;
      // a stream that never got its connection (the server away) holds nothing to give back
      await (await open?.catch(() => null))?.close();
      gone();
    },
  };
}

/**
 * The executor over one connection of the pool, in whatever transaction it holds (a snapshot, a copy). Its
 * connection answers one query at a time, so a stream here is read whole at its first batch (a COPY left
 * half-read would hold every other query of the transaction behind it).
 */
function clientExecutor(db: PgDb, client: pg.PoolClient): Db {
  const inside: Db = over(
    db,
    (text, values, rowMode) => (rowMode ? client.query({ text, values, rowMode }) : client.query(text, values)),
    (w) => w(inside),
    (q) => {
      let rows: Promise<unknown[][]> | null = null;
      const next: RowStream['next'] = async (max) => (await (rows ??= inside.tuples(q))).splice(0, max);
      return {
        next,
        visit: visitBatches(next),
        close: async () => {
          rows = Promise.resolve([]);
        },
      };
    },
  );
  return inside;
}

/** One read-only transaction on a connection of its own: `tx` reads as of its start, until `end`. */
export function readSnapshot(db: PgDb): Promise<{ tx: Db; end: () => Promise<void> }> {
  return db.run(async () => {
    const client = await checkout(db.pool);
    try {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    } catch (e) {
      client.release();
      throw e;
    }
    const end = async () => {
      await client.query('COMMIT').catch(() => undefined);
      client.release();
    };
    return { tx: clientExecutor(db, client), end };
  });
}

/** A query's rows read a chunk at a time through a server-side cursor in a snapshot of its own, until closed. */
export async function cursor<R>(
  db: PgDb,
  q: Sql,
): Promise<{ next: (max: number) => Promise<R[]>; close: () => Promise<void> }> {
  const { tx, end } = await readSnapshot(db);
  let open = true;
  const close = async () => {
    if (!open) return;
    open = false;
    await end();
  };
  try {
    await tx.run(sql`DECLARE reader NO SCROLL CURSOR FOR ${q}`);
  } catch (e) {
    await close();
    throw e;
  }
  return {
    next: async (max: number) => {
      if (!open) return [];
      const rows = await tx.all<R & object>(sql.raw(`FETCH FORWARD ${Math.max(1, Math.floor(max))} FROM reader`));
      if (rows.length === 0) await close();
      return rows;
    },
    close,
  };
}

/**
 * A session-level advisory lock of `lockClass` on this project's schema, on a connection of its own: taken when
 * first held, kept while its connection lives; a connection that was lost is replaced and the lock taken again
 * if nobody took it meanwhile.
 */
function sessionLock(db: PgDb, lockClass: number): SessionLock {
  let held: { pool: pg.Pool; client: pg.PoolClient; ping: ReturnType<typeof setInterval> } | null = null;

  const release = async (): Promise<void> => {
    const lock = held;
    held = null;
    if (!lock) return;
    clearInterval(lock.ping);
    lock.client.release(true); // closing its connection lets go of the lock on the server
    await lock.pool.end().catch(() => undefined);
  };

  const take = async (): Promise<boolean> => {
    const pool = createPool(db.connection, 1);
    let client: pg.PoolClient | null = null;
    try {
      client = await db.run(() => checkout(pool));
      const c = client;
      const ok = await db.run(async () => {
        // the server notices a vanished process within about a minute, and lets go of its lock
        await c.query('SET tcp_keepalives_idle = 30; SET tcp_keepalives_interval = 10; SET tcp_keepalives_count = 3');
        await c.query("SET idle_session_timeout = '2min'").catch(() => undefined); // PostgreSQL 14 and later
        const r = await c.query<{ ok: boolean }>(
          `SELECT pg_try_advisory_lock(${Math.trunc(lockClass)}, hashtext($1)) AS ok`,
          [db.connection.schema],
        );
        return r.rows[0]?.ok === true;
      });
      if (!ok) {
        client.release();
        await pool.end().catch(() => undefined);
        return false;
      }
    } catch (e) {
      client?.release(true);
      await pool.end().catch(() => undefined);
      throw e;
    }
    const kept = client;
    const ping = setInterval(() => {
      kept.query('SELECT 1').catch(() => undefined);
    }, PING_MS);
    ping.unref?.();
    held = { pool, client: kept, ping };
    return true;
  };

  return {
    hold: async () => {
      if (held) {
        try {
          await held.client.query('SELECT 1');
          return true;
        } catch {
          await release();
        }
      }
      return take();
    },
    release,
  };
}
