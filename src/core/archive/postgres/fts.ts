/**
 * PostgreSQL's full-text search, fed the way SQLite's FTS5 tokenizer (`unicode61 remove_diacritics 2`) reads
 * text, so both stores find the same items for the same words: a word is a run of letters, digits and private
 * use characters, case-folded with its diacritics removed. Skein builds the `tsvector` (with positions, so a
 * phrase matches as one) and the `tsquery` itself as literals of quoted lexemes: the server's parser never reads
 * what a person typed, so no input is ever query syntax.
 */
import { typedWords } from '../common';

/**
 * PostgreSQL's own bounds: a lexeme of at most 2,047 bytes, positions up to 16,383 (later words share the last
 * one), 255 positions kept per lexeme, a vector under 1 MB (beyond which a text's further new words are left out)
 */
const MAX_WORD = 255;
const MAX_POSITION = 16_383;
const MAX_POSITIONS = 255;
const MAX_VECTOR_BYTES = 900_000;

const WORD = /[\p{L}\p{N}\p{Co}]+/gu;

/** The words of a text as the index keeps them. */
function words(text: string): string[] {
  const folded = text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
  return (folded.match(WORD) ?? []).filter((w) => w.length <= MAX_WORD);
}

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
 * What a person typed as a `tsquery` literal, as SQLite's search reads it (query.ts): whitespace-separated
 * words, all of them required, a word of several tokens a phrase, the last word a prefix. Null: no word at all.
 */
export function tsqueryOf(text: string): string | null {
  const parts = typedWords(text)
    .map(words)
    .filter((tokens) => tokens.length > 0);
  if (parts.length === 0) return null;
  return parts
    .map((tokens, i) => {
      const last = i === parts.length - 1;
      const terms = tokens.map((t, j) => `${quoted(t)}${last && j === tokens.length - 1 ? ':*' : ''}`);
      return terms.length === 1 ? terms[0] : `(${terms.join(' <-> ')})`;
    })
    .join(' & ');
}
