/**
 * The archive the archive and re-export benches measure, in the archive's worker: a project file in a fresh
 * folder, or the one named by `BENCH_ARCHIVE_DB` (built by an earlier run: nothing is ingested again); or, with
 * `BENCH_ARCHIVE_SAVE=<file>` set, a fresh one moved there after the run (for later runs to name); or, with
 * `store: 'postgres'`, a schema of the server `BENCH_ARCHIVE_PG` names (a connection string; the schema is
 * dropped after) or else of a throwaway cluster started for the run, durable as a real server (fsync and
 * synchronous commits on; shared_buffers 256 MB, max_wal_size 2 GB: a team's server tuned for writes).
 */
import { rename, rm, stat } from 'node:fs/promises';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { OpenInit } from '../../src/core/archive/host';
import { parseConnection, type PgConnection } from '../../src/core/db/postgres/connection';
import { startTestCluster } from '../../src/core/db/testing/postgres';
import { startArchiveThread } from '../../src/core/archive/thread';
import { workerEntry } from './runtime';

export type BenchStore = 'sqlite' | 'postgres';

/** `--store=sqlite|postgres|both` from the command line (default sqlite). */
export function storesAsked(argv: readonly string[]): BenchStore[] {
  const asked = argv.find((a) => a.startsWith('--store='))?.slice('--store='.length) ?? 'sqlite';
  if (asked === 'both') return ['sqlite', 'postgres'];
  if (asked === 'sqlite' || asked === 'postgres') return [asked];
  throw new Error(`--store must be sqlite, postgres or both, not ${asked}`);
}

/** A PostgreSQL schema's tables, indexes and TOAST, in bytes. */
async function schemaBytes(c: PgConnection): Promise<number> {
  const client = new pg.Client({
    ...c,
    password: c.password ?? undefined,
    ssl: c.tls === 'disable' ? false : { rejectUnauthorized: c.tls !== 'require' },
  });
  await client.connect();
  try {
    const r = await client.query<{ n: string }>(
      `SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0) AS n FROM pg_class c
       JOIN pg_namespace s ON s.oid = c.relnamespace WHERE s.nspname = $1 AND c.relkind = 'r'`,
      [c.schema],
    );
    return Number(r.rows[0]?.n ?? 0);
  } finally {
    await client.end();
  }
}

/**
 * Seconds until the run's vacuum of `items` (postgres/project.ts, once answers stop) has ended, up to `maxS`; the
 * pages it left not all-visible, and all of them.
 */
async function runVacuumed(
  c: PgConnection,
  maxS = 300,
): Promise<{ waitedS: number; pages: number; notVisible: number }> {
  const client = new pg.Client({
    ...c,
    password: c.password ?? undefined,
    ssl: c.tls === 'disable' ? false : { rejectUnauthorized: c.tls !== 'require' },
  });
  await client.connect();
  const t0 = performance.now();
  try {
    for (;;) {
      const r = await client.query<{ done: boolean; pages: number; visible: number }>(
        `SELECT s.vacuum_count > 0 AND NOT EXISTS (SELECT 1 FROM pg_stat_progress_vacuum v WHERE v.relid = s.relid) AS done,
           c.relpages AS pages, c.relallvisible AS visible
         FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid WHERE s.schemaname = $1 AND s.relname = 'items'`,
        [c.schema],
      );
      const row = r.rows[0];
      const waitedS = (performance.now() - t0) / 1000;
      if (!row || row.done || waitedS > maxS)
        return { waitedS, pages: row?.pages ?? 0, notVisible: (row?.pages ?? 0) - (row?.visible ?? 0) };
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  } finally {
    await client.end();
  }
}

/** `extra`: more options of the archive thread (the re-export bench's worker entry). */
export async function openBenchArchive(
  prefix: string,
  extra: { reexportEntry?: URL } = {},
  store: BenchStore = 'sqlite',
) {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  const thread = await startArchiveThread({
    ...workerEntry('archive'),
    ...extra,
  });
  if (!thread.inWorker) throw new Error('the archive worker did not start');
  if (store === 'sqlite') {
    const existing = process.env.BENCH_ARCHIVE_DB;
    const path = existing ?? join(dir, 'bench.skein');
    // with the spool the app gives every project (archive/projects.ts): where answers wait when it falls behind
    await thread.call('open', 'current', { path, name: 'Bench', kind: 'live', spool: `${path}-held-answers.jsonl` });
    return {
      existing,
      thread,
      dir,
      path,
      connection: null,
      where: path,
      /** the project's bytes on disk (the write-ahead log included) */
      size: async () => (await stat(path)).size + (await stat(`${path}-wal`).catch(() => ({ size: 0 }))).size,
      settings: 'node:sqlite, WAL, synchronous=NORMAL',
      vacuumed: () => Promise.resolve(null),
      cleanup: async () => {
        const save = process.env.BENCH_ARCHIVE_SAVE;
        if (save && !existing) await rename(path, save);
        await rm(dir, { recursive: true, force: true });
      },
    };
  }
  const url = process.env.BENCH_ARCHIVE_PG;
  const schema = `bench_${process.pid}`;
  const cluster = url
    ? null
    : await startTestCluster({ durable: true, settings: { shared_buffers: '256MB', max_wal_size: '2GB' } });
  let connection: PgConnection;
  if (url) {
    const { address, password } = parseConnection(url, schema);
    connection = { ...address, password };
  } else connection = cluster!.connection(schema);
  const init: OpenInit = {
    store: 'postgres',
    connection,
    name: 'Bench',
    kind: 'live',
    researcher: 'bench',
    spool: join(dir, 'held-answers.jsonl'),
  };
  await thread.call('open', 'current', init);
  return {
    existing: undefined,
    thread,
    dir,
    path: null,
    /** the team project's connection (the bench may write straight into its schema) */
    connection,
    where: `${connection.host}:${connection.port}/${connection.database} schema ${schema}`,
    size: () => schemaBytes(connection),
    /** the run's vacuum awaited (a team project's chart reads the index alone once it has ended) */
    vacuumed: () => runVacuumed(connection),
    settings: url
      ? 'the server BENCH_ARCHIVE_PG names'
      : 'PostgreSQL (Debian) on loopback, fsync and synchronous_commit on, shared_buffers 256MB, max_wal_size 2GB',
    cleanup: async () => {
      if (cluster) cluster.stop();
      else {
        const client = new pg.Client({
          ...connection,
          password: connection.password ?? undefined,
          ssl: connection.tls === 'disable' ? false : { rejectUnauthorized: connection.tls !== 'require' },
        });
        await client.connect();
        await client.query(`DROP SCHEMA ${schema} CASCADE`);
        await client.end();
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}
