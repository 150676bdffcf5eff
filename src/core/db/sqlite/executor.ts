/**
 * The executor over a project file (node:sqlite, synchronous, in the archive's worker). Each call runs at once
 * and hands back a settled promise; a transaction holds the file for itself until it ends, so a call that
 * arrives meanwhile (another message to the worker) waits for it rather than landing inside it.
 */
import type { DatabaseSync, SQLInputValue, StatementSync } from 'node:sqlite';
import { bindable, visitBatches, type Db, type Row, type RowStream, type SessionLock } from '../executor';
import { registerSampleRank } from '../rank';
import { compile, type Sql } from '../sql';

/** statements kept prepared (a query's text is its key) */
const CACHE = 256;

const ALWAYS_HELD: SessionLock = { hold: () => Promise.resolve(true), release: () => Promise.resolve() };

export function sqliteExecutor(db: DatabaseSync): Db {
  // a sample is drawn in the file: its rank is the one SQL function of ours a query may call
  registerSampleRank(db);
  const cache = new Map<string, StatementSync>();
  /** the transaction under way: others wait for it */
  let open: Promise<unknown> | null = null;

  const statement = (q: Sql): { s: StatementSync; values: SQLInputValue[] } => {
    const { text, values } = compile(q, 'sqlite', bindable);
    let s = cache.get(text);
    if (s) {
      cache.delete(text); // most recently used last
    } else {
      s = db.prepare(text);
      if (cache.size >= CACHE) {
        const oldest = cache.keys().next().value;
        if (oldest !== undefined) cache.delete(oldest);
      }
    }
    cache.set(text, s);
    return { s, values: values as SQLInputValue[] };
  };

  /** `f` now, or once the transaction under way has ended */
  const when = async <T>(f: () => T): Promise<T> => {
    while (open) await open.catch(() => undefined);
    return f();
  };

  const calls = {
    all: <R extends object = Row>(q: Sql) => {
      const { s, values } = statement(q);
      return s.all(...values) as R[];
    },
    tuples: (q: Sql) => {
      const { s, values } = statement(q);
      // the statement is shared by the cache: arrays for this call only
      s.setReturnArrays(true);
      try {
        return s.all(...values) as unknown as unknown[][];
      } finally {
        s.setReturnArrays(false);
      }
    },
    get: <R extends object = Row>(q: Sql) => {
      const { s, values } = statement(q);
      return s.get(...values) as R | undefined;
    },
    run: (q: Sql) => {
      const { s, values } = statement(q);
      return Number(s.run(...values).changes);
    },
    exec: (script: string) => {
      db.exec(script);
    },
  };

  /** a statement of its own (not the cache's: it stays open between batches), stepped a batch at a time */
  const stream = (q: Sql, at: <T>(f: () => T) => Promise<T>): RowStream => {
    const { text, values } = compile(q, 'sqlite', bindable);
    let rows: Iterator<unknown> | null = null;
    const close = () => {
      rows?.return?.();
      rows = null;
    };
    let ended = false;
    const next: RowStream['next'] = (max) =>
      at(() => {
        if (ended) return [];
        if (!rows) {
          const s = db.prepare(text);
          s.setReturnArrays(true);
          rows = s.iterate(...(values as SQLInputValue[]));
        }
        const batch: unknown[][] = [];
        while (batch.length < max) {
          const step = rows.next();
          if (step.done) {
            ended = true;
            close();
            break;
          }
          batch.push(step.value as unknown[]);
        }
        return batch;
      });
    return {
      next,
      visit: visitBatches(next),
      close: async () => {
        ended = true;
        close();
      },
    };
  };

  /** the executor inside a transaction: its calls run at once */
  const inside: Db = {
    dialect: 'sqlite',
    all: async (q) => calls.all(q),
    tuples: async (q) => calls.tuples(q),
    stream: (q) => stream(q, async (f) => f()),
    get: async (q) => calls.get(q),
    run: async (q) => calls.run(q),
    exec: async (script) => calls.exec(script),
    transaction: (work) => work(inside),
    sessionLock: () => ALWAYS_HELD,
  };

  return {
    dialect: 'sqlite',
    all: (q) => when(() => calls.all(q)),
    tuples: (q) => when(() => calls.tuples(q)),
    stream: (q) => stream(q, when),
    get: (q) => when(() => calls.get(q)),
    run: (q) => when(() => calls.run(q)),
    exec: (script) => when(() => calls.exec(script)),
    transaction: async <T>(work: (tx: Db) => Promise<T>) => {
      while (open) await open.catch(() => undefined);
      const done = (async () => {
        db.exec('BEGIN IMMEDIATE');
        try {
          const out = await work(inside);
          db.exec('COMMIT');
          return out;
        } catch (e) {
          if (db.isTransaction) db.exec('ROLLBACK');
          throw e;
        }
      })();
      open = done;
      try {
        return await done;
      } finally {
        if (open === done) open = null;
      }
    },
    sessionLock: () => ALWAYS_HELD,
  };
}
