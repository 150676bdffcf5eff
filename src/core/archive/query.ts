/**
 * What a project file reads its own way: full-text search through FTS5 (its matches as a bit set, the index
 * walked when they are many), the search language's text compiled to FTS5 expressions Skein quotes itself. Synchronous (node:sqlite): it runs in the
 * archive's worker thread, never on main's event loop. What both stores read alike is common.ts.
 */
import type { DatabaseSync, SQLInputValue } from 'node:sqlite';
import type { ArchiveQueryParsed, ArchiveSearchResult } from '../../shared/ipc/archive';
import { bindable, compile, sql, type Sql } from '../db';
import type { SearchNode } from '../../shared/search/parse';
import { whereOf as where, type TextMatch } from './common';
import { compileSearch, searchTree, wholeCondition, type CompiledSearch, type TextIndex } from './search';
import { hitsOf, type HitRow } from './results';

/** A term's words as one FTS5 phrase Skein quotes (quotes doubled), a prefix if the term is one. */
const phrase = (tokens: readonly string[], prefix: boolean): string =>
  `"${tokens.join(' ').replace(/"/g, '""')}"${prefix ? ' *' : ''}`;

/**
 * A text-only subtree as an FTS5 expression, or null where FTS5 cannot say it: its NOT is binary (`a NOT b`),
 * so a negation stands only beside a positive term of the same AND, never alone or in an OR.
 */
function ftsText(node: SearchNode): string | null {
  switch (node.type) {
    case 'text':
      return phrase(node.tokens, node.prefix);
    case 'or': {
      const parts = node.nodes.map((n) => (n.type === 'not' ? null : ftsText(n)));
      return parts.every((p) => p !== null) ? `(${parts.join(' OR ')})` : null;
    }
    case 'and': {
      const positive = node.nodes.filter((n) => n.type !== 'not').map(ftsText);
      const negative = node.nodes.flatMap((n) => (n.type === 'not' ? [ftsText(n.node)] : []));
      if (positive.length === 0 || [...positive, ...negative].some((p) => p === null)) return null;
      let out = `(${positive.join(' AND ')})`;
      for (const n of negative) out = `(${out} NOT ${n})`;
      return out;
    }
    default:
      return null;
  }
}

/** the project file's full-text index as the search language's compiler uses it */
export const FTS: TextIndex = {
  match: ftsText,
  matches: (match) => sql`i.rowid IN (SELECT rowid FROM items_fts WHERE items_fts MATCH ${match})`,
};

/** A query's text through FTS5 and the filters it names (null: nothing to match). */
export const ftsMatch: TextMatch = (text) => wholeCondition(compileSearch(searchTree(text), FTS), FTS);

/** a query as node:sqlite takes it */
export const compiled = (q: Sql): { sql: string; args: SQLInputValue[] } => {
  const { text, values } = compile(q, 'sqlite', bindable);
  return { sql: text, args: values as SQLInputValue[] };
};

/** the condition that an item is in a search's set */
const inSet = (set: number): Sql => sql`${sql.raw(SET_FUNCTION)}(${set}, i.rowid) <> 0`;

/** A query's match sets as a search reads them: each set once per search, looked up by its number per row. */
let searchSets: ReadonlyArray<Pick<MatchSet, 'has'>> = [];
const SET_FUNCTION = 'skein_match_set';
const withSets = new WeakSet<DatabaseSync>();

/**
 * The full-text index as a search (not a script) reads it: each match string read once into a bit set, and the
 * condition a lookup in it. SQLite would otherwise build a temporary index of every subquery's rowids before
 * the first row, which for a query of three common words on a million posts costs more than the whole page.
 * Only the app's connection knows the function; a snippet's reader gets `FTS`'s plain subqueries.
 */
