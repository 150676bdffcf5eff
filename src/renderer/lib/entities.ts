/**
 * Text with entities → segments the UI renders as React elements (never
 * HTML). Entity `indices` count Unicode code points, not UTF-16 units, so an
 * emoji before a link must not shift it. Indices that do not point at what
 * the entity says (seen in the wild) are corrected by searching for the
 * token; entities that cannot be placed are left as plain text.
 */

export type Segment =
  | { kind: 'text'; text: string }
  | { kind: 'url'; text: string; href: string }
  | { kind: 'mention'; text: string; userId: string | null; screenName: string }
  | { kind: 'hashtag'; text: string; tag: string }
  | { kind: 'symbol'; text: string; symbol: string };

type Indices = readonly [number, number] | readonly number[];

/** The entity shapes this module reads; extra fields are ignored. */
export interface EntitiesLike {
  urls?: ReadonlyArray<{
    url: string;
    expanded_url?: string | null;
    display_url?: string | null;
    indices: Indices;
  }> | null;
  user_mentions?: ReadonlyArray<{ screen_name: string; id_str?: string | null; indices: Indices }> | null;
  hashtags?: ReadonlyArray<{ text: string; indices: Indices }> | null;
  symbols?: ReadonlyArray<{ text: string; indices: Indices }> | null;
  media?: ReadonlyArray<{ url: string; indices: Indices }> | null;
}

interface Span {
  start: number;
  end: number;
  /** null: remove the text (media links, shown as a media grid instead) */
  segment: Segment | null;
}

const HTML_ESCAPES: Record<string, string> = {
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&#39;': "'",
  '&apos;': "'",
};

