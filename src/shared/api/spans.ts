/**
 * Where each item of an answer's list sits in the answer's text: the archive and a walk's journal keep
 * an item's JSON exactly as received (a slice of the text, not the parsed item written out again, which
 * is slower and changes escapes and number spellings: an id written as a number beyond 2^53 keeps its
 * digits) and the archive the envelope as the text between them.
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

/** the index after the object at `i`, each value of its members named `key` passed over by `pass`, the others by `valueEnd` */
function objectEnd(s: string, i: number, key: string, pass: (s: string, i: number) => number): number {
  i = skipSpace(s, i + 1);
  while (s.charCodeAt(i) === QUOTE) {
    const end = stringEnd(s, i);
    const written = s.slice(i + 1, end - 1);
    const name = written.includes('\\') ? (JSON.parse(s.slice(i, end)) as string) : written;
    i = skipSpace(s, skipSpace(s, end) + 1);
    i = skipSpace(s, name === key ? pass(s, i) : valueEnd(s, i));
    if (s.charCodeAt(i) !== COMMA) break;
    i = skipSpace(s, i + 1);
  }
  return Math.min(i + 1, s.length);
}

/** the [start, end) of each element of the array at `i` and the index after the array; null when `i` is not one */
function elementSpans(s: string, i: number): { spans: Array<[number, number]>; end: number } | null {
  if (s.charCodeAt(i) !== OPEN_ARRAY) return null;
  const spans: Array<[number, number]> = [];
  i = skipSpace(s, i + 1);
  while (i < s.length && s.charCodeAt(i) !== CLOSE_ARRAY) {
    const end = valueEnd(s, i);
    if (end <= i) return null;
    spans.push([i, end]);
    i = skipSpace(s, end);
    if (s.charCodeAt(i) === COMMA) i = skipSpace(s, i + 1);
  }
  return { spans, end: Math.min(i + 1, s.length) };
}

/**
 * The [start, end) of each element of the array at `path` (object keys from the root) in `text`,
 * or null when it is not where the path says or holds other than `count` elements.
 */
export function itemSpans(text: string, path: readonly string[], count: number): Array<[number, number]> | null {
  // One pass over the text: the list's elements are measured while the objects holding it are walked past
  // (scanning the list to skip it, then again for its elements, was most of this function's time). Every
  // member is walked, those after the list too: a repeated key wins, as in JSON.parse, and starts over.
  let list: ReturnType<typeof elementSpans> = null;
  const passes: Array<(s: string, i: number) => number> = [];
  passes[path.length] = (s, i) => {
    list = elementSpans(s, i);
    return list ? list.end : valueEnd(s, i);
  };
  for (let p = path.length - 1; p >= 0; p--) {
    const key = path[p]!;
    const inner = passes[p + 1]!;
    passes[p] = (s, i) => {
      list = null;
      return s.charCodeAt(i) === OPEN_OBJECT ? objectEnd(s, i, key, inner) : valueEnd(s, i);
    };
  }
  passes[0]!(text, skipSpace(text, 0));
  const spans = (list as ReturnType<typeof elementSpans>)?.spans;
  return spans?.length === count ? spans : null;
}

/**
 * The text of each of `kept` (elements of `list`, the parsed array at `path` in `text`, in the list's order,
 * some left out) as it is in `text`, aligned with `kept`; null for an element that is not found in `list`
 * or was `changed` after parsing (its index in `list`): its text is no longer that item. All null when the
 * list cannot be found in the text.
 */
export function receivedTexts(
  text: string,
  path: readonly string[],
  list: readonly unknown[],
  kept: readonly unknown[],
  changed: ReadonlySet<number> = new Set(),
): Array<string | null> {
  const spans = kept.length > 0 ? itemSpans(text, path, list.length) : null;
  if (!spans) return kept.map(() => null);
  const texts: Array<string | null> = [];
  // kept is a subsequence of list: the same values (objects by identity), in the same order
  let at = 0;
  for (const item of kept) {
    while (at < list.length && list[at] !== item) at++;
    const span = spans[at];
    texts.push(at < list.length && span && !changed.has(at) ? text.slice(span[0], span[1]) : null);
    if (at < list.length) at++;
    else at = 0;
  }
  return texts;
}

/** a raw line break inside JSON text can only be whitespace between tokens (a string holds it escaped) */
const LINE_BREAK = /[\r\n]/g;

/** An item's received JSON on one line (a journal's line, a JSON Lines file's): its line breaks made spaces. */
export function oneLine(raw: string): string {
  return raw.includes('\n') || raw.includes('\r') ? raw.replace(LINE_BREAK, ' ') : raw;
}
