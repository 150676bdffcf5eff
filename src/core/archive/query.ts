/**
 * What a project file reads its own way: full-text search through FTS5 (the time index walked with each row's
 * words read in JS where FTS5 would read them alike, else FTS5 asked row by row; or its matches as a bit set, the
 * index walked when they are many), the search language's text
 * compiled to FTS5 expressions Skein quotes itself. Synchronous (node:sqlite): it runs in the archive's worker
 * thread, never on main's event loop. What both stores read alike is common.ts.
 */
import type { DatabaseSync, SQLInputValue, StatementSync } from 'node:sqlite';
import type { ArchiveQueryParsed, ArchiveSearchResult } from '../../shared/ipc/archive';
import { bindable, compile, sql, type Sql } from '../db';
import type { SearchNode } from '../../shared/search/parse';
import { whereOf as where, type TextMatch } from './common';
import { compileSearch, prefixesOf, searchTree, wholeCondition, type CompiledSearch, type TextIndex } from './search';
import { hitsOf, type HitRow } from './results';
import { holdsPlain, plainTree, plainWords, wordsDecide, type PlainRow } from './plain-words';

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
 * How a search asks the index whether a row matches. First row by row (`probes`): the first page wants only the
 * newest matches, and asking FTS5 about the rows the time index walks past costs ~20-50 µs a row, where reading a
 * common word's every match into a set costs 15-30 ms. When the rows walked prove to match too rarely for that
 * to pay, the search gives up and starts again on the sets (`sets`), which the sort of a few matches also needs.
 */
export type SearchPlan = 'probes' | 'sets';

interface Probing {
  plan: SearchPlan;
  /** whether a match string matches few items (counted once a search): its set is cheaper than any probes */
  few: (match: string) => boolean;
  /** what the walk has cost so far: a row checked 1, its words read `WORDS`, its words asked of FTS5 `PROBE` */
  spent: number;
  /** rows the walk found matching the whole query so far */
  found: number;
  /** the text-only trees JS reads as FTS5 does, by their match string (plain-words.ts) */
  plain: Map<string, SearchNode>;
  /** the match strings that hold a prefix */
  prefixed: Set<string>;
  /** the row the walk is at, and its fields lower-cased for JS to find words in (null: not plain ASCII, FTS5's) */
  wordsOf: number;
  words: PlainRow | null;
}

/**
 * What a walk may spend before it gives up (a unit ~10 µs at a million posts: a row checked 1, a probe 4, a row's
 * words read with the walk and read in JS 1/4): a little to learn how often rows match (~6 ms), then more per row
 * found (a query matching fewer than one row in ~12 it asks FTS5 about reads its sets instead), and never more
 * than about what one common word's set costs.
 */
const PROBE = 4;
const WORDS = 0.25;
const FIRST_SPENT = 600;
const SPENT_PER_FOUND = 48;
const MAX_SPENT = 2_500;
/** rows of one time (or engagement) the walk sorts by rowid itself before it checks them; more: the sets */
const MAX_TIES = 2_000;

/** thrown from inside a walk's row function to stop the statement: the sets answer instead */
const GIVE_UP = new Error('the search reads its sets instead');

function spend(probing: Probing, cost: number): void {
  probing.spent += cost;
  if (probing.spent > Math.min(MAX_SPENT, FIRST_SPENT + SPENT_PER_FOUND * probing.found)) throw GIVE_UP;
}

const probes = new WeakMap<DatabaseSync, StatementSync>();
/**
 * Whether the row the walk is at matches a match string, read from its words where JS reads them as FTS5 does
 * (null: FTS5 must say).
 */
function plainMatch(match: string, rowid: number, probing: Probing): boolean | null {
  const tree = probing.plain.get(match);
  if (tree === undefined || probing.wordsOf !== rowid || probing.words === null) return null;
  return holdsPlain(tree, probing.words);
}

/** Whether FTS5 matches `match` at `rowid`, one lookup through the index's doclists (no set read). */
function probe(db: DatabaseSync, match: string, rowid: number, probing: Probing): boolean {
  spend(probing, PROBE);
  let statement = probes.get(db);
  if (!statement) {
    statement = db.prepare('SELECT 1 AS x FROM items_fts WHERE items_fts MATCH ? AND rowid = ?');
    probes.set(db, statement);
  }
  // a rowid bound as a double is not a rowid constraint FTS5 takes: it must be an integer
  return statement.get(match, BigInt(rowid)) !== undefined;
}

