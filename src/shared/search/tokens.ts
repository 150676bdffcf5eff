/**
 * The words of a text as both of the archive's full-text indexes keep them: SQLite's FTS5 tokenizer
 * (`unicode61 remove_diacritics 2`) and the `tsvector` Skein builds for PostgreSQL read text this way, and the
 * search language reads what a person typed the same way, so a term means the same items in either store: a
 * word is a run of letters, digits and private use characters, case-folded with its diacritics removed.
 */

/** PostgreSQL keeps a lexeme of at most 2,047 bytes: longer words are left out of both the index and a query. */
const MAX_TOKEN = 255;

const TOKEN = /[\p{L}\p{N}\p{Co}]+/gu;

/** The words of `text` as the indexes keep them (possibly none). */
export function searchTokens(text: string): string[] {
  const folded = text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
  return (folded.match(TOKEN) ?? []).filter((w) => w.length <= MAX_TOKEN);
}
