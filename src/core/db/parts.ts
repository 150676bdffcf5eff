/**
 * A project's parts: each area that keeps tables in the project (its watches, its codes) declares them once
 * here — their migrations written once for both stores, their tables for a project's copy, and how to open
 * them on the project's executor — and the archive hosts every registered part without naming any. Each part
 * keeps its own version in the project's `parts` table, so a part's migration never waits on another's.
 */
import type { Ddl } from './dialect';
import { DDL } from './dialect';
import type { Db } from './executor';
import { sql } from './sql';

/** A table as a project's copy reads and writes it: its key (the order it is read in) and its columns. */
export interface TableSpec {
  name: string;
  key: readonly string[];
  columns: readonly string[];
}

export interface PartContext {
  /** the clock the project was opened with */
  now: () => number;
}

export interface TablePart<T extends object = object> {
  /** the part's name, as the project records its version and main addresses its calls */
  name: string;
  /** in order; `migrations[n]` takes the part from version n to n + 1 */
  migrations: ReadonlyArray<(t: Ddl) => string>;
  /**
   * Projects made before parts kept their own versions: the archive's schema version (per store) from which
   * this part's first migration was already in place, so it is recorded, not run again.
   */
  before?: { sqlite: number; postgres: number };
  /** tables a project's copy carries, in the order they are copied */
  tables: readonly TableSpec[];
  /** the part's methods on a project's executor (every call may cross a thread: plain data in and out) */
  open: (db: Db, context: PartContext) => T;
}

/** A part that opens to `T`, as a registry lists it. */
export type AnyPart = TablePart<object>;

/** What migrating a project's parts found: a part written by a newer Skein is refused. */
export class PartVersionError extends Error {
  constructor(
    readonly part: string,
    readonly version: number,
    readonly known: number,
  ) {
    super(`its ${part} tables are of format ${version}; this version of Skein reads up to ${known}`);
    this.name = 'PartVersionError';
  }
}

/** the lock two processes making the same team project at once take (one makes, the other finds) */
const MIGRATE_LOCK = 0x736b70; // "skp"

/**
 * Brings every part of a project up to date, each migration with its version in one transaction. `legacy`:
 * the archive's schema version when the project was opened, for parts made before parts kept versions.
 */
export async function migrateParts(db: Db, parts: readonly AnyPart[], legacy: number): Promise<void> {
  // a project whose parts are up to date is only read: opening it takes no write lock
  const found = await db.all<{ name: string; version: number }>(sql`SELECT name, version FROM parts`).catch(() => null);
  const at = new Map(found?.map((r) => [r.name, Number(r.version)]));
  if (found && parts.every((p) => at.get(p.name) === p.migrations.length)) return;
  await db.transaction(async (tx) => {
    await tx.exec(
      `CREATE TABLE IF NOT EXISTS parts (name ${DDL[tx.dialect].key} PRIMARY KEY, version ${DDL[tx.dialect].small} NOT NULL)`,
    );
    const rows = await tx.all<{ name: string; version: number }>(sql`SELECT name, version FROM parts`);
    const versions = new Map(rows.map((r) => [r.name, Number(r.version)]));
    for (const part of parts) {
      let version = versions.get(part.name) ?? 0;
      if (version > part.migrations.length) throw new PartVersionError(part.name, version, part.migrations.length);
      if (!versions.has(part.name) && part.before && legacy >= part.before[tx.dialect]) version = 1;
      for (let v = version; v < part.migrations.length; v++) await tx.exec(part.migrations[v]?.(DDL[tx.dialect]) ?? '');
      if (version !== versions.get(part.name) || version < part.migrations.length)
        await tx.run(
          sql`INSERT INTO parts (name, version) VALUES (${part.name}, ${part.migrations.length})
              ON CONFLICT (name) DO UPDATE SET version = excluded.version`,
        );
    }
  }, MIGRATE_LOCK);
}
