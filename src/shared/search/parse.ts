/**
 * The archive's search language, parsed by Skein: what a person typed never reaches SQL or a full-text engine
 * as it stands, only this tree, which each store compiles its own way (core/archive/search.ts).
 *
 *   words          heron river        both words (AND is implied between terms)
 *   "phrases"      "big storm"        the words next to each other
 *   prefix         her*               any word starting with "her"; the last bare word typed is a prefix too
 *   OR, AND, NOT   heron OR egret     upper case only; -word is NOT word; ( ) group
 *   filters        from:ada to:bob lang:en is:reply|quote|retweet has:media|link|poll
 *                  since:2026-01-01 until:2026-02-01 (days in UTC, until excluded)
 *                  min_likes:10 min_reposts:5 (min_retweets) min_replies:2 min_quotes:1
 *
 * Precedence: NOT, then AND, then OR. A word with nothing an index keeps (`***`) is left out, as if not typed.
 * Never throws: the answer is a tree or an error naming the position (0-based) and what was expected.
 */
import { ownValue } from '../own';
import { searchTokens } from './tokens';

export type Counter = 'likes' | 'reposts' | 'replies' | 'quotes';

/** Where a term was typed: [start, end) in the input. */
export interface Span {
  start: number;
  end: number;
}

export type FieldTerm =
  | { type: 'field'; field: 'from' | 'to'; handle: string }
  | { type: 'field'; field: 'lang'; code: string }
  | { type: 'field'; field: 'is'; is: 'reply' | 'quote' | 'retweet' }
  | { type: 'field'; field: 'has'; has: 'media' | 'link' | 'poll' }
  | { type: 'field'; field: 'since' | 'until'; day: string; at: number }
  | { type: 'field'; field: 'min'; counter: Counter; min: number };

/** A term of the text: its words as the indexes keep them (one: a word; several: a phrase); `prefix`: the last one. */
export interface TextTerm {
  type: 'text';
  tokens: string[];
  prefix: boolean;
  /** typed in quotes */
  quoted: boolean;
}

export type SearchNode = (
  | TextTerm
  | FieldTerm
  | { type: 'not'; node: SearchNode }
  | { type: 'and'; nodes: SearchNode[] }
  | { type: 'or'; nodes: SearchNode[] }
) & { span: Span };

export interface SearchError {
  /** 0-based, in the input */
  position: number;
  /** what was expected there, in plain words */
  expected: string;
  /** the whole sentence for the person (positions counted from 1, as a person counts characters) */
  message: string;
}

/** The parse of an input: a tree (null: nothing to match, every item) or an error. */
export type SearchParse = { ok: true; query: SearchNode | null } | { ok: false; error: SearchError };

const COUNTERS: Record<string, Counter> = {
  min_likes: 'likes',
  min_reposts: 'reposts',
  min_retweets: 'reposts',
  min_replies: 'replies',
  min_quotes: 'quotes',
};

/** the filters, as a person types them (the error for an unknown one lists them) */
const SEARCH_FIELDS = [
  'from',
  'to',
  'lang',
  'is',
  'has',
  'since',
  'until',
  'min_likes',
  'min_reposts',
  'min_retweets',
  'min_replies',
  'min_quotes',
] as const;

type Is = (FieldTerm & { field: 'is' })['is'];
type Has = (FieldTerm & { field: 'has' })['has'];
const IS: Record<string, Is> = { reply: 'reply', quote: 'quote', retweet: 'retweet', repost: 'retweet' };
const HAS: Record<string, Has> = { media: 'media', link: 'link', links: 'link', poll: 'poll' };
/** the largest counter a filter takes (beyond any the service reports) */
const MAX_COUNT = 1_000_000_000_000;

type Token =
  | { kind: 'open' | 'close' | 'and' | 'or' | 'not' | 'minus'; at: number; end: number }
  | { kind: 'word'; text: string; at: number; end: number }
  | { kind: 'phrase'; text: string; at: number; end: number }
  | { kind: 'field'; name: string; value: string; at: number; end: number };

/** thrown inside the parser only, caught by `parseSearch`: the error value */
class Failure extends Error {
  constructor(readonly error: SearchError) {
    super(error.message);
  }
}

const fail = (position: number, expected: string, message: string): never => {
  throw new Failure({ position, expected, message });
};

const TERM = 'a word, a phrase in quotes or a filter';

/** a character that ends a bare word */
const ends = (c: string) => /\s/u.test(c) || c === '(' || c === ')' || c === '"';