/**
 * The full-text index as a search (not a script) reads it: each match string asked row by row while the search
 * probes, else read once into a bit set, and the condition a lookup in it. SQLite would otherwise build a
 * temporary index of every subquery's rowids before the first row, which for a query of three common words on a
 * million posts costs more than the whole page. Only the app's connection knows the function; a snippet's
 * reader gets `FTS`'s plain subqueries.
 */
function searchIndex(
  db: DatabaseSync,
  sets: Pick<MatchSet, 'has'>[],
  probing: Probing,
  asked: string[] = [],
): TextIndex {
  if (!withSets.has(db)) {
    // directOnly: never callable from a trigger or view a project file might carry
    db.function(SET_FUNCTION, { directOnly: true }, (set, rowid) =>
      searchSets[Number(set)]?.has(Number(rowid)) ? 1 : 0,
    );
    withSets.add(db);
  }
  return {
    match: (node) => {
      const match = ftsText(node);
      if (match !== null && plainTree(node)) probing.plain.set(match, node);
      // FTS5 reads every word of a prefix whole on each lookup (~3 ms at a million posts): its set, read once, is
      // always cheaper than probes
      if (match !== null && prefixesOf(node).length > 0) probing.prefixed.add(match);
      return match;
    },
    matches: (match) => {
      // read when a row first asks: a branch SQLite never reaches (`a OR (b AND …)` where b matches nothing)
      // never reads its words
      let set: MatchSet | null = null;
      const prefix = probing.prefixed.has(match);
      asked.push(match);
      sets.push({
        has: (rowid) => {
          if (probing.plan === 'probes' && !prefix && !probing.few(match))
            return plainMatch(match, rowid, probing) ?? probe(db, match, rowid, probing);
          return (set ??= matchSet(db, match)).has(rowid);
        },
      });
      return inSet(sets.length - 1);
    },
  };
}

/** up to this many matches, a search sorts them itself rather than walking an index */
const FEW_MATCHES = 5_000;

const counts = new WeakMap<DatabaseSync, StatementSync>();

/** Whether FTS5 matches `match` at most FEW_MATCHES times: counted only that far (~0.3 ms for a common word). */
function few(db: DatabaseSync, match: string): boolean {
  let statement = counts.get(db);
  if (!statement) {
    statement = db.prepare('SELECT count(*) AS n FROM (SELECT 1 FROM items_fts WHERE items_fts MATCH ? LIMIT ?)');
    counts.set(db, statement);
  }
  return (statement.get(match, FEW_MATCHES + 1) as { n: number }).n <= FEW_MATCHES;
}

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
  return plannedSearch(db, q, offset, limit, now, 'probes').result;
}

/**
 * A search that starts on `plan` (`sets`: never row by row), and the plan that answered. Both plans find the
 * same rows in the same order; only their cost differs.
 */
export function plannedSearch(
  db: DatabaseSync,
  q: ArchiveQueryParsed,
  offset: number,
  limit: number,
  now: () => number,
  plan: SearchPlan,
): { result: ArchiveSearchResult; plan: SearchPlan } {
  const started = now();
  const sets: Pick<MatchSet, 'has'>[] = [];
  const counted = new Map<string, boolean>();
  const isFew = (m: string): boolean => {
    let answer = counted.get(m);
    if (answer === undefined) counted.set(m, (answer = few(db, m)));
    return answer;
  };
  const probing: Probing = {
    plan,
    few: isFew,
    spent: 0,
    found: 0,
    plain: new Map(),
    prefixed: new Set(),
    wordsOf: -1,
    words: null,
  };
  const asked: string[] = [];
  const index = searchIndex(db, sets, probing, asked);
  const tree = searchTree(q.text);
  const c = compileSearch(tree, index);
  searchSets = sets;
  try {
    // probes pay only where a set would be big and is not a prefix's: never for a query without words, nor where
    // the words beside the filters match few items (their sort is cheaper) or end in a prefix (its set is read
    // anyway, and the walk on sets is cheap); nor in a collection, whose rows a row's check would list each time
    const big = (m: string): boolean => !probing.prefixed.has(m) && !isFew(m);
    const probes =
      plan === 'probes' && q.collection === undefined && (c.match !== null ? big(c.match) : asked.some(big));
    let rows = probes && tree !== null ? probed(db, q, tree, c, offset, limit, index, probing) : null;
    if (rows === null) {
      probing.plan = 'sets';
      rows = searchRows(db, q, c, offset, limit, sets);
    }
    return { result: hitsOf(rows, offset, limit, now() - started), plan: probing.plan };
  } finally {
    searchSets = [];
  }
}

