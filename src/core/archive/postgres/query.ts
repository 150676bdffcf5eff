/**
 * What a team project reads its own way: full-text search with the same filters and sorts as the SQLite store
 * (PostgreSQL's own `tsvector` index, fed by fts.ts).
 * Every value is a bound parameter; the one `tsquery` is a literal Skein built. What both stores read alike is
 * ../common.ts.
 */
import type { ArchiveQueryParsed, ArchiveSearchResult } from '../../../shared/ipc/archive';
import { whereOf, type TextMatch } from '../common';
import { hitsOf, type HitRow } from '../results';
import { tsqueryOf, type PrefixWords } from './fts';
import { compileSearch, prefixesOf, searchTree, wholeCondition, type TextIndex } from '../search';
import type { SearchNode } from '../../../shared/search/parse';
import { isDenied, sql, type Db } from '../../db';

const matches = (match: string) => sql`i.fts @@ CAST(${match} AS tsquery)`;

/** the items' `tsvector` as the search language's compiler uses it */
export const TSV: TextIndex = { match: (node) => tsqueryOf(node), matches };

/** Past this many words a prefix stays a prefix: one bitmap is then cheaper than that many lists. */
const PREFIX_WORDS = 64;

/**
 * The project's words each of a tree's prefixes stands for, read from the words the database keeps (schema.ts, 3),
 * where there are at most PREFIX_WORDS of them. Words are sorted byte by byte, as a `tsquery` prefix compares,
 * so a prefix's words come together from the prefix on.
 */
async function prefixWords(db: Db, tree: SearchNode | null): Promise<PrefixWords> {
  const words = new Map<string, string[]>();
  for (const prefix of new Set(tree ? prefixesOf(tree) : [])) {
    let rows: Array<{ word: string }>;
    try {
      rows = await db.all<{ word: string }>(
        sql`SELECT word FROM fts_words WHERE word >= ${prefix} ORDER BY word LIMIT ${PREFIX_WORDS + 1}`,
      );
    } catch (e) {
      // a member given read rights table by table before the words were kept searches with the prefix as it is
      if (isDenied(e)) continue;
      throw e;
    }
    const named = rows.map((r) => r.word).filter((w) => w.startsWith(prefix));
    if (named.length <= PREFIX_WORDS) words.set(prefix, named);
  }
  return words;
}

/** A query's text through the items' `tsvector` and the filters it names (null: nothing to match). */
export const tsMatch: TextMatch = (text) => wholeCondition(compileSearch(searchTree(text), TSV), TSV);

/** The newest items (by the sort) a search walks looking for its page before it asks the full-text index instead. */
const WALK = 10_000;

/**
 * A page of hits. Without words: the sort's index walked. With words, two ways whatever the planner would
 * guess (it guesses words independent: two common words that never meet looked cheap to walk for, and it walked
 * every item): first the newest 10,000 items by the sort are walked and the page kept from their matches;
 * when they hold no full page (a rare word, a deep page), the index's matches are read and sorted.
 */
export async function search(
  db: Db,
  q: ArchiveQueryParsed,
  offset: number,
  limit: number,
  now: () => number,
): Promise<ArchiveSearchResult> {
  const started = now();
  const tree = searchTree(q.text);
  const words = await prefixWords(db, tree);
  const c = compileSearch(tree, { match: (node) => tsqueryOf(node, words), matches });
  const { match } = c;
  const key =
    q.sort === 'engagement' ? ['engagement DESC', 'rowid DESC'] : ['created_at DESC NULLS LAST', 'rowid DESC'];
  const order = (alias: string) => sql.raw(key.map((k) => `${alias}.${k}`).join(', '));
  const columns = sql.raw(`i.rowid, i.kind, i.id, i.raw, i.first_seen, i.last_seen,
    (SELECT count(*) FROM request_items r WHERE r.item = i.rowid) AS requests`);
  const page = sql`LIMIT ${limit + 1} OFFSET ${offset}`;
  let rows: HitRow[];
  if (match === null) {
    rows = await db.all<HitRow>(
      sql`SELECT ${columns} FROM items i WHERE ${whereOf(q, c.rest)} ORDER BY ${order('i')} ${page}`,
    );
  } else {
    const walked = sql`WITH walked AS (SELECT i.rowid, i.created_at, i.engagement, i.fts FROM items i
          WHERE ${whereOf(q, c.rest)} ORDER BY ${order('i')} LIMIT ${sql.raw(String(WALK))}),
        page AS (SELECT w.rowid, w.created_at, w.engagement FROM walked w WHERE w.fts @@ CAST(${match} AS tsquery)
          ORDER BY ${order('w')} ${page})
        SELECT ${columns} FROM page w JOIN items i ON i.rowid = w.rowid ORDER BY ${order('w')}`;
    const matched = sql`WITH matched AS MATERIALIZED (SELECT i.rowid, i.created_at, i.engagement FROM items i
          WHERE ${whereOf(q, wholeCondition(c, TSV))}),
        page AS (SELECT m.rowid, m.created_at, m.engagement FROM matched m ORDER BY ${order('m')} ${page})
        SELECT ${columns} FROM page w JOIN items i ON i.rowid = w.rowid ORDER BY ${order('w')}`;
    // both ways in one transaction: each sets how the planner may answer it, for that query alone
    rows = await db.transaction(async (tx) => {
      if (offset + limit + 1 <= WALK / 10) {
        // the sort's index walked, never every item read and sorted: PostgreSQL keeps no statistics on a bit of
        // `flags` (a filter such as "no replies"), guesses it keeps one item in two hundred, and so sorted them all
        // to take the first 10,000 (0.8 s and a sort on disk at 200,000 items, against 24 ms walking the index);
        // no JIT, for the same guess
        await tx.exec('SET LOCAL enable_sort = off; SET LOCAL jit = off');
        const found = await tx.all<HitRow>(walked);
        if (found.length > limit) return found;
      }
      // the index's matches, never a scan of every item: the planner, taking words as independent, guesses
      // two words that never meet match thousands, and at a million items would read them all instead; and a
      // bitmap of the matches that stays exact: past work_mem (4 MB by default) it turns lossy, and every row of
      // a lossy page is read again to test the words (two common words: 200,000 matches at 1M items); no JIT:
      // the same guess makes the plan look costly enough to compile, 30 to 200 ms for a query of 20
      await tx.exec(
        "SET LOCAL enable_sort = on; SET LOCAL enable_seqscan = off; SET LOCAL enable_indexscan = off; SET LOCAL work_mem = '64MB'; SET LOCAL jit = off",
      );
      return tx.all<HitRow>(matched);
    });
  }
  return hitsOf(rows, offset, limit, now() - started);
}
