/**
 * Runs a suite on both dialects: `describe.each(DIALECTS)` with a fresh database per test from `fresh()` — a
 * new SQLite file, or a new schema of a throwaway PostgreSQL cluster (skipped with the reason without one, an
 * error in CI). For the floor's own tests and any table written over `Db` alone; an area's tables that need the
 * archive's are tested on whole projects (archive/testing/stores.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { Db } from '../executor';
import { pgDb } from '../postgres/db';
import { pgExecutor } from '../postgres/executor';
import { createPool } from '../postgres/pool';
import { sqliteExecutor } from '../sqlite/executor';
import { skipWithoutPostgres, startTestCluster, type TestCluster } from './postgres';

export interface DialectUnderTest {
  name: 'sqlite' | 'postgres';
  /** why its tests are skipped here, or null */
  skip: string | null;
  setup: () => Promise<void>;
  teardown: () => Promise<void>;
  /** a new, empty database; `same` opens a second executor on the last one made (another process's view) */
  fresh: () => Promise<Db>;
  same: () => Promise<Db>;
}

let counter = 0;

function sqlite(): DialectUnderTest {
  let dir = '';
  let last = '';
  const open: DatabaseSync[] = [];
  const at = (path: string) => {
    const db = new DatabaseSync(path);
    db.exec('PRAGMA journal_mode = WAL; PRAGMA busy_timeout = 5000');
    open.push(db);
    return sqliteExecutor(db);
  };
  return {
    name: 'sqlite',
    skip: null,
    setup: async () => {
      dir = mkdtempSync(join(tmpdir(), 'skein-db-'));
    },
    teardown: async () => {
      for (const db of open) if (db.isOpen) db.close();
      rmSync(dir, { recursive: true, force: true });
    },
    fresh: async () => at((last = join(dir, `d${++counter}.sqlite`))),
    same: async () => at(last),
  };
}

function postgres(): DialectUnderTest {
  const skip = skipWithoutPostgres();
  let cluster: TestCluster | null = null;
  let last = '';
  const ends: Array<() => Promise<void>> = [];
  const at = (schema: string) => {
    if (!cluster) throw new Error('the test cluster is not running');
    const connection = cluster.connection(schema);
    const pool = createPool(connection);
    const db = pgExecutor(pgDb(pool, connection, Date.now));
    ends.push(async () => {
      await db.releaseLocks();
      await pool.end();
    });
    return db;
  };
  return {
    name: 'postgres',
    skip,
    setup: async () => {
      if (!skip) cluster = await startTestCluster();
    },
    teardown: async () => {
      for (const end of ends) await end().catch(() => undefined);
      cluster?.stop();
    },
    fresh: async () => {
      last = `db${process.pid}_${++counter}`;
      cluster?.psql(`CREATE SCHEMA ${last}`);
      return at(last);
    },
    same: async () => at(last),
  };
}

export const DIALECTS: readonly DialectUnderTest[] = [sqlite(), postgres()];