/** The API escapes `& < >` in post text; turn those back into characters (as text, not markup). */
export function unescapeText(s: string): string {
  return s.replace(/&(?:amp|lt|gt|quot|#39|apos);/g, (m) => HTML_ESCAPES[m] ?? m);
}

/** sigil-led words and URLs: what a misplaced entity is looked for among (one linear scan, done only when needed) */
const TOKEN = /[@＠#＃$][\p{L}\p{N}\p{M}_]+|https?:\/\/[^\s]+/giu;
const TRAILING_PUNCTUATION = /[.,;:!?)\]}'"”’»]+$/u;

function tokenKey(token: string): string {
  return token.toLowerCase().replace(/^＠/, '@').replace(/^＃/, '#');
}

/**
 * The last segments worked out for each entities object: a post's entities are the same object for as
 * long as its answer stays cached, so a post seen again (a revisit, a re-render of its list) is not
 * segmented again; a post may carry thousands of entities, which take tens of milliseconds to place.
 */
const lastSegments = new WeakMap<
  object,
  { text: string; range: readonly number[] | null | undefined; segments: readonly Segment[] }
>();

const sameRange = (a: readonly number[] | null | undefined, b: readonly number[] | null | undefined) =>
  a === b || (!!a && !!b && a.length === b.length && a.every((n, i) => n === b[i]));

/**
 * Linear in the text's length whatever the indices (a hostile server may send any): an index that
 * does not point at its token costs one lookup in a token index built once by
 * a single scan, never a search of the text per entity; a span is checked
 * against an occupancy map, never against every span placed before.
 */
export function segmentText(
  text: string,
  entities: EntitiesLike | null | undefined,
  displayRange?: readonly [number, number] | readonly number[] | null,
): readonly Segment[] {
  if (!entities) return segmentAll(text, null, displayRange);
  const last = lastSegments.get(entities);
  if (last && last.text === text && sameRange(last.range, displayRange)) return last.segments;
  const segments = segmentAll(text, entities, displayRange);
  lastSegments.set(entities, { text, range: displayRange ? [...displayRange] : displayRange, segments });
  return segments;
}

function segmentAll(
  text: string,
  entities: EntitiesLike | null | undefined,
  displayRange?: readonly [number, number] | readonly number[] | null,
): Segment[] {
  const cps = Array.from(text);
  /** UTF-16 offset → code point index (-1 inside a surrogate pair) */
  const cpAt = new Int32Array(text.length + 1).fill(-1);
  let acc = 0;
  for (let i = 0; i < cps.length; i++) {
    cpAt[acc] = i;
    acc += (cps[i] ?? '').length;
  }
  cpAt[acc] = cps.length;

  const [rangeStart, rangeEnd] = readRange(displayRange, cps.length);
  const spans: Span[] = [];
  const occupied = new Uint8Array(cps.length + 1);
  const isFree = (a: number, b: number) => {
    for (let i = a; i < b; i++) if (occupied[i] === 1) return false;
    return true;
  };
  const sliceAt = (a: number, b: number) => cps.slice(a, b).join('');

  /** token key → code point starts, in order; built on the first misplaced entity */
  let index: Map<string, number[]> | null = null;
  const tried = new Map<string, number>();
  const tokenIndex = (): Map<string, number[]> => {
    if (index) return index;
    index = new Map();
    const add = (key: string, at: number) => {
      const list = index?.get(key);
      if (list) list.push(at);
      else index?.set(key, [at]);
    };
    for (const m of text.matchAll(TOKEN)) {
      const at = cpAt[m.index] ?? -1;
      if (at < 0) continue;
      const key = tokenKey(m[0]);
      add(key, at);
      const trimmed = key.replace(TRAILING_PUNCTUATION, '');
      if (trimmed !== key && trimmed.length > 0) add(trimmed, at);
    }
    return index;
  };

  /** Place a token: trust the indices when they match, else look it up in the token index. */
  const place = (indices: Indices, token: string, build: (slice: string) => Segment | null): void => {
    const [s, e] = [indices[0] ?? -1, indices[1] ?? -1];
    const lower = token.toLowerCase();
    const length = Array.from(token).length;
    if (length === 0) return;
    let start = -1;
    if (s >= 0 && e - s === length && e <= cps.length && matches(sliceAt(s, e), lower)) start = s;
    else {
      const key = tokenKey(token);
      const candidates = tokenIndex().get(key) ?? [];
      // each candidate is tried at most once per key: occupancy only grows, so one taken now stays taken
      let next = tried.get(key) ?? 0;
      while (next < candidates.length) {
        const at = candidates[next++] ?? -1;
        if (at + length <= cps.length && isFree(at, at + length) && matches(sliceAt(at, at + length), lower)) {
          start = at;
          break;
        }
      }
      tried.set(key, next);
    }
    if (start < 0) return;
    const end = start + length;
    if (!isFree(start, end) || start < rangeStart || end > rangeEnd) return;
    occupied.fill(1, start, end);
    spans.push({ start, end, segment: build(sliceAt(start, end)) });
  };

  for (const m of entities?.media ?? []) place(m.indices, m.url, () => null);
  for (const u of entities?.urls ?? []) {
    const href = u.expanded_url || u.url;
    place(u.indices, u.url, () => ({ kind: 'url', text: u.display_url || href, href }));
  }
  for (const m of entities?.user_mentions ?? []) {
    place(m.indices, `@${m.screen_name}`, (slice) => ({
      kind: 'mention',
      text: slice,
      // profile_bio mentions carry a placeholder id "0" (api-field-notes.md, "Round 2"): the handle then
      userId: m.id_str && /^[1-9]\d*$/.test(m.id_str) ? m.id_str : null,
      screenName: m.screen_name,
    }));
  }
  for (const h of entities?.hashtags ?? [])
    place(h.indices, `#${h.text}`, (slice) => ({ kind: 'hashtag', text: slice, tag: h.text }));
  for (const h of entities?.symbols ?? [])
    place(h.indices, `$${h.text}`, (slice) => ({ kind: 'symbol', text: slice, symbol: h.text }));

  spans.sort((a, b) => a.start - b.start);
  const out: Segment[] = [];
  let pos = rangeStart;
  const pushText = (a: number, b: number) => {
    if (b > a) out.push({ kind: 'text', text: unescapeText(cps.slice(a, b).join('')) });
  };
  for (const span of spans) {
    pushText(pos, span.start);
    if (span.segment) out.push(span.segment);
    pos = span.end;
  }
  pushText(pos, rangeEnd);
  return trimEnd(out);
}

/** Token comparison tolerant of case and of the full-width @ and # some clients type. */
function matches(slice: string, lowerToken: string): boolean {
  const norm = slice.toLowerCase().replace(/^[＠]/, '@').replace(/^[＃]/, '#');
  return norm === lowerToken;
}

/**
 * The part of the text shown: the range's start hides leading reply mentions; its end never cuts
 * the text (the live service sends the whole text of a long post with a range of `[0, 280]`; what
 * lies past the end is at most a media link, removed as an entity).
 */
function readRange(range: readonly number[] | null | undefined, length: number): [number, number] {
  if (!range || range.length !== 2) return [0, length];
  const start = Math.max(0, Math.min(range[0] ?? 0, length));
  return start < length ? [start, length] : [0, length];
}

/** Removing a trailing media link leaves a space behind; drop it. */
function trimEnd(segments: Segment[]): Segment[] {
  const last = segments.at(-1);
  if (last?.kind === 'text') {
    const t = last.text.trimEnd();
    if (t) segments[segments.length - 1] = { kind: 'text', text: t };
    else segments.pop();
  }
  return segments;
}

type Loose = Record<string, unknown>;
const isObj = (v: unknown): v is Loose => typeof v === 'object' && v !== null && !Array.isArray(v);
const isIndices = (v: unknown): v is [number, number] =>
  Array.isArray(v) && v.length === 2 && v.every((n) => typeof n === 'number' && Number.isInteger(n));

/**
 * Entities from an object whose shape the spec leaves open (a profile bio's
 * `entities.description`): keeps only well-formed entries.
 */
export function readEntities(value: unknown): EntitiesLike | null {
  if (!isObj(value)) return null;
  const list = <T>(key: string, ok: (e: Loose) => boolean): T[] =>
    (Array.isArray(value[key]) ? (value[key] as unknown[]) : []).filter(
      (e): e is Loose => isObj(e) && isIndices(e.indices) && ok(e),
    ) as T[];
  const s = (e: Loose, k: string) => typeof e[k] === 'string';
  return {
    urls: list('urls', (e) => s(e, 'url')),
    user_mentions: list('user_mentions', (e) => s(e, 'screen_name')),
    hashtags: list('hashtags', (e) => s(e, 'text')),
    symbols: list('symbols', (e) => s(e, 'text')),
  };
}
