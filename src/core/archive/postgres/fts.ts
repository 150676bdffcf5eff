/**
 * PostgreSQL's full-text search, fed the way SQLite's FTS5 tokenizer (`unicode61 remove_diacritics 2`) reads
 * text, so both stores find the same items for the same words (shared/search/tokens.ts). Skein builds the `tsvector` (with positions, so a
 * phrase matches as one) and the `tsquery` itself, from the search language's tree, as literals of quoted lexemes: the server's parser never reads
 * what a person typed, so no input is ever query syntax.
 */
import type { SearchNode } from '../../../shared/search/parse';
import { searchTokens } from '../../../shared/search/tokens';

/**
 * PostgreSQL's own bounds: positions up to 16,383 (later words share the last one), 255 positions kept per
 * lexeme, a vector under 1 MB (beyond which a text's further new words are left out); a lexeme's (2,047 bytes)
 * is kept by the words themselves (shared/search/tokens.ts)
 */
const MAX_POSITION = 16_383;
const MAX_POSITIONS = 255;
const MAX_VECTOR_BYTES = 900_000;

/** The words of a text as the index keeps them. */
const words = searchTokens;

const quoted = (w: string) => `'${w.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;

/** A `tsvector` literal of the texts' words with their positions (each text's words after the last one's). */
export function tsvectorOf(...texts: string[]): string {
  const at = new Map<string, number[]>();
  let position = 0;
  let bytes = 0;
  for (const text of texts) {
    for (const w of words(text)) {
      position = Math.min(position + 1, MAX_POSITION);
      const list = at.get(w);
      if (!list) {
        const size = Buffer.byteLength(w) + 8;
        if (bytes + size > MAX_VECTOR_BYTES) continue;
        bytes += size;
        at.set(w, [position]);
      } else if (list.length < MAX_POSITIONS && list[list.length - 1] !== position) {
        list.push(position);
        bytes += 2;
      }
    }
    // a gap between fields, so a phrase never spans two of them
    position = Math.min(position + 1, MAX_POSITION);
  }
  let out = '';
  for (const [w, positions] of at) out += `${out ? ' ' : ''}${quoted(w)}:${positions.join(',')}`;
  return out;
}

/**
 * The words a prefix stands for, where the project's words were read for it (postgres/query.ts): its last word
 * named as one of them instead of as a prefix, which GIN answers from sorted lists rather than a bitmap of every
 * match. A prefix missing from it stays a prefix.
 */
export type PrefixWords = ReadonlyMap<string, readonly string[]>;

/** A term's words as a `tsquery` phrase of quoted lexemes, the last one a prefix if the term is one. */
function phrase(tokens: readonly string[], prefix: boolean, words: PrefixWords): string {
  const terms = tokens.map((t, j) => {
    if (!prefix || j < tokens.length - 1) return quoted(t);
    const named = words.get(t);
    if (!named || named.length === 0) return `${quoted(t)}:*`;
    return named.length === 1 ? quoted(named[0]!) : `(${named.map(quoted).join(' | ')})`;
  });
  return terms.length === 1 ? terms[0]! : `(${terms.join(' <-> ')})`;
}

/** A text-only subtree of the search language as a `tsquery` literal (null: a filter in it, SQL's to say). */
export function tsqueryOf(node: SearchNode, words: PrefixWords = new Map()): string | null {
  switch (node.type) {
    case 'text':
      return phrase(node.tokens, node.prefix, words);
    case 'not': {
      const inner = tsqueryOf(node.node, words);
      return inner === null ? null : `!(${inner})`;
    }
    case 'and':
    case 'or': {
      const parts = node.nodes.map((n) => tsqueryOf(n, words));
      if (parts.some((p) => p === null)) return null;
      return `(${parts.join(node.type === 'and' ? ' & ' : ' | ')})`;
    }
    case 'field':
      return null;
  }
}
