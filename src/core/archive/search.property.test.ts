/**
 * The search language under generated input: the parser never throws; nothing a person typed reaches SQL or a
 * full-text engine except as a bound value Skein wrote (SQL text depends only on the tree's shape; match strings
 * hold input only inside Skein's quotes); and each store finds exactly the items a plain reading of the same
 * tree finds, over generated posts (10,000 queries on each store, PostgreSQL skipped without it except in CI;
 * 1,000 more through a DuckDB script over the project's Parquet copy).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postFixture, userFixture } from '../../shared/api/fixtures';
import { ArchiveQuery } from '../../shared/ipc/archive';
import { parseSearch, type SearchNode } from '../../shared/search/parse';
import { searchTokens } from '../../shared/search/tokens';
import { compile } from '../db';
import { TSV } from './postgres/query';
import { FTS, plannedSearch } from './query';
import { DatabaseSync } from 'node:sqlite';
import { compileSearch, wholeCondition, type TextIndex } from './search';
import { rec, repliesAnswer } from './testing/answers';
import { makeStores } from './testing/stores';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeDataset, type DatasetReport } from './dataset';
import { snippetOf } from './snippet';
import type { ProjectStore } from './store';

const VOCAB = ['heron', 'river', 'storm', 'garden', 'vote', 'amber', 'delta', 'herald'];
const HANDLES = ['ada', 'Bob', 'cyd'];
const DAY = 86_400_000;
const START = Date.UTC(2026, 0, 1);

// ---- input that tries everything an engine would read as syntax

const HOSTILE = [
  '"',
  "'",
  '(',
  ')',
  '-',
  '*',
  '^',
  ':',
  '\\',
  ';',
  '|',
  '&',
  '!',
  '<->',
  ':*',
  ' ',
  '  ',
  '\t',
  '\n',
  'NEAR',
  'NEAR(',
  'AND',
  'OR',
  'NOT',
  'text:',
  'handle:',
  'from:',
  'to:',
  'is:',
  'has:',
  'since:',
  'min_likes:',
  '{',
  '}',
  '[',
  ']',
  '$1',
  '?',
  '%',
  '_',
  '--',
  '/*',
  '*/',
  "');",
  'DROP TABLE items',
  '\u0000',
  '\u202e',
  'é',
  'ß',
  '😀',
  '\ud800',
  '٣',
  '中文',
  'heron',
  'river',
  '@ada',
  '#tag',
];
const hostile = fc.oneof(
  fc.array(fc.constantFrom(...HOSTILE), { maxLength: 30 }).map((p) => p.join('')),
  fc.string({ unit: 'grapheme', maxLength: 80 }),
  fc.string({ unit: 'binary', maxLength: 80 }),
  fc.array(fc.constantFrom(...HOSTILE), { minLength: 200, maxLength: 400 }).map((p) => p.join('')),
);

/** the tree with every value a person typed replaced (its shape and its enumerations kept) */
function blanked(n: SearchNode): SearchNode {
  switch (n.type) {
    case 'text':
      return { ...n, tokens: n.tokens.map(() => 'x') };
    case 'field':
      if (n.field === 'from' || n.field === 'to') return { ...n, handle: 'x' };
      if (n.field === 'lang') return { ...n, code: 'x' };
      if (n.field === 'since' || n.field === 'until') return { ...n, day: 'x', at: 0 };
      if (n.field === 'min') return { ...n, min: 0 };
      return n;
    case 'not':
      return { ...n, node: blanked(n.node) };
    default:
      return { ...n, nodes: n.nodes.map(blanked) };
  }
}

/** an FTS5 expression whose every character outside "…" is one of Skein's operators */
const ftsQuoted = (s: string) => /^(?:"(?:[^"]|"")*"|[() *]|AND|OR|NOT)*$/.test(s);
/** a tsquery literal whose every character outside '…' is one of Skein's operators */
const tsQuoted = (s: string) => /^(?:'(?:[^'\\]|''|\\\\)*'|[() &|!]|<->|:\*)*$/.test(s);

