/**
 * The two share packages, opened as their recipient would: the one for review holds no real id, handle or
 * name and says it cannot be re-hydrated; the one for re-hydration holds the real post ids and nothing else
 * of the posts (no text, no handle, no name). Opted-out accounts' posts are in neither.
 */
import { strFromU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { readAgreement } from '../../../shared/coding/agreement-reading';
import type { AgreementReport } from '../../../shared/ipc/coding';
import {
  keptIds,
  shareRow,
  writeCollectionReviewPackage,
  writeRehydrationPackage,
  writeReviewPackage,
  type DrawnSample,
  type ShareItem,
} from './share';
import { aCitation } from '../testing/citation';

const post = (id: string, handle: string, name: string, text: string) => ({
  id,
  text,
  createdAt: 'Sun Nov 22 02:13:21 +0000 2026',
  author: { id: `9${id.slice(-6)}`, userName: handle, name, followers: 12 },
  entities: { user_mentions: [] },
});

const items: ShareItem[] = [
  {
    kind: 'post',
    id: '1850000000000000001',
    raw: post('1850000000000000001', 'ada_l', 'Ada Lovelace', 'I agree with @bob_99'),
    stratum: null,
  },
  {
    kind: 'post',
    id: '1850000000000000002',
    raw: post('1850000000000000002', 'bob_99', 'Bob Example', 'Not at all.'),
    stratum: null,
  },
  {
    kind: 'post',
    id: '1850000000000000003',
    raw: post('1850000000000000003', 'gone_away', 'Opted Out', 'Leave me out'),
    stratum: null,
  },
];
const realIds = ['1850000000000000001', '1850000000000000002'];
const personal = [
  'ada_l',
  'bob_99',
  'Ada Lovelace',
  'Bob Example',
  'I agree',
  'Not at all',
  'gone_away',
  'Leave me out',
];

const sample: DrawnSample = {
  id: 1,
  codebook: 1,
  name: 'Pilot',
  createdAt: 0,
  definition: {
    source: {},
    sourceLabel: 'posts matching “@ada_l”',
    kind: 'post',
    method: 'random',
    stratum: null,
    size: 3,
    seed: 's',
    population: 3,
    strata: [],
    overlap: 1,
    coders: [1],
  },
  items: 3,
  progress: [],
};
const optOuts = [{ userId: null, handle: 'gone_away', note: '', addedAt: 0 }];
const agreement: AgreementReport = {
  codebook: 1,
  version: 1,
  sample: 1,
  coders: [],
  rows: [
    {
      field: 'stance',
      label: 'Stance',
      category: null,
      levels: ['nominal'],
      units: 20,
      coders: 2,
      values: 40,
      alpha: { nominal: 0.706 },
      interval: { level: 'nominal', low: 0.397, high: 0.926, draws: 1000 },
      cohenKappa: 0.7,
      fleissKappa: 0.7,
      fleissUnits: 20,
      percent: 0.85,
    },
  ],
  bootstrap: { draws: 1000, seed: 1, level: 0.95 },
  computedAt: 0,
};
const app = { name: 'Skein', version: '0.1.0' };
const definition = {
  fields: [
    {
      key: 'stance',
      label: 'Stance',
      type: 'category' as const,
      multiple: false,
      description: '',
      categories: [{ value: 'agree', label: 'Agree', key: '1', description: '', examples: [] }],
    },
  ],
};

const citation = aCitation;

const open = (zip: Uint8Array) =>
  Object.fromEntries(Object.entries(unzipSync(zip)).map(([name, bytes]) => [name, strFromU8(bytes)]));

describe('the two share packages', () => {
  it('for re-hydration: post_ids.txt with the real ids, and no text, handle or name anywhere', () => {
    const pkg = writeRehydrationPackage({
      app,
      now: Date.UTC(2026, 10, 28),
      citation,
      source: { of: 'sample', sample, codebook: { name: 'Stance', version: 1 } },
      ...keptIds(items, optOuts),
    });
    const files = open(pkg.zip);
    expect(Object.keys(files).sort()).toEqual([
      'CITATION.cff',
      'README.txt',
      'datacite.json',
      'manifest.json',
      'post_ids.txt',
    ]);
    expect(pkg.files.sort()).toEqual(Object.keys(files).sort());
    expect(files['post_ids.txt']).toBe(`${realIds.join('\n')}\n`);
    expect(pkg.droppedOptedOut).toBe(1);
    for (const [name, content] of Object.entries(files))
      for (const p of personal) expect(content.includes(p), `${name} holds “${p}”`).toBe(false);
    expect(files['README.txt']).toContain('package for re-hydration');
    expect(files['README.txt']).toContain('allows fetching the items again');
    // how to cite it, with the researchers' names (the only names in it)
    expect(files['CITATION.cff']).toContain('title: "Stance pilot"');
    expect(JSON.parse(files['datacite.json']!)).toMatchObject({ titles: [{ title: 'Stance pilot' }] });
  });

  it('for review: no real id, handle or name; it says it cannot be re-hydrated', () => {
    // values a newer Skein wrote, which this Skein cannot read, may name people too
    const unread = { unread: '{"said":"@ada_l with Ada Lovelace"}' };
    const aCoding = { codebook: 1, kind: 'post' as const, field: 'stance', version: 1, codedAt: 0, blind: true };
    const pkg = writeReviewPackage({
      app,
      now: Date.UTC(2026, 10, 28),
      codebook: { id: 1, name: 'Stance', version: 1, definition },
      sample,
      coders: [{ id: 1, name: 'Ana', kind: 'person', model: null, revealedAt: null, createdAt: 0 }],
      items,
      codings: [
        ...realIds.map((id) => ({ ...aCoding, coder: 1, id, value: 'agree' })),
        { ...aCoding, coder: 2, id: realIds[0]!, value: unread },
      ],
      adjudications: [
        {
          kind: 'post',
          id: realIds[1]!,
          field: 'stance',
          value: unread,
          decidedAt: 0,
          decidedBy: 'me',
          note: '',
          version: 1,
        },
      ],
      agreement,
      optOuts,
      citation,
      includeTexts: true,
      key: 'a-team-key-of-enough-length-0123456789',
    });
    const files = open(pkg.zip);
    expect(files['post_ids.txt']).toBeUndefined();
    expect(files['items.csv']).toMatch(/p_/);
    expect(files['annotations.csv']).toMatch(/said"":""@user_\w+ with/);
    for (const [name, content] of Object.entries(files)) {
      for (const id of [...realIds, '1850000000000000003'])
        expect(content.includes(id), `${name} holds the id ${id}`).toBe(false);
      for (const p of ['ada_l', 'bob_99', 'Ada Lovelace', 'Bob Example'])
        expect(content.includes(p), `${name} holds “${p}”`).toBe(false);
    }
    // the agreement report carries the words the Agreement tab shows
    expect(files['agreement.md']).toContain(readAgreement(agreement.rows[0]!).sentences.join(' '));
    expect(files['agreement.md']).toContain('tentative conclusions only');
    expect(files['README.txt']).toContain('package for review');
    expect(files['README.txt']).toContain('cannot be');
    expect(JSON.parse(files['manifest.json']!)).toMatchObject({
      package: expect.stringContaining('cannot be re-hydrated'),
    });
  });
});

describe('a collection’s packages, with no codebook or sample', () => {
  const collection = { name: 'Profile of @ada_l', kind: 'export', createdAt: Date.UTC(2026, 10, 20) };
  const account = {
    kind: 'user' as const,
    id: '42',
    raw: { id: '42', userName: 'ada_l', name: 'Ada Lovelace', description: 'Maths with @bob_99' },
    stratum: null,
  };

  it('for review: every id, handle and name pseudonymised, the collection’s name withheld, how to cite it', () => {
    const kept = [...items.slice(0, 2), account];
    const read = kept.map(shareRow);
    const pkg = writeCollectionReviewPackage({
      app,
      now: Date.UTC(2026, 10, 28),
      collection,
      rows: read.map((r) => r.row),
      accounts: read.flatMap((r) => r.accounts),
      droppedOptedOut: 1,
      droppedDamaged: 0,
      optOuts,
      citation,
      includeTexts: true,
      key: 'a-team-key-of-enough-length-0123456789',
    });
    const files = open(pkg.zip);
    expect(Object.keys(files).sort()).toEqual([
      'CITATION.cff',
      'README.txt',
      'datacite.json',
      'items.csv',
      'manifest.json',
    ]);
    expect(pkg.items).toBe(3);
    const rows = files['items.csv']!.trim().split('\n');
    expect(rows[0]).toBe('item_id,item_kind,author_id,created_at,text');
    expect(rows).toHaveLength(4);
    // texts are there, pseudonymised: the words stay, the people do not
    expect(files['items.csv']).toContain('I agree with @user_');
    expect(files['items.csv']).toContain('Maths with @user_');
    for (const [name, content] of Object.entries(files)) {
      for (const id of [...realIds, '42']) expect(content.includes(id), `${name} holds the id ${id}`).toBe(false);
      for (const p of ['ada_l', 'bob_99', 'Ada Lovelace', 'Bob Example'])
        expect(content.includes(p), `${name} holds “${p}”`).toBe(false);
    }
    expect(JSON.parse(files['manifest.json']!)).toMatchObject({
      package: expect.stringContaining('cannot be re-hydrated'),
      collection: { name: expect.stringContaining('withheld'), kind: 'export' },
      counts: { items: 3, dropped_opted_out: 1 },
    });
    expect(files['README.txt']).toContain('1 items of accounts that opted out were left out');
    expect(files['CITATION.cff']).toContain('title: "Stance pilot"');
  });

  it('for re-hydration: post and account ids apart, one per line, and the collection it came from', () => {
    const pkg = writeRehydrationPackage({
      app,
      now: Date.UTC(2026, 10, 28),
      citation,
      source: { of: 'collection', collection },
      ...keptIds([...items, account], optOuts),
    });
    const files = open(pkg.zip);
    expect(files['post_ids.txt']).toBe(`${realIds.join('\n')}\n`);
    expect(files['user_ids.txt']).toBe('42\n');
    expect(pkg.items).toBe(3);
    expect(JSON.parse(files['manifest.json']!)).toMatchObject({
      collection: { name: 'Profile of @ada_l', kind: 'export' },
      counts: { posts: 2, accounts: 1, dropped_opted_out: 1 },
    });
    expect(files['README.txt']).toContain('3 items of the collection “Profile of @ada_l”');
    expect(files['README.txt']).not.toContain('Pair it with the package for review');
  });

  it('leaves out items kept damaged while anyone opted out (whose they are cannot be told), and says so', () => {
    const damaged: ShareItem = { kind: 'post', id: '1850000000000000777', raw: null, damaged: true, stratum: null };
    const all = [...items, account, damaged];
    // nobody opted out: a damaged item is shared by its id alone
    expect(keptIds(all, []).postIds).toContain(damaged.id);
    const left = keptIds(all, optOuts);
    expect(left).toMatchObject({ droppedOptedOut: 1, droppedDamaged: 1 });
    expect(left.postIds).not.toContain(damaged.id);
    const pkg = writeRehydrationPackage({
      app,
      now: Date.UTC(2026, 10, 28),
      citation,
      source: { of: 'collection', collection },
      ...left,
    });
    const files = open(pkg.zip);
    expect(files['post_ids.txt']).not.toContain(damaged.id);
    expect(JSON.parse(files['manifest.json']!)).toMatchObject({
      counts: { posts: 2, accounts: 1, dropped_opted_out: 1, dropped_damaged: 1 },
    });
    expect(files['README.txt']).toContain(
      '1 item kept damaged in the project was left out too: while accounts are opted out, whose it is cannot be told.',
    );
    expect(pkg).toMatchObject({ droppedOptedOut: 1, droppedDamaged: 1 });
  });

  it('reads hostile items without failing: markup kept as text, odd shapes, nothing held, deep nesting', () => {
    let deep: Record<string, unknown> = { text: 'bottom' };
    for (let i = 0; i < 2_000; i++) deep = { quoted_tweet: deep };
    const hostile: ShareItem[] = [
      { kind: 'post', id: '1', raw: { text: '<img src=x onerror=alert(1)>', author: [] }, stratum: null },
      {
        kind: 'post',
        id: '2',
        raw: { text: 42, author: { id: {}, userName: 7 }, entities: { user_mentions: 'x' } },
        stratum: null,
      },
      { kind: 'post', id: '3', raw: null, stratum: null },
      { kind: 'post', id: '4', raw: '"a string"', stratum: null },
      { kind: 'user', id: '5', raw: { description: { nested: true } }, stratum: null },
      { kind: 'post', id: '6', raw: deep, stratum: null },
    ];
    const read = hostile.map(shareRow);
    const pkg = writeCollectionReviewPackage({
      app,
      now: Date.UTC(2026, 10, 28),
      collection,
      rows: read.map((r) => r.row),
      accounts: read.flatMap((r) => r.accounts),
      droppedOptedOut: 0,
      droppedDamaged: 0,
      optOuts: [],
      citation,
      includeTexts: true,
      key: 'a-team-key-of-enough-length-0123456789',
    });
    const rows = open(pkg.zip)['items.csv']!.trim().split('\n');
    expect(rows).toHaveLength(hostile.length + 1);
    // markup is a text like any other: kept, quoted as CSV, never interpreted
    expect(rows[1]).toContain('<img src=x onerror=alert(1)>');
    const ids = writeRehydrationPackage({
      app,
      now: Date.UTC(2026, 10, 28),
      citation,
      source: { of: 'collection', collection },
      ...keptIds(hostile, optOuts),
    });
    expect(ids.items).toBe(hostile.length);
  });
});
