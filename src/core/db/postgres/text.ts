/**
 * Text as PostgreSQL keeps it. Its `text` holds neither U+0000 nor half a UTF-16 surrogate pair, which an
 * answer's text can hold (a cursor, a body that is not JSON): such a string is kept as `\u0001` + its JSON
 * (which escapes both), and read back exactly. Every other string is kept as it is (none starts with `\u0001`,
 * which would otherwise be written the same way), so equality in SQL still means equality of the strings.
 */
const MARK = '\u0001';
/** half a surrogate pair: a high one not followed by a low one, or a low one not after a high one */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function toPg(s: string): string {
  return s.includes('\0') || s.includes(MARK) || LONE_SURROGATE.test(s) ? MARK + JSON.stringify(s) : s;
}

export function fromPg(s: string): string {
  return s.startsWith(MARK) ? (JSON.parse(s.slice(1)) as string) : s;
}
