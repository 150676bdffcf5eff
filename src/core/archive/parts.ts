/**
 * The parts a project hosts: other areas' tables (registered by the composition, never named here), migrated
 * with the project and opened on its executor. The archive serves their methods by name (host.ts) and copies
 * their tables with its own.
 */
import { migrateParts, PartVersionError, type AnyPart, type Db, type TableSpec } from '../db';
import { COUNTS_PART } from './counts';
import { ProjectFileError } from './schema';
import { TABLES } from './store';

/** Every part of a project, opened: its methods by part name. */
export type OpenParts = ReadonlyMap<string, object>;

/** Migrates `parts` on a project's executor and opens each; a part written by a newer Skein is refused. */
export async function openParts(
  db: Db,
  parts: readonly AnyPart[],
  from: number,
  where: string,
  now: () => number,
): Promise<OpenParts> {
  try {
    await migrateParts(db, hostedParts(parts), from);
  } catch (e) {
    if (e instanceof PartVersionError)
      throw new ProjectFileError(
        'newer',
        `The project in ${where} was written by a newer version of Skein (${e.message}). Skein left it untouched: update Skein to open it.`,
      );
    throw e;
  }
  return new Map(hostedParts(parts).map((part) => [part.name, part.open(db, { now })]));
}

/** The archive's own parts (what it keeps beside its items, written once for both stores), then the registered ones. */
const hostedParts = (parts: readonly AnyPart[]): readonly AnyPart[] => [COUNTS_PART, ...parts];

/** The tables a project's copy carries: the archive's, then each part's. */
export const tablesOf = (parts: readonly AnyPart[]): readonly TableSpec[] => [
  ...TABLES,
  ...hostedParts(parts).flatMap((p) => p.tables),
];
