/**
 * The watches' tables as CSV lines (RFC 4180, times as `toISOString` writes them), made in the archive's worker so
 * a page of thousands of rows leaves it as one value (a string, or the deltas table's bytes) instead of one object
 * per row. `csvLine` is the reference: the deltas table's faster page maker gives its bytes for every row, hostile
 * ones included (tested).
 */
import type { DeltaFields, PresenceRecord } from './records';

const iso = (t: number | null): string => (t === null ? '' : new Date(t).toISOString());

/** RFC 4180: quoted only when it holds a comma, a quote or a line break; quotes doubled. */
function cell(v: string | number | null): string {
  if (v === null) return '';
  const s = String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}
export const csvLine = (cells: ReadonlyArray<string | number | null>): string => `${cells.map(cell).join(',')}\n`;

/** 0001-01-01T00:00:00.000Z and 10000-01-01T00:00:00.000Z: the times `toISOString` writes with four-digit years */
const FIRST_TIME = -62_135_596_800_000;
const PAST_LAST_TIME = 253_402_300_800_000;
const QUOTED = /[",\r\n]/;
const DAY_MS = 86_400_000;
/** the bytes made ready for each row a page is asked for */
const ROW_BYTES = 96;
const COMMA = 0x2c;
const NEWLINE = 0x0a;
const ZERO = 0x30;
const utf8 = new TextEncoder();
/** a text cell as `cell` writes it (a number's text never needs quoting) */
const textCell = (s: string): string => (QUOTED.test(s) ? `"${s.replace(/"/g, '""')}"` : s);

/**
 * The deltas table's page maker: each row's line written as UTF-8 straight into the page's bytes, the same bytes as
 * `csvLine` of its cells (tested, hostile ones included). No string is made per cell or line: a page's lines cost
 * about half the time they took as strings joined, and leave the collector nothing but the page. A page's kinds and
 * metrics are few, so each one's bytes are made once, as is each day's date; ids in plain ASCII, whole numbers and
 * the times of years 1 to 9999 are written byte by byte (any other text, number or time as JavaScript writes it).
 */
export function deltaPageBytes(rows = 0): { row: DeltaFields<void>; take: () => Uint8Array } {
  // room for a page of `rows` at once (a row of a plain id with both times is ~85 bytes): no page grown row by row
  let buf = new Uint8Array(Math.max(64 * 1024, rows * ROW_BYTES));
  let n = 0;
  const room = (bytes: number) => {
    if (n + bytes <= buf.length) return;
    const grown = new Uint8Array(Math.max(buf.length * 2, n + bytes));
    grown.set(buf.subarray(0, n));
    buf = grown;
  };
  const put = (bytes: Uint8Array) => {
    room(bytes.length);
    buf.set(bytes, n);
    n += bytes.length;
  };
  const byte = (b: number) => {
    room(1);
    buf[n++] = b;
  };
  const digits2 = (v: number) => {
    buf[n++] = ZERO + Math.floor(v / 10);
    buf[n++] = ZERO + (v % 10);
  };
  const number = (v: number) => {
    if (!Number.isSafeInteger(v)) return put(utf8.encode(String(v)));
    room(17);
    let rest = v;
    if (rest < 0) {
      buf[n++] = 0x2d;
      rest = -rest;
    }
    const start = n;
    do {
      const next = Math.floor(rest / 10);
      buf[n++] = ZERO + (rest - next * 10);
      rest = next;
    } while (rest > 0);
    for (let a = start, b = n - 1; a < b; a++, b--) {
      const t = buf[a]!;
      buf[a] = buf[b]!;
      buf[b] = t;
    }
  };
  let day = Number.NaN;
  let date = new Uint8Array(0);
  const time = (t: number) => {
    if (!Number.isInteger(t) || t < FIRST_TIME || t >= PAST_LAST_TIME)
      return put(utf8.encode(new Date(t).toISOString()));
    const d = Math.floor(t / DAY_MS);
    if (d !== day) {
      day = d;
      date = utf8.encode(new Date(d * DAY_MS).toISOString().slice(0, 11));
    }
    put(date);
    room(13);
    const ms = t - d * DAY_MS;
    const s = Math.floor(ms / 1000);
    const milli = ms - s * 1000;
    digits2(Math.floor(s / 3600));
    buf[n++] = 0x3a;
    digits2(Math.floor(s / 60) % 60);
    buf[n++] = 0x3a;
    digits2(s % 60);
    buf[n++] = 0x2e;
    buf[n++] = ZERO + Math.floor(milli / 100);
    digits2(milli % 100);
    buf[n++] = 0x5a;
  };
  /** a text cell: ASCII needing no quotes byte by byte, any other through the encoder */
  const text = (s: string) => {
    const length = s.length;
    room(length);
    const start = n;
    for (let i = 0; i < length; i++) {
      const c = s.charCodeAt(i);
      // a quote, a comma, a line break or anything past ASCII: the cell as `cell` writes it, encoded
      if (c >= 0x80 || c === 0x22 || c === 0x2c || c === 0x0a || c === 0x0d) {
        n = start;
        return put(utf8.encode(textCell(s)));
      }
      buf[start + i] = c;
    }
    n = start + length;
  };
  /** a text cell of few values (a kind, a metric): each one's bytes made once */
  const fewTexts = () => {
    const known = new Map<string, Uint8Array>();
    return (s: string) => {
      let bytes = known.get(s);
      if (bytes === undefined) known.set(s, (bytes = utf8.encode(textCell(s))));
      put(bytes);
    };
  };
  const kindCell = fewTexts();
  const metricCell = fewTexts();
  return {
    row: (kind, id, metric, at, value, previous, previousSeenAt) => {
      text(id);
      byte(COMMA);
      metricCell(metric);
      byte(COMMA);
      time(at);
      byte(COMMA);
      number(value);
      byte(COMMA);
      if (previous !== null) {
        number(previous);
        byte(COMMA);
        number(value - previous);
      } else byte(COMMA);
      byte(COMMA);
      kindCell(kind);
      byte(COMMA);
      if (previousSeenAt !== null) time(previousSeenAt);
      byte(NEWLINE);
    },
    // a page crossing threads takes its whole buffer with it: a buffer mostly empty is cut to the page's size
    take: () => (n >= buf.length * 0.75 ? buf.subarray(0, n) : buf.slice(0, n)),
  };
}

export function attritionLine(p: PresenceRecord): string {
  return csvLine([
    p.id,
    iso(p.firstSeen),
    iso(p.lastSeen),
    iso(p.firstMissingAt),
    p.rechecks,
    p.status,
    p.reason,
    p.kind,
    iso(p.statusAt),
    p.watch,
    p.target,
    iso(p.createdAt),
  ]);
}
