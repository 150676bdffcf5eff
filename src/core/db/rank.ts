/**
 * The rank a coding sample is drawn by, one rule in three places: here in JavaScript, in a project file's SQL (the
 * same function, registered on each connection) and in PostgreSQL's own SQL (its core `sha256`). An item's rank is
 * the first 64 bits of SHA-256(prefix + id) over the UTF-8 bytes, as 16 lower-case hex digits: compared as text
 * by code point, it orders as the number does. The prefix is the draw's (its seed and kind), so the same seed
 * ranks the same items alike on any machine and either store.
 */
import { hash } from 'node:crypto';
import type { DatabaseSync } from 'node:sqlite';
import { sql, type DialectName, type Sql } from './sql';

export function sampleRank(prefix: string, id: string): string {
  // the one-shot digest: a hash object per item cost a third of a 100k draw
  return hash('sha256', prefix + id, 'hex').slice(0, 16);
}

const SQLITE_RANK = 'skein_sample_rank';

/** Gives a project file's connection the rank as an SQL function (deterministic: SQLite may reuse its value). */
export function registerSampleRank(db: DatabaseSync): void {
  // SQLite computes a rank a row is filtered on once more when it is also selected (the draw's subquery, flattened):
  // the last answer kept saves that second hash (a twelfth of a draw's hashes)
  let lastPrefix = '';
  let lastId = '';
  let lastRank: string | null = null;
  db.function(SQLITE_RANK, { deterministic: true }, (prefix, id) => {
    if (typeof prefix !== 'string' || (typeof id !== 'string' && typeof id !== 'number' && typeof id !== 'bigint'))
      return null;
    const text = String(id);
    if (lastRank === null || text !== lastId || prefix !== lastPrefix) {
      lastRank = sampleRank(prefix, text);
      lastId = text;
      lastPrefix = prefix;
    }
    return lastRank;
  });
}

/**
 * The rank of the id `id` (an SQL text expression) as SQL, sorted by code point with `codePoint`. On PostgreSQL it is null
 * where the id is kept escaped (text.ts: it held U+0000, U+0001 or half a surrogate pair), since the escaped
 * text hashes otherwise: a caller ranks those few itself with `sampleRank`.
 */
export function sampleRankSql(dialect: DialectName, prefix: string, id: Sql): Sql {
  if (dialect === 'sqlite') return sql`${sql.raw(SQLITE_RANK)}(${prefix}, ${id})`;
  // the prefix as hex: its text may hold U+0000, which PostgreSQL's text cannot
  const bytes = Buffer.from(prefix, 'utf8').toString('hex');
  return sql`CASE WHEN left(${id}, 1) = chr(1) THEN NULL
    ELSE encode(substring(sha256(decode(${bytes}, 'hex') || convert_to(${id}, 'UTF8')) FROM 1 FOR 8), 'hex') END`;
}