function searchIndex(db: DatabaseSync, sets: Pick<MatchSet, 'has'>[]): TextIndex {
  if (!withSets.has(db)) {
    // directOnly: never callable from a trigger or view a project file might carry
    db.function(SET_FUNCTION, { directOnly: true }, (set, rowid) =>
      searchSets[Number(set)]?.has(Number(rowid)) ? 1 : 0,
    );
    withSets.add(db);
  }
  return {
    match: ftsText,
    matches: (match) => {
      // read when a row first asks: a branch SQLite never reaches (`a OR (b AND …)` where b matches nothing)
      // never reads its words
      let set: MatchSet | null = null;
      sets.push({ has: (rowid) => (set ??= matchSet(db, match)).has(rowid) });
      return inSet(sets.length - 1);
    },
  };
}

/** up to this many matches, a search sorts them itself rather than walking an index */
const FEW_MATCHES = 5_000;

interface MatchSet {
  size: number;
  has: (rowid: number) => boolean;
}

/** The rowids an FTS query matches, as a bit set (read as one string: 10x faster than a row each). */
function matchSet(db: DatabaseSync, match: string): MatchSet {
  const max = (db.prepare('SELECT max(rowid) AS m FROM items').get() as { m: number | null }).m ?? 0;
  const bits = new Uint8Array((max >> 3) + 1);
  const list = (
    db.prepare("SELECT group_concat(rowid, ',') AS g FROM items_fts WHERE items_fts MATCH ?").get(match) as {
      g: string | null;
    }
  ).g;
  let size = 0;
  if (list) {
    let n = 0;
    for (let i = 0; i <= list.length; i++) {
      const c = i < list.length ? list.charCodeAt(i) : 44;
      if (c !== 44) n = n * 10 + (c - 48);
      else {
        if (n <= max) bits[n >> 3]! |= 1 << (n & 7);
        size++;
        n = 0;
      }
    }
  }
  return { size, has: (rowid) => rowid <= max && (bits[rowid >> 3]! & (1 << (rowid & 7))) !== 0 };
}

export function search(
  db: DatabaseSync,
  q: ArchiveQueryParsed,
  offset: number,
  limit: number,
  now: () => number,
): ArchiveSearchResult {
  const started = now();
  const sets: Pick<MatchSet, 'has'>[] = [];
  const c = compileSearch(searchTree(q.text), searchIndex(db, sets));
  searchSets = sets;
  try {
    return hitsOf(searchRows(db, q, c, offset, limit, sets), offset, limit, now() - started);
  } finally {
    searchSets = [];
  }
}

function searchRows(
  db: DatabaseSync,
  q: ArchiveQueryParsed,
  c: CompiledSearch,
  offset: number,
  limit: number,
  sets: Pick<MatchSet, 'has'>[],
): HitRow[] {
  const { match } = c;
  const key = q.sort === 'engagement' ? 'i.engagement' : 'i.created_at';
  const columns = `i.rowid AS rowid, i.kind AS kind, i.id AS id, i.raw AS raw, i.first_seen AS first_seen,
    i.last_seen AS last_seen, (SELECT count(*) FROM request_items r WHERE r.item = i.rowid) AS requests`;
  let condition = c.rest;
  if (match !== null) {
    // the word's matches are one cheap read of its doclist (100,000 in ~15 ms as one string); ordering costs
    const matches = matchSet(db, match);
    if (matches.size <= FEW_MATCHES) {
      // few: read those items and sort them
      const { sql: text, args } = compiled(where(q, c.rest));
      return db
        .prepare(
          `SELECT ${columns} FROM items_fts f CROSS JOIN items i ON i.rowid = f.rowid
           WHERE items_fts MATCH ? AND ${text} ORDER BY +${key} DESC, i.rowid DESC LIMIT ? OFFSET ?`,
        )
        .all(match, ...args, limit + 1, offset) as HitRow[];
    }
    // many: the set first, so the rest is read only for matches
    sets.push(matches);
    condition = sql.join([inSet(sets.length - 1), ...(c.rest === null ? [] : [c.rest])], ' AND ');
  }
  // walk the time (or engagement) index newest first and keep the matches: a page is found after about
  // (page / share of items matching) steps, each set looked up in memory
  const { sql: text, args } = compiled(where(q, condition));
  return db
    .prepare(`SELECT ${columns} FROM items i WHERE ${text} ORDER BY ${key} DESC, i.rowid DESC LIMIT ? OFFSET ?`)
    .all(...args, limit + 1, offset) as HitRow[];
}
