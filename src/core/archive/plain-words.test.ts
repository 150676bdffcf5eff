/**
 * The JS reading of a row's words against FTS5's own, on a project file's index: for generated rows and queries
 * the rows JS says match are exactly the rows FTS5 matches, wherever JS claims to read the row; and it claims no
 * row that holds a character FTS5 reads its own way.
 */
import fc from 'fast-check';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSearch, type SearchNode } from '../../shared/search/parse';
import { holdsPlain, plainTree, plainWords, wordsDecide, type PlainRow } from './plain-words';
import { FTS } from './query';
import { openProjectFile } from './schema';

// pieces FTS5 could split or fold otherwise than JS: case, digits, underscores, apostrophes, hyphens, dots, NUL,
// words one is the prefix of another's
const PIECES = ['heron', 'Heron', 'HERONS', 'her', 'river', 'riv3r', 'w123', '123', 'a_b', "don't", 'x-y', 'ab.cd'];
const SEPARATORS = [' ', ', ', '-', '_', "'", '.', '\t', '\n', '\u0000', '@', '#', '  '];
const FOREIGN = ['é', 'Héron', '’', '😀', 'ß', '中文', '\u00a0'];

const field = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.array(fc.constantFrom(...PIECES, ...SEPARATORS), { maxLength: 12 }).map((p) => p.join('')),
  },
  {
    weight: 1,
    arbitrary: fc.array(fc.constantFrom(...PIECES, ...FOREIGN, ' '), { maxLength: 8 }).map((p) => p.join('')),
  },
  { weight: 1, arbitrary: fc.constant('') },
);
const ROWS = fc.sample(fc.tuple(field, field, field, field), { numRuns: 600, seed: 5 });

const word = fc.constantFrom(
  'heron',
  'her',
  'river',
  'riv3r',
  'w123',
  '123',
  'a',
  'b',
  'don',
  't',
  'x',
  'cd',
  'herons',
);
const term = fc.oneof(
  { weight: 4, arbitrary: word },
  { weight: 2, arbitrary: word.map((w) => `${w}*`) },
  { weight: 2, arbitrary: fc.tuple(word, word).map(([a, b]) => `"${a} ${b}"`) },
  { weight: 1, arbitrary: fc.tuple(word, word).map(([a, b]) => `"${a} ${b}"*`) },
);
const query: fc.Arbitrary<string> = fc.letrec<{ q: string }>((tie) => ({
  q: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    term,
    fc.tuple(tie('q'), tie('q')).map(([a, b]) => `${a} ${b}`),
    fc.tuple(tie('q'), tie('q')).map(([a, b]) => `(${a}) OR (${b})`),
    fc.tuple(tie('q'), term).map(([a, b]) => `(${a}) -${b}`),
    fc.tuple(tie('q'), tie('q')).map(([a, b]) => `(${a}) -(${b})`),
  ),
})).q;

/** a tree read over a row's words with each filter given a value of its own (`filter(n)`) */
function holdsWith(node: SearchNode, words: PlainRow, filter: (n: SearchNode) => boolean): boolean {
  switch (node.type) {
    case 'text':
      return holdsPlain(node, words);
    case 'field':
      return filter(node);
    case 'not':
      return !holdsWith(node.node, words, filter);
    case 'and':
      return node.nodes.every((n) => holdsWith(n, words, filter));
    case 'or':
      return node.nodes.some((n) => holdsWith(n, words, filter));
  }
}

const withFilters = fc.letrec<{ q: string }>((tie) => ({
  q: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    term,
    fc.constantFrom('lang:en', 'min_likes:3', 'is:reply', 'from:ada'),
    fc.tuple(tie('q'), tie('q')).map(([a, b]) => `${a} ${b}`),
    fc.tuple(tie('q'), tie('q')).map(([a, b]) => `(${a}) OR (${b})`),
    tie('q').map((a) => `-(${a})`),
  ),
})).q;

describe("a row's words read in JS", () => {
  let dir = '';
  let db: DatabaseSync;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'skein-plain-words-'));
    db = openProjectFile(join(dir, 'p.skein'), { name: 'p', kind: 'live', now: 0 }).db;
    const insert = db.prepare('INSERT INTO items_fts (rowid, text, handle, name, bio) VALUES (?, ?, ?, ?, ?)');
    ROWS.forEach((r, i) => insert.run(i + 1, ...r));
  });
  afterAll(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('are read only where every field is plain ASCII', () => {
    const read = ROWS.filter((r) => plainWords(r) !== null);
    expect(read.length).toBeGreaterThan(300);
    expect(read.length).toBeLessThan(ROWS.length);
    for (const r of ROWS) if (r.some((f) => FOREIGN.some((c) => f.includes(c)))) expect(plainWords(r)).toBeNull();
  });

  it('match 2,000 generated queries where FTS5 matches them', () => {
    const rows = db.prepare('SELECT rowid FROM items_fts WHERE items_fts MATCH ?');
    let matched = 0;
    fc.assert(
      fc.property(query, (text) => {
        const parsed = parseSearch(text);
        if (!parsed.ok || parsed.query === null) return;
        const tree = parsed.query;
        const match = FTS.match(tree);
        if (match === null) return;
        expect(plainTree(tree)).toBe(true);
        const fts = new Set((rows.all(match) as Array<{ rowid: number }>).map((r) => r.rowid));
        ROWS.forEach((r, i) => {
          const words = plainWords(r);
          if (words === null) return;
          const js = holdsPlain(tree, words);
          if (js) matched++;
          expect(js, `${JSON.stringify(r)} against ${match}`).toBe(fts.has(i + 1));
        });
      }),
      { numRuns: 2_000, seed: 17 },
    );
    expect(matched).toBeGreaterThan(10_000);
  });

  it('rule a query in or out only where no values of its filters would say otherwise', () => {
    let decided = 0;
    fc.assert(
      fc.property(withFilters, fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }), (text, bits) => {
        const parsed = parseSearch(text);
        if (!parsed.ok || parsed.query === null) return;
        const tree = parsed.query;
        for (const r of ROWS) {
          const words = plainWords(r);
          if (words === null) continue;
          const said = wordsDecide(tree, words);
          if (said === null) continue;
          decided++;
          // the filters given values by their place in the tree: eight ways, each must agree
          for (let k = 0; k < 8; k++) {
            let i = k;
            expect(holdsWith(tree, words, () => bits[i++ % 8]!)).toBe(said);
          }
        }
      }),
      { numRuns: 300, seed: 3 },
    );
    expect(decided).toBeGreaterThan(10_000);
  });

  it('leave a query FTS5 reads its own way to FTS5', () => {
    const plain = (text: string) => {
      const parsed = parseSearch(text);
      if (!parsed.ok || parsed.query === null) throw new Error(text);
      return plainTree(parsed.query);
    };
    for (const text of ['ß', '中文', 'heron OR 中文', 'river -straße']) expect(plain(text), text).toBe(false);
    // the parser keeps a word's letters without their diacritics: what is left is plain
    expect(plain('Héron OR river')).toBe(true);
  });
});