function lex(input: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < input.length) {
    const c = input[i]!;
    if (/\s/u.test(c)) {
      i++;
      continue;
    }
    if (c === '(' || c === ')') {
      out.push({ kind: c === '(' ? 'open' : 'close', at: i, end: i + 1 });
      i++;
      continue;
    }
    if (c === '"') {
      const close = input.indexOf('"', i + 1);
      if (close < 0) fail(i, 'a closing quote', `Expected a closing quote for the quote at character ${i + 1}.`);
      out.push({ kind: 'phrase', text: input.slice(i + 1, close), at: i, end: close + 1 });
      i = close + 1;
      continue;
    }
    // a minus before a term negates it; alone, or before a space, it is punctuation
    if (c === '-' && i + 1 < input.length && !/\s/u.test(input[i + 1]!) && input[i + 1] !== ')') {
      out.push({ kind: 'minus', at: i, end: i + 1 });
      i++;
      continue;
    }
    let j = i;
    while (j < input.length && !ends(input[j]!)) j++;
    const text = input.slice(i, j);
    const field = /^([A-Za-z_]+):/.exec(text);
    if (text === 'AND' || text === 'OR' || text === 'NOT')
      out.push({ kind: text === 'AND' ? 'and' : text === 'OR' ? 'or' : 'not', at: i, end: j });
    else if (field) out.push({ kind: 'field', name: field[1]!, value: text.slice(field[0].length), at: i, end: j });
    else out.push({ kind: 'word', text, at: i, end: j });
    i = j;
  }
  return out;
}

/** `YYYY-MM-DD` as the day's start in UTC, or null when it is no day of the calendar */
function dayOf(value: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]) - 1, Number(m[3])];
  const t = Date.UTC(y, mo, d);
  const back = new Date(t);
  return back.getUTCFullYear() === y && back.getUTCMonth() === mo && back.getUTCDate() === d ? t : null;
}

function fieldOf(t: Extract<Token, { kind: 'field' }>): FieldTerm {
  const name = t.name.toLowerCase();
  const at = t.at + t.name.length + 1;
  const { value } = t;
  const need = (what: string, example: string): never =>
    fail(at, what, `Expected ${what} after ${name}: at character ${at + 1} (for example ${name}:${example}).`);
  if (name === 'from' || name === 'to') {
    const handle = value.replace(/^@/, '');
    if (!/^[A-Za-z0-9_]{1,50}$/.test(handle)) need('a handle (letters, digits and _)', 'ada');
    return { type: 'field', field: name, handle: handle.toLowerCase() };
  }
  if (name === 'lang') {
    if (!/^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$/.test(value)) need('a language code', 'en');
    return { type: 'field', field: 'lang', code: value.toLowerCase() };
  }
  if (name === 'is') {
    const is = ownValue(IS, value.toLowerCase());
    if (is === undefined) return need('reply, quote or retweet', 'reply');
    return { type: 'field', field: 'is', is };
  }
  if (name === 'has') {
    const has = ownValue(HAS, value.toLowerCase());
    if (has === undefined) return need('media, link or poll', 'media');
    return { type: 'field', field: 'has', has };
  }
  if (name === 'since' || name === 'until') {
    const day = dayOf(value);
    if (day === null) return need('a date as year-month-day', '2026-01-31');
    return { type: 'field', field: name, day: value, at: day };
  }
  const counter = ownValue(COUNTERS, name);
  if (counter !== undefined) {
    const min = /^\d{1,13}$/.test(value) ? Number(value) : NaN;
    if (!(min <= MAX_COUNT)) need('a whole number', '10');
    return { type: 'field', field: 'min', counter, min };
  }
  return fail(
    t.at,
    `one of the filters ${SEARCH_FIELDS.map((f) => `${f}:`).join(', ')}`,
    `“${t.name}:” at character ${t.at + 1} is not a filter: expected one of ${SEARCH_FIELDS.map((f) => `${f}:`).join(
      ', ',
    )} (put text in quotes to search for its words).`,
  );
}

class Parser {
  private i = 0;
  constructor(
    private readonly tokens: Token[],
    private readonly input: string,
  ) {}

  private peek(): Token | undefined {
    return this.tokens[this.i];
  }

  parse(): SearchNode | null {
    if (this.tokens.length === 0) return null;
    const node = this.or();
    const rest = this.peek();
    if (rest?.kind === 'close')
      fail(rest.at, TERM, `There is no opening parenthesis for the closing one at character ${rest.at + 1}.`);
    return node;
  }

  private or(): SearchNode {
    const first = this.and();
    const nodes = [first];
    for (let t = this.peek(); t?.kind === 'or'; t = this.peek()) {
      this.i++;
      nodes.push(this.and(t));
    }
    return nodes.length === 1 ? first : group('or', nodes);
  }