/** an item's columns as a page of hits reads them */
const COLUMNS = `i.rowid AS rowid, i.kind AS kind, i.id AS id, i.raw AS raw, i.first_seen AS first_seen,
    i.last_seen AS last_seen, (SELECT count(*) FROM request_items r WHERE r.item = i.rowid) AS requests`;

const orderKey = (q: ArchiveQueryParsed): string => (q.sort === 'engagement' ? 'i.engagement' : 'i.created_at');

/** a row as the walk reads it: its rowid, its time (or engagement), and its indexed fields */
type WalkedRow = [number, unknown, string | null, string | null, string | null, string | null];

/**
 * The time (or engagement) index walked newest first, each row checked against the whole query (its words read
 * in JS where FTS5 reads them alike, else asked of FTS5 once its filters hold) until the page is full; null where the walk gave up (too few of the rows it
 * checked matched). The index keeps rows of one time by id, the page by rowid: a time's rows are sorted here.
 * The rows an offset skips count as found, so a later page gives up no sooner than the first.
 */
function probed(
  db: DatabaseSync,
  q: ArchiveQueryParsed,
  tree: SearchNode,
  c: CompiledSearch,
  offset: number,
  limit: number,
  index: TextIndex,
  probing: Probing,
): HitRow[] | null {
  const key = orderKey(q);
  const condition = where(q, c.rest);
  const { sql: text, args } = compiled(
    c.match === null ? condition : sql.join([condition, index.matches(c.match)], ' AND '),
  );
  const check = db.prepare(`SELECT ${COLUMNS} FROM items i WHERE i.rowid = ? AND ${text}`);
  // what the walked index narrows to itself (the kind; by time, the form's range) in the walk, the rest checked
  const byTime = q.sort !== 'engagement';
  const range = compiled(
    sql.join(
      [
        sql`i.kind = ${q.kind}`,
        ...(q.from === undefined || !byTime ? [] : [sql`i.created_at >= ${q.from}`]),
        ...(q.to === undefined || !byTime ? [] : [sql`i.created_at < ${q.to}`]),
      ],
      ' AND ',
    ),
  );
  // each row's words, for JS to read where it reads them as FTS5 does (plain-words.ts), from FTS5's own copy as
  // the walk goes: one statement, ~1 µs a row, where a lookup of its own costs ~8
  const walk = db.prepare(
    `SELECT i.rowid AS rowid, ${key} AS k, f.text, f.handle, f.name, f.bio FROM items i
     LEFT JOIN items_fts f ON f.rowid = i.rowid WHERE ${range.sql} ORDER BY ${key} DESC`,
  );
  walk.setReturnArrays(true);
  const want = offset + limit + 1;
  const rows: HitRow[] = [];
  let ties: WalkedRow[] = [];
  let tied: unknown = undefined;
  /** the rows of one time, newest kept first; true once the page is full */
  const checkTies = (): boolean => {
    ties.sort((a, b) => b[0] - a[0]);
    for (const walked of ties) {
      const rowid = walked[0];
      spend(probing, WORDS);
      probing.wordsOf = rowid;
      probing.words = plainWords([walked[2] ?? null, walked[3] ?? null, walked[4] ?? null, walked[5] ?? null]);
      // a row whose words JS reads and which alone rule the query out is passed without reading the row itself
      if (probing.words !== null && wordsDecide(tree, probing.words) === false) continue;
      spend(probing, 1);
      const row = check.get(rowid, ...args) as HitRow | undefined;
      if (row === undefined) continue;
      rows.push(row);
      probing.found++;
      if (rows.length === want) return true;
    }
    ties = [];
    return false;
  };
  try {
    let full = false;
    for (const walked of walk.iterate(...range.args) as unknown as Iterable<WalkedRow>) {
      const k = walked[1];
      if (k !== tied && ties.length > 0 && (full = checkTies())) break;
      tied = k;
      ties.push(walked);
      if (ties.length > MAX_TIES) return null;
    }
    if (!full) checkTies();
  } catch (e) {
    if (e === GIVE_UP) return null;
    throw e;
  }
  return rows.slice(offset);
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
  const key = orderKey(q);
  const columns = COLUMNS;
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
