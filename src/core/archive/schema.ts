/**
 * The project file: one SQLite database (node:sqlite, FTS5 + JSON1), its schema versioned by
 * `PRAGMA user_version` and migrated forward in one transaction each. Opening checks the file
 * (`quick_check`) and refuses, in plain words and without writing a byte, a damaged file or one
 * written by a newer Skein (a newer schema this build does not know).
 */
import { existsSync, statSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { pathToFileURL } from 'node:url';
import { storedFts } from './derive';

/**
 * The full-text index keeps its own copy of the words it indexes (a plain FTS5 table): a contentless one that
 * can delete needs SQLite 3.43, and the readers researchers run on a project file (Debian 12's Python, R and
 * sqlite3 shell have 3.40) could then not search it at all. The copy costs the words' bytes once more.
 */
const FTS_TABLE = `CREATE VIRTUAL TABLE items_fts USING fts5 (text, handle, name, bio,
    tokenize='unicode61 remove_diacritics 2')`;

/**
 * A file whose index is the earlier contentless one gets the readable index, rebuilt from the items it holds
 * (the words are not in the old index to copy: a contentless table keeps none).
 */
function readableFullTextIndex(db: DatabaseSync): void {
  const row = db.prepare("SELECT sql FROM sqlite_master WHERE name = 'items_fts'").get() as { sql: string } | undefined;
  if (row && !/content\s*=\s*''/.test(row.sql)) return;
  db.exec(`DROP TABLE IF EXISTS items_fts; ${FTS_TABLE};`);
  const insert = db.prepare('INSERT INTO items_fts (rowid, text, handle, name, bio) VALUES (?, ?, ?, ?, ?)');
  for (const item of db.prepare('SELECT rowid, kind, raw FROM items ORDER BY rowid').iterate() as Iterable<{
    rowid: number;
    kind: string;
    raw: string;
  }>) {
    const f = storedFts(item.kind, item.raw);
    insert.run(item.rowid, f.text, f.handle, f.name, f.bio);
  }
}

/** Every migration, in order; `MIGRATIONS[n]` takes a file from version n to n + 1. */
const MIGRATIONS: ReadonlyArray<string | ((db: DatabaseSync) => void)> = [
  `
  CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
  -- one row per (kind, id): the raw JSON as last received and the columns the Archive view filters on
  CREATE TABLE items (
    rowid INTEGER PRIMARY KEY,
    kind TEXT NOT NULL,
    id TEXT NOT NULL,
    raw TEXT NOT NULL,
    first_seen INTEGER NOT NULL,
    last_seen INTEGER NOT NULL,
    version_since INTEGER NOT NULL,
    created_at INTEGER,
    author_handle TEXT COLLATE NOCASE,
    lang TEXT,
    flags INTEGER NOT NULL DEFAULT 0,
    engagement INTEGER NOT NULL DEFAULT 0,
    UNIQUE (kind, id)
  );
  CREATE INDEX items_created ON items (kind, created_at);
  CREATE INDEX items_author ON items (author_handle);
  CREATE INDEX items_engagement ON items (kind, engagement);
  -- earlier versions of an item (counters change): the raw JSON and when it was seen
  CREATE TABLE item_versions (item INTEGER NOT NULL, raw TEXT NOT NULL, seen_from INTEGER NOT NULL, seen_to INTEGER NOT NULL);
  CREATE INDEX item_versions_item ON item_versions (item);
  -- every answer received: what was asked (never the key) and the answer with its items taken out
  CREATE TABLE requests (
    rowid INTEGER PRIMARY KEY,
    operation TEXT NOT NULL,
    params TEXT NOT NULL,
    cursor TEXT,
    page_index INTEGER NOT NULL,
    at INTEGER NOT NULL,
    base_url TEXT NOT NULL,
    http_status INTEGER NOT NULL,
    next_cursor TEXT,
    envelope TEXT NOT NULL,
    item_count INTEGER NOT NULL,
    -- 1: a paging guard stopped on this answer; it is kept, never served again
    stopped INTEGER NOT NULL DEFAULT 0
  );
  CREATE INDEX requests_key ON requests (operation, params, cursor, at);
  CREATE TABLE request_items (request INTEGER NOT NULL, position INTEGER NOT NULL, item INTEGER NOT NULL,
    PRIMARY KEY (request, position)) WITHOUT ROWID;
  CREATE INDEX request_items_item ON request_items (item);
  ${FTS_TABLE};
  CREATE TABLE collections (rowid INTEGER PRIMARY KEY, name TEXT NOT NULL, kind TEXT NOT NULL,
    created_at INTEGER NOT NULL, manifest TEXT);
  -- place: the item's thread position in the collection as JSON ({root_id, parent_id, depth}), or null
  CREATE TABLE collection_items (collection INTEGER NOT NULL, position INTEGER NOT NULL, item INTEGER NOT NULL,
    depth INTEGER, place TEXT, PRIMARY KEY (collection, position)) WITHOUT ROWID;
  CREATE INDEX collection_items_item ON collection_items (item);
  `,
  // 2: a page's index comes from the answer whose next cursor it was asked with; without this index
  // that lookup read every earlier page of the same query (a fetch-everything run grew quadratic)
  `CREATE INDEX requests_next ON requests (operation, params, next_cursor, at);`,
  // 3 and 4: once the coding and the watch tables; each area's part makes them now (core/coding/tables/part.ts,
  // core/watch/tables/part.ts: a file at 3 or 4 or later is recorded as having them), and the slots stay, empty,
  // for the versions existing files count
  '',
  '',
  // 5: who made each request and each collection (a name per Skein; a team project says who collected what)
  `ALTER TABLE requests ADD COLUMN researcher TEXT; ALTER TABLE collections ADD COLUMN researcher TEXT;`,
  // 6: a full-text index older SQLite can read
  readableFullTextIndex,
  // 7: the index by time holds each item's id too, so a sample's draw and a query's strata read (kind, time, id)
  // from it alone: a row keeps its time after its raw JSON, and reading the time from the row walked the JSON's
  // overflow pages (two thirds of a 100,000-post draw)
  `DROP INDEX items_created; CREATE INDEX items_created ON items (kind, created_at, id);`,
];

export const SCHEMA_VERSION = MIGRATIONS.length;

/** A project file Skein will not open; `message` is for the user as it stands. */
export class ProjectFileError extends Error {
  constructor(
    readonly reason: 'damaged' | 'newer' | 'unreadable',
    message: string,
  ) {
    super(message);
    this.name = 'ProjectFileError';
  }
}

/**
 * The file to check, as a URL that opens it exactly as it is: a read-only connection to a file in WAL mode
 * otherwise makes its -wal and -shm beside it, even when the file then proves damaged or foreign. A file that
 * has a -wal already (open elsewhere, or not closed cleanly) is read with it, as SQLite would.
 */
function checkedAsItIs(path: string): string | URL {
  if (existsSync(`${path}-wal`)) return path;
  const url = pathToFileURL(path);
  url.searchParams.set('immutable', '1');
  return url;
}

function userVersion(db: DatabaseSync): number {
  const row = db.prepare('PRAGMA user_version').get() as { user_version: number } | undefined;
  return row?.user_version ?? 0;
}

/**
 * Opens (or creates) a project file. Refuses a file that is not SQLite, fails `quick_check`, or
 * carries a schema newer than this build's; none of these is ever written to. `from`: the file's schema
 * version before it was migrated (0 for a new file), for the parts made before parts kept their own versions.
 */
export function openProjectFile(
  path: string,
  init: { name: string; kind: 'live' | 'demo'; now: number },
): { db: DatabaseSync; from: number } {
  const existed = existsSync(path);
  if (existed && statSync(path).size === 0)
    throw new ProjectFileError(
      'unreadable',
      `The file ${path} is empty: it is not a Skein project. Skein left it untouched; choose another file, or create a new project.`,
    );
  let db: DatabaseSync;
  try {
    // read-only first: nothing is written to a file until it has passed the checks
    db = existed ? new DatabaseSync(checkedAsItIs(path), { readOnly: true }) : new DatabaseSync(path);
  } catch (e) {
    throw new ProjectFileError(
      'unreadable',
      `Skein cannot open ${path}: ${e instanceof Error ? e.message : String(e)}.`,
    );
  }
  if (existed) {
    let version: number;
    try {
      const check = db.prepare('PRAGMA quick_check').all() as Array<{ quick_check: string }>;
      if (check.length !== 1 || check[0]?.quick_check !== 'ok') {
        db.close();
        throw new ProjectFileError(
          'damaged',
          `The project file ${path} is damaged (SQLite's integrity check failed). Skein left it untouched; open a copy from a backup, or create a new project.`,
        );
      }
      version = userVersion(db);
    } catch (e) {
      if (e instanceof ProjectFileError) throw e;
      db.close();
      throw new ProjectFileError(
        'damaged',
        `The file ${path} is not a Skein project or is damaged (${e instanceof Error ? e.message : String(e)}). Skein left it untouched.`,
      );
    }
    db.close();
    if (version > SCHEMA_VERSION) {
      throw new ProjectFileError(
        'newer',
        `The project file ${path} was written by a newer version of Skein (project format ${version}; this version reads up to ${SCHEMA_VERSION}). Skein left it untouched: update Skein to open it.`,
      );
    }
    db = new DatabaseSync(path);
  }
  // a page cache (16 MiB; 2 MiB by default) that holds a batch of answers and the indexes' hot pages:
  // with less, SQLite spills pages mid-batch and reads evicted ones back (a quarter more page writes
  // and twice the page reads per post, measured)
  db.exec(
    'PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = OFF; PRAGMA busy_timeout = 5000; PRAGMA cache_size = -16384;',
  );
  const from = userVersion(db);
  migrate(db, init);
  return { db, from };
}

function migrate(db: DatabaseSync, init: { name: string; kind: 'live' | 'demo'; now: number }): void {
  let version = userVersion(db);
  while (version < SCHEMA_VERSION) {
    db.exec('BEGIN IMMEDIATE');
    try {
      const step = MIGRATIONS[version] ?? '';
      if (typeof step === 'string') db.exec(step);
      else step(db);
      if (version === 0) {
        const put = db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)');
        put.run('name', init.name);
        put.run('kind', init.kind);
        put.run('created_at', String(init.now));
      }
      version++;
      db.exec(`PRAGMA user_version = ${version}`);
      db.exec('COMMIT');
    } catch (e) {
      db.exec('ROLLBACK');
      throw e;
    }
  }
}