const sqlOf = (tree: SearchNode | null, index: TextIndex, dialect: 'sqlite' | 'postgres') => {
  const cond = wholeCondition(compileSearch(tree, index), index);
  return cond === null ? { text: '', values: [] } : compile(cond, dialect);
};

describe('the search language under hostile input', () => {
  it('never throws, and lets nothing typed reach SQL or FTS unparsed', () => {
    fc.assert(
      fc.property(hostile, (input) => {
        const parsed = parseSearch(input);
        if (!parsed.ok) {
          expect(parsed.error.position).toBeGreaterThanOrEqual(0);
          expect(parsed.error.position).toBeLessThanOrEqual(input.length);
          expect(parsed.error.message).not.toBe('');
          return;
        }
        const tree = parsed.query;
        for (const [index, dialect, quotedOk] of [
          [FTS, 'sqlite', ftsQuoted],
          [TSV, 'postgres', tsQuoted],
        ] as const) {
          const got = sqlOf(tree, index, dialect);
          expect(got.text).toBe(sqlOf(tree && blanked(tree), index, dialect).text);
          // a handle or a language code is checked by the parser; every other string bound is a match Skein quoted
          for (const v of got.values)
            if (typeof v === 'string' && !/^[a-z0-9_-]+$/.test(v)) expect(quotedOk(v), v).toBe(true);
        }
      }),
      { numRuns: 10_000 },
    );
  });
});

// ---- generated posts and queries, and the reference reading of a tree

interface Gen {
  text: string;
  handle: string;
  name: string;
  lang: string;
  isReply: boolean;
  replyTo: string | null;
  likes: number | string;
  reposts: number;
  replies: number;
  quotes: number;
  urls: number;
  media: boolean;
  quote: boolean;
  card: null | 'poll' | 'legacyPoll' | 'summary';
  day: number | null;
}

const word = fc.constantFrom(...VOCAB, 'Héron', 'RIVER');
const genPost: fc.Arbitrary<Gen> = fc.record({
  text: fc
    .array(word, { maxLength: 6 })
    .chain((ws) => fc.constantFrom(' ', ', ', '-', '. ').map((sep) => ws.join(sep))),
  handle: fc.constantFrom(...HANDLES),
  name: fc.array(word, { maxLength: 2 }).map((ws) => ws.join(' ')),
  lang: fc.constantFrom('en', 'fr', 'EN', ''),
  isReply: fc.boolean(),
  replyTo: fc.constantFrom(null, '', 'Ada', 'bob'),
  likes: fc.oneof(fc.nat(20), fc.constant('7')),
  reposts: fc.nat(20),
  replies: fc.nat(20),
  quotes: fc.nat(20),
  urls: fc.nat(2),
  media: fc.boolean(),
  quote: fc.boolean(),
  card: fc.constantFrom(null, 'poll', 'legacyPoll', 'summary'),
  day: fc.option(fc.nat(9)),
});

const dateText = (day: number) => {
  const d = new Date(START + day * DAY + 3_600_000);
  const [wd, dd, mon, yyyy, hms] = d.toUTCString().replace(',', '').split(' ');
  return `${wd} ${mon} ${dd} ${hms} +0000 ${yyyy}`;
};

function rawOf(g: Gen, id: string): Record<string, unknown> {
  const url = { display_url: 'x.example', expanded_url: 'https://x.example', indices: [0, 1], url: 'https://t.co/x' };
  return {
    ...postFixture,
    id,
    text: g.text,
    lang: g.lang,
    isReply: g.isReply,
    inReplyToUsername: g.replyTo,
    likeCount: g.likes,
    retweetCount: g.reposts,
    replyCount: g.replies,
    quoteCount: g.quotes,
    createdAt: g.day === null ? 'not a date' : dateText(g.day),
    entities: { ...postFixture.entities, urls: Array.from({ length: g.urls }, () => url), media: [] },
    extendedEntities: g.media ? { media: [{ type: 'photo' }] } : {},
    quoted_tweet: g.quote ? { ...postFixture, id: '9' } : null,
    card:
      g.card === null
        ? null
        : g.card === 'legacyPoll'
          ? { legacy: { name: 'poll3choice_text_only' } }
          : { name: g.card === 'poll' ? 'poll2choice_text_only' : 'summary_large_image' },
    author: { ...userFixture, userName: g.handle, name: g.name },
  };
}