  /** terms up to an OR, a closing parenthesis or the end; `after`: the operator before them, for errors */
  private and(after?: Token): SearchNode {
    const nodes: SearchNode[] = [];
    let op: Token | undefined = after;
    for (;;) {
      const t = this.peek();
      if (t === undefined || t.kind === 'or' || t.kind === 'close') break;
      if (t.kind === 'and') {
        if (nodes.length === 0) this.missing(t, op);
        this.i++;
        op = t;
        continue;
      }
      nodes.push(this.unary());
      op = undefined;
    }
    if (op !== undefined || nodes.length === 0) this.missing(this.peek(), op);
    return nodes.length === 1 ? nodes[0]! : group('and', nodes);
  }

  /** the error for a place a term was expected (`t`: what is there; `op`: the operator before it) */
  private missing(t: Token | undefined, op: Token | undefined): never {
    const at = t?.at ?? this.input.length;
    if (op !== undefined) {
      const name = this.input.slice(op.at, op.end);
      return fail(at, TERM, `Expected ${TERM} after “${name}” at character ${op.at + 1}.`);
    }
    if (t !== undefined && (t.kind === 'or' || t.kind === 'and'))
      return fail(at, TERM, `Expected ${TERM} before “${this.input.slice(t.at, t.end)}” at character ${at + 1}.`);
    return fail(at, TERM, `Expected ${TERM} at character ${at + 1}.`);
  }

  private unary(): SearchNode {
    const t = this.peek()!;
    if (t.kind === 'minus' || t.kind === 'not') {
      this.i++;
      const next = this.peek();
      if (next === undefined || next.kind === 'close' || next.kind === 'or' || next.kind === 'and')
        this.missing(next, t);
      const node = this.unary();
      return { type: 'not', node, span: { start: t.at, end: node.span.end } };
    }
    this.i++;
    const span = { start: t.at, end: t.end };
    switch (t.kind) {
      case 'open': {
        const next = this.peek();
        if (next === undefined)
          fail(
            this.input.length,
            'a closing parenthesis',
            `Expected a closing parenthesis for the one at character ${t.at + 1}.`,
          );
        if (next!.kind === 'close')
          fail(next!.at, TERM, `Expected ${TERM} inside the parentheses at character ${t.at + 1}.`);
        const node = this.or();
        const close = this.peek();
        if (close?.kind !== 'close')
          fail(
            close?.at ?? this.input.length,
            'a closing parenthesis',
            `Expected a closing parenthesis for the one at character ${t.at + 1}.`,
          );
        this.i++;
        return { ...node, span: { start: t.at, end: close!.end } };
      }
      case 'phrase':
        return { type: 'text', tokens: searchTokens(t.text), prefix: false, quoted: true, span };
      case 'field':
        return { ...fieldOf(t), span };
      case 'word': {
        // a word typed with a trailing * is a prefix; so is the last word of the input (still being typed)
        const star = t.text.endsWith('*');
        const last = this.i === this.tokens.length;
        return { type: 'text', tokens: searchTokens(t.text), prefix: star || last, quoted: false, span };
      }
      default:
        return fail(t.at, TERM, `Expected ${TERM} at character ${t.at + 1}.`);
    }
  }
}

const group = (type: 'and' | 'or', nodes: SearchNode[]): SearchNode => ({
  type,
  nodes,
  span: { start: nodes[0]!.span.start, end: nodes[nodes.length - 1]!.span.end },
});

/** The tree without the terms that hold no word an index keeps (null: nothing left). */
function pruned(node: SearchNode): SearchNode | null {
  switch (node.type) {
    case 'text':
      return node.tokens.length === 0 ? null : node;
    case 'field':
      return node;
    case 'not': {
      const inner = pruned(node.node);
      return inner === null ? null : { ...node, node: inner };
    }
    case 'and':
    case 'or': {
      const nodes = node.nodes.map(pruned).filter((n): n is SearchNode => n !== null);
      if (nodes.length === 0) return null;
      if (nodes.length === 1) return { ...nodes[0]!, span: node.span };
      return { ...node, nodes };
    }
  }
}

/** What a person typed in the archive's search box, as a tree or an error (never an exception). */
export function parseSearch(input: string): SearchParse {
  try {
    return { ok: true, query: pruned(new Parser(lex(input), input).parse() ?? EMPTY) };
  } catch (e) {
    if (e instanceof Failure) return { ok: false, error: e.error };
    // a bug here must not take the search box down: say so in plain words
    return {
      ok: false,
      error: { position: 0, expected: TERM, message: 'Skein could not read this search; try fewer symbols.' },
    };
  }
}

/** a placeholder pruned away: the empty input */
const EMPTY: SearchNode = { type: 'text', tokens: [], prefix: false, quoted: false, span: { start: 0, end: 0 } };
