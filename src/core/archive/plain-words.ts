/**
 * A project file's row read against a text-only search tree in JS, where that reading is FTS5's own: FTS5's
 * tokenizer (`unicode61 remove_diacritics 2`) reads a plain ASCII text as runs of ASCII letters and digits,
 * lower-cased, and nothing else (no diacritics to remove, no other letters to classify), so over such a text a
 * phrase of such words matches exactly where FTS5 matches it. A walk asks this instead of FTS5 (a lookup in each
 * word's doclists, ~50-90 µs a row at a million posts) for the ~10 µs of reading the row's words; a row or a
 * tree outside it is FTS5's to answer. Pure: no database.
 */
import type { SearchNode } from '../../shared/search/parse';

/** a word of a query JS reads as FTS5 does: ASCII letters and digits only, lower case */
const PLAIN_WORD = /^[a-z0-9]+$/;
/** a character FTS5 may read otherwise than JS: any past ASCII */
const FOREIGN = /[^\p{ASCII}]/u;
/**
 * FTS5 reads a word longer than 32,768 bytes apart (it may cut it); a field this long is left to FTS5 rather than
 * read as one word, which a prefix could then match where FTS5 does not.
 */
const MAX_FIELD = 30_000;

/** A row's indexed fields lower-cased, each all plain ASCII: its words are its runs of letters and digits. */
export type PlainRow = readonly string[];

/** Whether a text-only tree is one JS reads as FTS5 does: every word of every term plain. */
export function plainTree(node: SearchNode): boolean {
  switch (node.type) {
    case 'text':
      return node.tokens.length > 0 && node.tokens.every((t) => PLAIN_WORD.test(t));
    case 'not':
      return plainTree(node.node);
    case 'and':
    case 'or':
      return node.nodes.length > 0 && node.nodes.every(plainTree);
    case 'field':
      return false;
  }
}

/**
 * A row's indexed fields (text, handle, name, bio; null: none) as JS reads their words, or null where a field is
 * not plain ASCII (FTS5 must answer for it). The words are not split out here: a walk reads hundreds of rows to
 * rule most out, and finding a query's few words in a field costs less than listing all of the field's.
 */
export function plainWords(fields: ReadonlyArray<string | null>): PlainRow | null {
  const row: string[] = [];
  for (const field of fields) {
    if (field === null || field === '') {
      row.push('');
      continue;
    }
    if (field.length > MAX_FIELD || FOREIGN.test(field)) return null;
    row.push(field.toLowerCase());
  }
  return row;
}

/** an ASCII letter or digit after lower-casing: a character of a word */
const inWord = (c: number): boolean => (c >= 97 && c <= 122) || (c >= 48 && c <= 57);

/**
 * One field holds the phrase: its words in a row (any run of other characters between two), the last a prefix
 * where the term is one. Each place the first word occurs is tried: it must start a word, each word must end one
 * (but a prefix), and the next word must start after the run of other characters that follows.
 */
function fieldHas(field: string, tokens: readonly string[], prefix: boolean): boolean {
  const last = tokens.length - 1;
  const first = tokens[0]!;
  for (let at = field.indexOf(first); at >= 0; at = field.indexOf(first, at + 1)) {
    if (at > 0 && inWord(field.charCodeAt(at - 1))) continue;
    let end = at + first.length;
    let j = 0;
    for (;;) {
      if (j === last && prefix) return true;
      if (end < field.length && inWord(field.charCodeAt(end))) break;
      if (j === last) return true;
      let next = end;
      while (next < field.length && !inWord(field.charCodeAt(next))) next++;
      j++;
      if (!field.startsWith(tokens[j]!, next)) break;
      end = next + tokens[j]!.length;
    }
  }
  return false;
}

/**
 * Whether a row's words (from `plainWords`) match a plain tree (`plainTree`) as FTS5 matches the expression
 * `query.ts` writes of it: a phrase within one field, AND, OR and NOT over the whole row.
 */
export function holdsPlain(node: SearchNode, words: PlainRow): boolean {
  switch (node.type) {
    case 'text':
      return words.some((field) => fieldHas(field, node.tokens, node.prefix));
    case 'not':
      return !holdsPlain(node.node, words);
    case 'and':
      return node.nodes.every((n) => holdsPlain(n, words));
    case 'or':
      return node.nodes.some((n) => holdsPlain(n, words));
    case 'field':
      throw new Error('a filter is never part of a match string');
  }
}

/**
 * What a row's words alone say of a whole query (filters and all): false where no values of its filters could
 * make it match (`heron OR (river lang:en)` for a row with neither word), true where every value would, null
 * where a filter or a word JS does not read as FTS5 (`plainTree`) decides.
 */
export function wordsDecide(node: SearchNode, words: PlainRow): boolean | null {
  switch (node.type) {
    case 'text':
      return plainTree(node) ? holdsPlain(node, words) : null;
    case 'field':
      return null;
    case 'not': {
      const inner = wordsDecide(node.node, words);
      return inner === null ? null : !inner;
    }
    case 'and':
    case 'or': {
      // the value that decides the whole (false for AND, true for OR), else unknown if any part is
      const decisive = node.type === 'or';
      let unknown = false;
      for (const n of node.nodes) {
        const v = wordsDecide(n, words);
        if (v === decisive) return decisive;
        if (v === null) unknown = true;
      }
      return unknown ? null : !decisive;
    }
  }
}