/** the words of one field hold the term's words in a row (the last one a prefix if the term is one) */
function fieldHas(words: string[], tokens: string[], prefix: boolean): boolean {
  for (let i = 0; i + tokens.length <= words.length; i++)
    if (tokens.every((t, j) => (prefix && j === tokens.length - 1 ? words[i + j]!.startsWith(t) : words[i + j] === t)))
      return true;
  return false;
}

/** the reference: a tree read in plain JS over one generated post */
function holds(n: SearchNode, g: Gen): boolean {
  switch (n.type) {
    case 'text':
      return [g.text, g.handle, g.name].some((f) => fieldHas(searchTokens(f), n.tokens, n.prefix));
    case 'not':
      return !holds(n.node, g);
    case 'and':
      return n.nodes.every((m) => holds(m, g));
    case 'or':
      return n.nodes.some((m) => holds(m, g));
    case 'field': {
      const at = g.day === null ? null : START + g.day * DAY + 3_600_000;
      switch (n.field) {
        case 'from':
          return g.handle.toLowerCase() === n.handle;
        case 'to':
          return (g.replyTo ?? '').toLowerCase() === n.handle;
        case 'lang':
          return g.lang !== '' && g.lang.toLowerCase() === n.code;
        case 'is':
          return n.is === 'reply' ? g.isReply : n.is === 'quote' ? g.quote : false;
        case 'has':
          return n.has === 'media'
            ? g.media
            : n.has === 'link'
              ? g.urls > 0
              : g.card === 'poll' || g.card === 'legacyPoll';
        case 'since':
          return at !== null && at >= n.at;
        case 'until':
          return at !== null && at < n.at;
        case 'min': {
          const v = { likes: g.likes, reposts: g.reposts, replies: g.replies, quotes: g.quotes }[n.counter];
          return (typeof v === 'number' ? v : 0) >= n.min;
        }
      }
    }
  }
}

const term: fc.Arbitrary<string> = fc.oneof(
  { weight: 5, arbitrary: word },
  { weight: 2, arbitrary: fc.constantFrom('her*', 'riv*', 'st*', 'gard*', 'vot*') },
  { weight: 2, arbitrary: fc.tuple(word, word).map(([a, b]) => `"${a} ${b}"`) },
  {
    weight: 3,
    arbitrary: fc.oneof(
      fc.constantFrom(...HANDLES, 'BOB', '@ada').map((h) => `from:${h}`),
      fc.constantFrom('ada', 'bob', 'cyd').map((h) => `to:${h}`),
      fc.constantFrom('en', 'fr', 'de').map((l) => `lang:${l}`),
      fc.constantFrom('reply', 'quote', 'retweet').map((v) => `is:${v}`),
      fc.constantFrom('media', 'link', 'poll').map((v) => `has:${v}`),
      fc
        .tuple(fc.constantFrom('since', 'until'), fc.nat(10))
        .map(([f, d]) => `${f}:2026-01-${String(d + 1).padStart(2, '0')}`),
      fc
        .tuple(fc.constantFrom('min_likes', 'min_reposts', 'min_retweets', 'min_replies', 'min_quotes'), fc.nat(21))
        .map(([f, n]) => `${f}:${n}`),
    ),
  },
);
const query: fc.Arbitrary<string> = fc.letrec<{ q: string }>((tie) => ({
  q: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    term,
    fc.tuple(tie('q'), tie('q')).map(([a, b]) => `${a} ${b}`),
    fc.tuple(tie('q'), tie('q')).map(([a, b]) => `${a} OR ${b}`),
    fc.tuple(tie('q'), tie('q')).map(([a, b]) => `${a} AND ${b}`),
    tie('q').map((a) => `(${a})`),
    term.map((a) => `-${a}`),
    tie('q').map((a) => `NOT (${a})`),
  ),
})).q;

const POSTS = fc.sample(genPost, { numRuns: 80, seed: 42 });

