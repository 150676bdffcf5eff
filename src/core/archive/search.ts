/**
 * The search language (shared/search) compiled for a store: the terms of the text through the store's own
 * full-text index (a match string Skein writes, bound as a value), the filters as column conditions written once
 * for both stores. A query's top-level terms split in two: those the index answers alone (one match string,
 * which keeps each store's fast path for words) and the rest (SQL over `items i`).
 */
import { parseSearch, type FieldTerm, type SearchNode } from '../../shared/search/parse';
import { SkeinError } from '../../shared/errors';
import { sql, type Sql } from '../db';
import { FLAG } from './derive';

/** A store's full-text index as the compiler uses it. */
export interface TextIndex {
  /** the text-only subtree as one match string, or null where the index's syntax cannot say it alone */
  match: (node: SearchNode) => string | null;
  /** the condition that an item is among a match string's matches */
  matches: (match: string) => Sql;
}

/** A query compiled: the index's match string (null: none) and the rest of its condition (null: none). */
export interface CompiledSearch {
  match: string | null;
  rest: Sql | null;
}

/** The tree of a query's text; a text that does not parse is refused in plain words (the box says where). */
export function searchTree(text: string): SearchNode | null {
  const parsed = parseSearch(text);
  if (!parsed.ok) throw new SkeinError('bad-input', `The search could not be read. ${parsed.error.message}`);
  return parsed.query;
}

/** a tree with only terms of the text */
const textOnly = (node: SearchNode): boolean =>
  node.type === 'text' ||
  (node.type === 'not' && textOnly(node.node)) ||
  ((node.type === 'and' || node.type === 'or') && node.nodes.every(textOnly));

const COUNTER_KEY = { likes: 'likeCount', reposts: 'retweetCount', replies: 'replyCount', quotes: 'quoteCount' };

/** a value of an item's raw JSON as text (null where absent or not JSON) */
const jsonText = (path: string[]): Sql =>
  sql.of({
    sqlite: `json_extract(i.raw, '$.${path.join('.')}')`,
    postgres: `skein_json_text(i.raw, '{${path.join(',')}}')`,
    duckdb: `json_extract_string(i.raw, '$.${path.join('.')}')`,
  });

/** an item's counter from its raw JSON: a JSON number, else 0 */
const counter = (key: string): Sql =>
  sql.of({
    sqlite: `coalesce(CASE WHEN json_type(i.raw, '$.${key}') IN ('integer', 'real') THEN json_extract(i.raw, '$.${key}') END, 0)`,
    postgres: `coalesce(CASE WHEN skein_json_type(i.raw, '{${key}}') = 'number' THEN CAST(skein_json_text(i.raw, '{${key}}') AS numeric) END, 0)`,
    duckdb: `coalesce(CASE WHEN json_type(i.raw, '$.${key}') IN ('BIGINT', 'UBIGINT', 'HUGEINT', 'DOUBLE') THEN TRY_CAST(json_extract_string(i.raw, '$.${key}') AS DOUBLE) END, 0)`,
  });

/** `s` lower-cased on PostgreSQL, whose index is on `lower(author_handle)`; SQLite's column compares without case */
const caseless = (s: Sql): Sql =>
  sql`${sql.of({ sqlite: '', postgres: 'lower(' })}${s}${sql.of({ sqlite: '', postgres: ')' })}`;

const flag = (bit: number): Sql => sql.raw(`(i.flags & ${bit}) <> 0`);

