/**
 * Where each item of an answer's list sits in the answer's text: the archive keeps an item's
 * JSON exactly as received (a slice of the text, not the parsed item written out again, which
 * is slower and changes escapes and number spellings) and the envelope as the text between them.
 * Only called on a text `JSON.parse` accepted, so the scanner skips values without checking them.
 */

const QUOTE = 34;
const BACKSLASH = 92;
const COMMA = 44;
const OPEN_OBJECT = 123;
const CLOSE_OBJECT = 125;
const OPEN_ARRAY = 91;
const CLOSE_ARRAY = 93;

const isSpace = (c: number) => c === 32 || c === 10 || c === 13 || c === 9;

function skipSpace(s: string, i: number): number {
  while (isSpace(s.charCodeAt(i))) i++;
  return i;
}

/** the index after the string whose opening quote is at `i` */
function stringEnd(s: string, i: number): number {
  for (;;) {
    const j = s.indexOf('"', i + 1);
    if (j < 0) return s.length;
    let k = j - 1;
    while (s.charCodeAt(k) === BACKSLASH) k--;
    // an even run of backslashes before the quote escapes itself, not the quote
    if ((j - 1 - k) % 2 === 0) return j + 1;
    i = j;
  }
}

/** the index after the value that starts at `i` */
function valueEnd(s: string, i: number): number {
  const first = s.charCodeAt(i);
  if (first === QUOTE) return stringEnd(s, i);
  if (first !== OPEN_OBJECT && first !== OPEN_ARRAY) {
    for (let c = first; i < s.length && c !== COMMA && c !== CLOSE_OBJECT && c !== CLOSE_ARRAY && !isSpace(c);)
      c = s.charCodeAt(++i);
    return i;
  }
  let depth = 0;
  while (i < s.length) {
    const c = s.charCodeAt(i);
    if (c === QUOTE) {
      i = stringEnd(s, i);
      continue;
    }
    if (c === OPEN_OBJECT || c === OPEN_ARRAY) depth++;
    else if ((c === CLOSE_OBJECT || c === CLOSE_ARRAY) && --depth === 0) return i + 1;
    i++;
  }
  return s.length;
}

/** where the value of member `key` of the object at `i` starts (the last one, as JSON.parse keeps), or -1 */
function memberValue(s: string, i: number, key: string): number {
  let found = -1;
  i = skipSpace(s, i + 1);
  while (s.charCodeAt(i) === QUOTE) {
    const end = stringEnd(s, i);
    const written = s.slice(i + 1, end - 1);
    const name = written.includes('\\') ? (JSON.parse(s.slice(i, end)) as string) : written;
    i = skipSpace(s, skipSpace(s, end) + 1);
    if (name === key) found = i;
    i = skipSpace(s, valueEnd(s, i));
    if (s.charCodeAt(i) !== COMMA) break;
    i = skipSpace(s, i + 1);
  }
  return found;
}

/**
 * The [start, end) of each element of the array at `path` (object keys from the root) in `text`,
 * or null when it is not where the path says or holds other than `count` elements.
 */
export function itemSpans(text: string, path: readonly string[], count: number): Array<[number, number]> | null {
  let i = skipSpace(text, 0);
  for (const key of path) {
    if (text.charCodeAt(i) !== OPEN_OBJECT) return null;
    i = memberValue(text, i, key);
    if (i < 0) return null;
  }
  if (text.charCodeAt(i) !== OPEN_ARRAY) return null;
  const spans: Array<[number, number]> = [];
  i = skipSpace(text, i + 1);
  while (i < text.length && text.charCodeAt(i) !== CLOSE_ARRAY) {
    const end = valueEnd(text, i);
    if (end <= i) return null;
    spans.push([i, end]);
    i = skipSpace(text, end);
    if (text.charCodeAt(i) === COMMA) i = skipSpace(text, i + 1);
  }
  return spans.length === count ? spans : null;
}