describe.each(makeStores().map((s) => ({ s, name: s.name, runs: 10_000 })))(
  'search on $name equals the reference reading',
  ({ s, runs }) => {
    let p: ProjectStore;
    beforeAll(async () => {
      if (s.skip) return;
      await s.setup();
      p = await s.open();
      await p.ingest([rec(repliesAnswer(POSTS.map((g, i) => rawOf(g, String(100 + i)))))]);
    }, 120_000);
    afterAll(async () => {
      if (s.skip) return;
      await p.close();
      s.teardown();
    });
    const run = s.skip ? it.skip : it;

    run(
      `${runs} generated queries (${s.skip ?? 'running'})`,
      async () => {
        await fc.assert(
          fc.asyncProperty(query, async (text) => {
            const parsed = parseSearch(text);
            expect(parsed.ok).toBe(true);
            if (!parsed.ok) return;
            const want = POSTS.flatMap((g, i) =>
              parsed.query === null || holds(parsed.query, g) ? [String(100 + i)] : [],
            );
            const q = ArchiveQuery.parse({ text });
            const got = (await p.search(q, 0, 200)).hits.map((h) => h.id);
            expect(got.sort()).toEqual(want);
            expect((await p.groupCounts(q, null, 0)).total).toBe(want.length);
          }),
          { numRuns: runs },
        );
      },
      600_000,
    );
  },
);

// Past the count a search sorts itself (5,000 matches), SQLite walks its time index newest first with each
// word's matches read once into memory: the same rows, in the same order, page after page
const MANY = fc.sample(genPost, { numRuns: 20_000, seed: 7 });
describe('a search with many matches on sqlite pages newest first as the reference does', () => {
  const store = makeStores().find((s) => s.name === 'sqlite')!;
  let p: ProjectStore;
  /** the same file on a connection of the test's own, to ask a search for one plan or the other */
  let db: DatabaseSync;
  beforeAll(async () => {
    await store.setup();
    const init = store.fresh();
    p = await store.open(init);
    if (init.store === 'postgres') throw new Error('a file');
    db = new DatabaseSync(init.path);
    for (let i = 0; i < MANY.length; i += 2_000)
      await p.ingest([rec(repliesAnswer(MANY.slice(i, i + 2_000).map((g, j) => rawOf(g, String(100 + i + j)))))]);
  }, 120_000);
  afterAll(async () => {
    db.close();
    await p.close();
    store.teardown();
  });
  const atOf = (g: Gen) => (g.day === null ? -1 : g.day);
  /** the reference's ids for a tree: newest first; a post without a date last; the later kept first among equals */
  const newestFirst = (tree: SearchNode): string[] =>
    MANY.flatMap((g, i) => (holds(tree, g) ? [i] : []))
      .sort((a, b) => atOf(MANY[b]!) - atOf(MANY[a]!) || b - a)
      .map((i) => String(100 + i));

  // the first page found by asking FTS5 row by row as the time index is walked, and the same page from each word's
  // matches read whole: the same rows in the same order, on every page, newest first or by engagement
  it('300 generated queries under a common word: the walk that asks row by row finds what the sets find', () => {
    const answered = { probes: 0, sets: 0 };
    fc.assert(
      fc.property(
        fc.constantFrom('heron OR river', 'storm OR garden OR vote', 'amber', 'heron OR (river lang:en)'),
        query,
        fc.constantFrom('time', 'engagement'),
        fc.constantFrom(0, 30, 90),
        (common, rest, sort, offset) => {
          const text = `(${common}) ${rest}`;
          if (!parseSearch(text).ok) return;
          const q = ArchiveQuery.parse({ text, sort });
          const probed = plannedSearch(db, q, offset, 30, () => 0, 'probes');
          const sets = plannedSearch(db, q, offset, 30, () => 0, 'sets');
          answered[probed.plan]++;
          expect(sets.plan).toBe('sets');
          expect(probed.result.hits.map((h) => h.id)).toEqual(sets.result.hits.map((h) => h.id));
          expect(probed.result.nextOffset).toBe(sets.result.nextOffset);
        },
      ),
      { numRuns: 300, seed: 23 },
    );
    // both plans answered: the walk row by row, and the sets it gives up to
    expect(answered.probes).toBeGreaterThan(30);
    expect(answered.sets).toBeGreaterThan(30);
  }, 300_000);

  // the walk reads a plain ASCII row's words in JS and asks FTS5 about the others (a Héron): its page, wherever it
  // answers, is the reference's page
  it('200 generated queries under a common word: the walk finds the reference reading', () => {
    let walked = 0;
    fc.assert(
      fc.property(
        fc.constantFrom('heron OR river', 'storm OR garden OR vote', 'amber', 'river -storm', '"heron river" OR vote'),
        query,
        fc.constantFrom(0, 30),
        (common, rest, offset) => {
          const text = `(${common}) ${rest}`;
          const parsed = parseSearch(text);
          if (!parsed.ok || parsed.query === null) return;
          const tree = parsed.query;
          const want = newestFirst(tree);
          const got = plannedSearch(db, ArchiveQuery.parse({ text }), offset, 30, () => 0, 'probes');
          if (got.plan === 'probes') walked++;
          expect(got.result.hits.map((h) => h.id)).toEqual(want.slice(offset, offset + 30));
          expect(got.result.nextOffset).toBe(want.length > offset + 30 ? offset + 30 : null);
        },
      ),
      { numRuns: 200, seed: 29 },
    );
    expect(walked).toBeGreaterThan(30);
  }, 300_000);

  it('300 generated queries under a common word, two pages each', async () => {
    let walked = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('heron OR river', 'storm OR garden OR vote', 'amber'),
        query,
        async (common, rest) => {
          const text = `(${common}) ${rest}`;
          const parsed = parseSearch(text);
          if (!parsed.ok || parsed.query === null) return;
          const tree = parsed.query;
          const want = newestFirst(tree);
          if (want.length > 5_000) walked++;
          const q = ArchiveQuery.parse({ text });
          const first = await p.search(q, 0, 60);
          const second = await p.search(q, 60, 60);
          expect(first.hits.map((h) => h.id)).toEqual(want.slice(0, 60));
          expect(second.hits.map((h) => h.id)).toEqual(want.slice(60, 120));
        },
      ),
      { numRuns: 300, seed: 11 },
    );
    // the walk itself was reached, not only the sort of a few matches
    expect(walked).toBeGreaterThan(20);
  }, 300_000);
});