/** A filter as a condition over `items i` (never null where it is false: NOT reads it whole). */
function fieldSql(f: FieldTerm): Sql {
  switch (f.field) {
    case 'from':
      return sql`${caseless(sql`i.author_handle`)} = ${f.handle}`;
    case 'to':
      return sql`lower(${jsonText(['inReplyToUsername'])}) = ${f.handle}`;
    case 'lang':
      return sql`lower(i.lang) = ${f.code}`;
    case 'is':
      return flag(FLAG[f.is]);
    case 'has':
      if (f.has === 'media') return flag(FLAG.media);
      if (f.has === 'link')
        return sql.of({
          sqlite: `json_array_length(i.raw, '$.entities.urls') > 0`,
          postgres: `skein_json_type(i.raw, '{entities,urls}') = 'array' AND skein_json_type(i.raw, '{entities,urls,0}') IS NOT NULL`,
          duckdb: `json_array_length(i.raw, '$.entities.urls') > 0`,
        });
      // a poll is a card named poll2choice_…, poll3…, poll4… (the card may sit under `legacy`)
      return sql`(substr(${jsonText(['card', 'name'])}, 1, 4) = 'poll' OR substr(${jsonText(['card', 'legacy', 'name'])}, 1, 4) = 'poll')`;
    case 'since':
      return sql`i.created_at >= ${f.at}`;
    case 'until':
      return sql`i.created_at < ${f.at}`;
    case 'min':
      return sql`${counter(COUNTER_KEY[f.counter])} >= ${f.min}`;
  }
}

/** A node as one condition over `items i`: a subtree the index says alone as one match, the rest as SQL. */
function conditionOf(node: SearchNode, index: TextIndex): Sql {
  if (textOnly(node)) {
    const match = index.match(node);
    if (match !== null) return index.matches(match);
  }
  switch (node.type) {
    case 'field':
      return fieldSql(node);
    case 'text':
      throw new Error('a text term is always one match');
    case 'not':
      // a condition may read NULL (a post without a date); NOT of it is true, as the reference reads it
      return sql`NOT coalesce((${conditionOf(node.node, index)}), false)`;
    case 'and': {
      // the terms of the text beside a filter as one match (`river -storm lang:en`: one read of the index, which
      // takes the NOT itself), as the top level does
      const text = node.nodes.filter(textOnly);
      const match = text.length > 1 ? index.match({ type: 'and', nodes: text, span: node.span }) : null;
      const parts = match === null ? node.nodes : node.nodes.filter((n) => !textOnly(n));
      return sql`(${sql.join(
        [...(match === null ? [] : [index.matches(match)]), ...parts.map((n) => conditionOf(n, index))],
        ' AND ',
      )})`;
    }
    case 'or':
      return sql`(${sql.join(
        node.nodes.map((n) => conditionOf(n, index)),
        ' OR ',
      )})`;
  }
}

/**
 * A query for a store: the top-level terms the index answers alone as one match string (a store's fast path), the
 * others as SQL; a tree the index says whole is all match.
 */
export function compileSearch(tree: SearchNode | null, index: TextIndex): CompiledSearch {
  if (tree === null) return { match: null, rest: null };
  const terms = tree.type === 'and' ? tree.nodes : [tree];
  const text = terms.filter(textOnly);
  const others = terms.filter((t) => !textOnly(t));
  let match: string | null = null;
  if (text.length > 0) {
    match = index.match(text.length === 1 ? text[0]! : { type: 'and', nodes: text, span: tree.span });
    if (match === null) others.unshift(...text);
  }
  const rest = others.map((t) => conditionOf(t, index));
  return { match, rest: rest.length === 0 ? null : sql.join(rest, ' AND ') };
}

/** A compiled query as one condition (null: every item). */
export function wholeCondition(c: CompiledSearch, index: TextIndex): Sql | null {
  const parts = [...(c.match === null ? [] : [index.matches(c.match)]), ...(c.rest === null ? [] : [c.rest])];
  return parts.length === 0 ? null : sql.join(parts, ' AND ');
}

/** The prefixes of a tree's terms (each one's last word): a team project reads their words before its `tsquery`. */
export function prefixesOf(node: SearchNode): string[] {
  switch (node.type) {
    case 'text':
      return node.prefix && node.tokens.length > 0 ? [node.tokens[node.tokens.length - 1]!] : [];
    case 'not':
      return prefixesOf(node.node);
    case 'and':
    case 'or':
      return node.nodes.flatMap(prefixesOf);
    case 'field':
      return [];
  }
}
