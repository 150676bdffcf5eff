/**
 * A part's table of requests for trusted time (RFC 3161) over its runs' manifests. Media's and pages' tables have
 * one shape, written here once: the table (a migration step's DDL), its columns as a project's copy reads them, a
 * request recorded, and the tokens verify checks again.
 */
import type { KeptToken, TimestampRecord } from '../timestamp';
import type { Ddl } from './dialect';
import type { Db } from './executor';
import type { TableSpec } from './parts';
import { sql } from './sql';

/** The table `name` and its index, as a part's migration step creates them. */
export const timestampTableDdl =
  (name: string) =>
  (t: Ddl): string => `
  CREATE TABLE IF NOT EXISTS ${name} (rowid ${t.id}, at ${t.int} NOT NULL, manifest ${t.text} NOT NULL,
    manifest_sha256 ${t.text} NOT NULL, authority ${t.text}, status ${t.text} NOT NULL, gen_time ${t.int},
    serial ${t.text}, token ${t.text}, token_sha256 ${t.text}, reason ${t.text});
  CREATE INDEX IF NOT EXISTS ${name}_manifest ON ${name} (manifest);
  `;

/** The table `name` as a project's copy reads and writes it. */
export const timestampTableSpec = (name: string): TableSpec => ({
  name,
  key: ['rowid'],
  columns: [
    'rowid',
    'at',
    'manifest',
    'manifest_sha256',
    'authority',
    'status',
    'gen_time',
    'serial',
    'token',
    'token_sha256',
    'reason',
  ],
});

/** Records one request for trusted time over a run's manifest (or that none was made) in the table `name`. */
export async function recordTimestamp(db: Db, name: string, r: TimestampRecord): Promise<void> {
  await db.run(sql`INSERT INTO ${sql.raw(name)} (at, manifest, manifest_sha256, authority, status, gen_time,
      serial, token, token_sha256, reason)
    VALUES (${r.at}, ${r.manifest}, ${r.manifestSha256}, ${r.authority}, ${r.status}, ${r.genTime ?? null},
      ${r.serial ?? null}, ${r.token ?? null}, ${r.tokenSha256 ?? null}, ${r.reason ?? null})`);
}

/** Every token kept in the table `name`, oldest first: what verify checks again. */
export async function keptTokens(db: Db, name: string): Promise<KeptToken[]> {
  const rows = await db.all(
    sql`SELECT * FROM ${sql.raw(name)} WHERE status = ${'granted'} AND token IS NOT NULL ORDER BY at, rowid`,
  );
  return rows.map((r) => ({
    manifest: String(r.manifest),
    manifestSha256: String(r.manifest_sha256),
    authority: String(r.authority),
    genTime: Number(r.gen_time),
    serial: String(r.serial),
    token: String(r.token),
    tokenSha256: String(r.token_sha256),
  }));
}