describe("a DuckDB script over the project's dataset equals the reference reading", () => {
  const store = makeStores().find((s) => s.name === 'sqlite')!;
  let dir = '';
  let dataset: DatasetReport;
  let db: DuckDBInstance;
  let con: DuckDBConnection;
  beforeAll(async () => {
    await store.setup();
    const p = await store.open();
    await p.ingest([rec(repliesAnswer(POSTS.map((g, i) => rawOf(g, String(100 + i)))))]);
    dir = mkdtempSync(join(tmpdir(), 'skein-dataset-'));
    dataset = await writeDataset(p, join(dir, 'dataset'));
    await p.close();
    db = await DuckDBInstance.create(':memory:');
    con = await db.connect();
  }, 120_000);
  afterAll(() => {
    con?.closeSync();
    db?.closeSync();
    store.teardown();
    rmSync(dir, { recursive: true, force: true });
  });

  it('1,000 generated queries, run as the script prints them', async () => {
    expect(dataset.items).toBe(POSTS.length);
    await fc.assert(
      fc.asyncProperty(query, async (text) => {
        const parsed = parseSearch(text);
        if (!parsed.ok) throw new Error(parsed.error.message);
        const want = POSTS.flatMap((g, i) =>
          parsed.query === null || holds(parsed.query, g) ? [String(100 + i)] : [],
        );
        const script = snippetOf({
          query: ArchiveQuery.parse({ text }),
          language: 'duckdb',
          project: { name: 'generated', place: { store: 'sqlite', path: 'p.skein' } },
          at: START,
          version: '0',
          dataset,
        }).text;
        const rows = (await con.runAndReadAll(script)).getRowObjects() as Array<{ id: string }>;
        expect(rows.map((r) => r.id).sort()).toEqual(want);
      }),
      { numRuns: 1_000 },
    );
  }, 600_000);
});
