/**
 * A manifest's long list kept as text is written where it stands, one entry a line, and reads back exactly as the
 * objects would have: through `jsonText` (the writers) and through a plain `JSON.stringify` (anything else).
 */
import { describe, expect, it } from 'vitest';
import { JsonList, MadeList, jsonText } from './json-list';

interface Entry {
  n: number;
  cursor: string | null;
  params: unknown;
}

const hostile = [
  'line\nbreak',
  'quote " and \\ backslash',
  '\u2028\u2029 separators',
  '<script>alert(1)</script>',
  '🦩 \u0000 nul',
  'skein-list-00000000-0000-0000-0000-000000000000-0',
];

function entries(n: number): Entry[] {
  return Array.from({ length: n }, (_, i) => ({
    n: i,
    cursor: i % 7 === 0 ? null : (hostile[i % hostile.length] ?? ''),
    params: { tweetId: String(i), deep: { a: [1, { b: hostile[i % hostile.length] }] } },
  }));
}

function manifestWith(list: JsonList<Entry> | MadeList<Entry> | Entry[]) {
  return {
    schema: 'x',
    title: hostile.join(' | '),
    source: { kind: 'archive', requests: list, note: 'after the list' },
    empty: [],
  };
}

const listOf = (items: Entry[]) => {
  const list = new JsonList<Entry>();
  for (const e of items) list.push(e);
  return list;
};

describe('a manifest list kept as text', () => {
  it('is written where it stands, reading back as the objects would, past a piece of 1,000', () => {
    const items = entries(2_345);
    const text = [...jsonText(manifestWith(listOf(items)))].join('');
    expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(manifestWith(items))));
    // one entry a line, indented under its key; the rest of the manifest as JSON.stringify indents it
    const lines = text.split('\n');
    const first = lines.findIndex((l) => l.endsWith('"requests": ['));
    expect(lines[first + 1]).toBe(`      ${JSON.stringify(items[0])},`);
    expect(lines[first + 2_345]).toBe(`      ${JSON.stringify(items[2_344])}`);
    expect(lines[first + 2_346]).toBe('    ],');
    expect(lines[first + 2_347]).toBe('    "note": "after the list"');
  });

  it('is the same one level deeper (inside a JSON export) and when empty', () => {
    const nested = `{\n  "manifest": ${[...jsonText(manifestWith(listOf(entries(3))), 2)].join('')}\n}`;
    expect(JSON.parse(nested)).toEqual({ manifest: JSON.parse(JSON.stringify(manifestWith(entries(3)))) });
    expect(nested.split('\n').filter((l) => l.startsWith('        {"n":'))).toHaveLength(3);
    const none = [...jsonText(manifestWith(new JsonList<Entry>()))].join('');
    expect(JSON.parse(none)).toEqual(JSON.parse(JSON.stringify(manifestWith([]))));
  });

  it('writes an array of more than 1,000 entries one a line, and a shorter manifest exactly as JSON.stringify', () => {
    const pages = entries(2_500).map((e, i) => (i === 7 ? undefined : i === 8 ? () => 1 : e));
    const manifest = { schema: 'x', pages, counts: { pages: 2_500 }, nested: { long: entries(1_001) } };
    const text = [...jsonText(manifest)].join('');
    expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(manifest)));
    const lines = text.split('\n');
    expect(lines[2]).toBe('  "pages": [');
    expect(lines[3]).toBe(`    ${JSON.stringify(pages[0])},`);
    expect(lines[10]).toBe('    null,');
    expect(lines[11]).toBe('    null,');
    expect(lines[3 + 2_499]).toBe(`    ${JSON.stringify(pages[2_499])}`);
    expect(lines[3 + 2_500]).toBe('  ],');
    // a manifest without a long list is written byte for byte as before
    const short = { schema: 'x', pages: entries(1_000), title: hostile.join(' ') };
    expect([...jsonText(short)].join('')).toBe(JSON.stringify(short, null, 2));
    expect([...jsonText(short, 2)].join('')).toBe(JSON.stringify(short, null, 2).replaceAll('\n', '\n  '));
  });

  it('gives its objects to a plain JSON.stringify, and keeps strings that look like its marker', () => {
    const items = entries(1_001);
    expect(JSON.parse(JSON.stringify(manifestWith(listOf(items))))).toEqual(
      JSON.parse(JSON.stringify(manifestWith(items))),
    );
    const two = { a: listOf(entries(2)), b: listOf(entries(1_200)), c: hostile[5] };
    const text = [...jsonText(two)].join('');
    expect(JSON.parse(text)).toEqual({ a: entries(2), b: entries(1_200), c: hostile[5] });
  });
});

describe('a manifest list made as it is written', () => {
  it('makes each entry only while its piece is written, reading back as the objects would', () => {
    const items = entries(2_345);
    let made = 0;
    let most = 0;
    const list = new MadeList(items.length, (i) => {
      made++;
      return items[i] as Entry;
    });
    const manifest = manifestWith(list);
    expect(made).toBe(0);
    const pieces: string[] = [];
    for (const piece of jsonText(manifest)) {
      pieces.push(piece);
      most = Math.max(most, made);
      made = 0;
    }
    // a piece of at most 1,000 entries made at a time, never the whole list
    expect(most).toBe(1_000);
    const text = pieces.join('');
    expect(text).toBe([...jsonText(manifestWith(listOf(items)))].join(''));
    expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(manifestWith(items))));
    expect(JSON.parse(JSON.stringify(manifest))).toEqual(JSON.parse(JSON.stringify(manifestWith(items))));
    expect(list.at(-1)).toEqual(items[2_344]);
    expect(list.at(2_345)).toBeUndefined();
    expect([...list]).toEqual(items);
    const none = new MadeList<Entry>(0, () => {
      throw new Error('no entry to make');
    });
    expect([...jsonText(manifestWith(none))].join('')).toBe([...jsonText(manifestWith([]))].join(''));
  });
});
