/**
 * The stores the archive's suite runs against (store.test.ts and the others that take `STORES`): the same tests,
 * once on a SQLite file and once on a PostgreSQL schema of a throwaway cluster (testing/postgres.ts), each test
 * on a project of its own. Without PostgreSQL its half is skipped with the reason, except in CI.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PARTS } from '../../compose/parts';
import type { OpenInit } from '../host';
import type { ProjectStore } from '../store';
import { ArchiveProject } from '../project';
import { PostgresProject } from '../postgres/project';
import { skipWithoutPostgres, startTestCluster, type TestCluster } from '../../db/testing/postgres';

export interface StoreUnderTest {
  name: 'sqlite' | 'postgres';
  /** why this store's tests are skipped here, or null */
  skip: string | null;
  /** before the file's tests (PostgreSQL: start the cluster) */
  setup: () => Promise<void>;
  teardown: () => void;
  /** a new, empty project's place: what the host opens */
  fresh: (over?: { researcher?: string | null; name?: string }) => OpenInit;
  /** a store opened on `init` (default: a fresh project) */
  open: (init?: OpenInit, now?: () => number) => Promise<ProjectStore>;
  /** the columns of one of its tables, as the database describes them */
  columns: (init: OpenInit, table: string) => Promise<string[]>;
  /** the running cluster (PostgreSQL only) */
  cluster?: () => TestCluster;
}

let counter = 0;
const openInit = (init: OpenInit, now: () => number): Promise<ProjectStore> | ProjectStore => {
  const base = { name: init.name, kind: init.kind, now: now(), researcher: init.researcher ?? null };
  return init.store === 'postgres'
    ? PostgresProject.open(init.connection, base, now, PARTS)
    : ArchiveProject.open(init.path, base, now, PARTS);
};

function sqlite(): StoreUnderTest {
  let dir = '';
  const self: StoreUnderTest = {
    name: 'sqlite',
    skip: null,
    setup: async () => {
      dir = mkdtempSync(join(tmpdir(), 'skein-store-'));
    },
    teardown: () => rmSync(dir, { recursive: true, force: true }),
    fresh: (over = {}) => ({
      path: join(dir, `p${++counter}.skein`),
      name: over.name ?? 'Test',
      kind: 'live',
      researcher: over.researcher ?? null,
    }),
    open: async (init = self.fresh(), now = () => 1) => openInit(init, now),
    columns: async (init, table) => {
      if (init.store === 'postgres') throw new Error('a file');
      const { DatabaseSync } = await import('node:sqlite');
      const db = new DatabaseSync(init.path, { readOnly: true });
      const cols = (db.prepare(`PRAGMA table_info(${table})`).all() as Array<{ name: string }>).map((c) => c.name);
      db.close();
      return cols;
    },
  };
  return self;
}

function postgres(): StoreUnderTest {
  let cluster: TestCluster | null = null;
  const skip = skipWithoutPostgres();
  const running = () => {
    if (!cluster) throw new Error('the test cluster is not running');
    return cluster;
  };
  const self: StoreUnderTest = {
    name: 'postgres',
    skip,
    setup: async () => {
      if (!skip) cluster = await startTestCluster();
    },
    teardown: () => cluster?.stop(),
    fresh: (over = {}) => ({
      store: 'postgres',
      connection: running().connection(`t${process.pid}_${++counter}`),
      name: over.name ?? 'Test',
      kind: 'live',
      researcher: over.researcher ?? null,
    }),
    open: async (init = self.fresh(), now = () => 1) => openInit(init, now),
    columns: async (init, table) => {
      if (init.store !== 'postgres') throw new Error('a schema');
      return running()
        .psql(
          `SELECT column_name FROM information_schema.columns WHERE table_schema = '${init.connection.schema}' AND table_name = '${table}' ORDER BY ordinal_position`,
        )
        .trim()
        .split('\n');
    },
    cluster: running,
  };
  return self;
}

/** A harness per store, each with a place of its own (a temporary folder, a cluster). */
export const makeStores = (): StoreUnderTest[] => [sqlite(), postgres()];

export const STORES: readonly StoreUnderTest[] = makeStores();
