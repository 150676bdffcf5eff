/**
 * A sample drawn in the project (ranked and kept in SQL) against the same draw done the way it was before:
 * every item read out and ranked in JavaScript, SHA-256(seed, kind, id). On a SQLite file and a PostgreSQL schema
 * holding the same items, hostile ids and strata among them (NUL, the escape marker, half a surrogate pair,
 * quotes, markup, '(none)'), strata too small for a quota, a seed with a NUL in it.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Stratum } from '../../shared/coding/records';
import { ArchiveQuery } from '../../shared/ipc/archive';
import { TABLES, type ProjectStore } from '../archive/store';
import { ArchiveProject } from '../archive/project';
import { STORES } from '../archive/testing/stores';
import { PARTS } from '../compose/parts';
import { sideReaderHere } from '../db/testing/side';
import { allocate, drawSample, type Drawn } from './sampling';

const DAY = 86_400_000;
const T = Date.UTC(2026, 10, 1);

const HOSTILE = [
  'nul\u0000inside',
  '\u0001marked',
  'half \ud83d pair',
  "'); DROP TABLE items; --",
  '<img src=x onerror=alert(1)>',
  '(none)',
  '@',
  '',
  'héron 中文 😀',
  'Case',
  'case',
];

const EDGES = [null, 0, 999, 1000, -1, -999, -1000, -1001, -DAY, -DAY - 1, DAY - 1, DAY];

/** 600 items: mostly numeric ids, every 7th hostile; authors and languages from the list, some none; 40 days */
const rows = Array.from({ length: 600 }, (_, i) => ({
  rowid: i + 1,
  kind: 'post',
  id: i % 7 === 0 ? `${HOSTILE[i % HOSTILE.length]!}#${i}` : String(1_800_000_000_000_000_000n + BigInt(i * 7919)),
  raw: '{}',
  first_seen: T,
  last_seen: T,
  version_since: T,
  // a few at the edges of a day's number: none, 1970's first second, just before it, a day before it
  created_at: i % 50 === 1 ? EDGES[((i / 50) % EDGES.length) | 0]! : T + (i % 40) * DAY + (i % 3) * 3_600_000,
  // one author holds half the items; a few hold one each (a quota of nothing in a small sample)
  author_handle: i % 2 === 0 ? 'big' : i % 5 === 1 ? null : `${HOSTILE[i % HOSTILE.length]!}${i % 31 === 0 ? i : ''}`,
  lang: i % 9 === 0 ? null : (['en', 'ja', HOSTILE[i % HOSTILE.length]!] as const)[i % 3]!,
  flags: 0,
  engagement: 0,
}));

const ITEMS = TABLES.find((t) => t.name === 'items')!;

/** A project on `store` holding `rows`, loaded as a copy is. */
async function loaded(open: () => Promise<ProjectStore>): Promise<ProjectStore> {
  const p = await open();
  const loader = await p.loader();
  await loader.add(ITEMS, rows);
  await loader.commit();
  return p;
}

const q = ArchiveQuery.parse({});

/** The draw as the project makes it: counted and ranked in SQL. */
const inStore = (p: ProjectStore, by: Stratum | null, seed: string, size: number): Promise<Drawn> =>
  drawSample(
    {
      counts: async () => {
        const c = await p.groupCounts(q, by, Number.MAX_SAFE_INTEGER);
        return new Map(by === null ? [['', c.total]] : c.groups.map((g) => [g.value, g.count]));
      },
      lowest: async (prefix, quotas) => p.lowestRanked(q, by, prefix, quotas),
    },
    { kind: 'post', size, seed, stratified: by !== null },
  );

/** The draw as it was made before: every item read out of the project and ranked here. */
async function readAndRanked(p: ProjectStore, by: Stratum | null, seed: string, size: number) {
  const reader = await p.grouped(q, by);
  const items: Array<{ id: string; group: string | null }> = [];
  for (let chunk = await reader.next(100); chunk.length > 0; chunk = await reader.next(100)) items.push(...chunk);
  await reader.close();
  const key = (g: string | null) => (by === null ? '' : (g ?? ''));
  const counts = new Map<string, number>();
  for (const item of items) counts.set(key(item.group), (counts.get(key(item.group)) ?? 0) + 1);
  const quotas = allocate(counts, size);
  const rank = (id: string) => createHash('sha256').update(`${seed}\u0000post\u0000${id}`).digest('hex').slice(0, 16);
  const ranked = items.map((item) => ({ item, rank: rank(item.id) })).sort((a, b) => (a.rank < b.rank ? -1 : 1));
  const taken = new Map<string, number>();
  const drawn = ranked.filter(({ item }) => {
    const k = key(item.group);
    const n = taken.get(k) ?? 0;
    if (n >= (quotas.get(k) ?? 0)) return false;
    taken.set(k, n + 1);
    return true;
  });
  return drawn.map(({ item }) => ({ id: item.id, stratum: by === null ? null : item.group }));
}

/** ids as SQLite's driver keeps them (half a surrogate pair as U+FFFD): the same item on either store */
const wellFormed = (d: Drawn) => ({
  ...d,
  items: d.items.map((i) => ({
    ...i,
    id: Buffer.from(i.id).toString(),
    stratum: i.stratum === null ? null : Buffer.from(i.stratum).toString(),
  })),
  strata: d.strata.map((s) => ({ ...s, value: Buffer.from(s.value).toString() })),
});

const CASES: Array<{ by: Stratum | null; seed: string; size: number }> = [
  { by: null, seed: 'heron', size: 25 },
  { by: null, seed: 'egret', size: 600 },
  { by: 'day', seed: 'heron', size: 97 },
  { by: 'author', seed: 'heron', size: 30 },
  { by: 'author', seed: 'n\u0000ul seed \ud83d', size: 7 },
  { by: 'lang', seed: 'egret', size: 50 },
  // quotas small next to their strata: every stratum has a bound, and most items are ranked above them all
  { by: 'lang', seed: 'heron', size: 12 },
  { by: 'author', seed: 'egret', size: 5 },
  { by: 'lang', seed: 'egret', size: 10_000 },
];

const running = STORES.filter((s) => !s.skip);

describe('a sample drawn in the project, on ' + running.map((s) => s.name).join(' and '), () => {
  const projects = new Map<string, ProjectStore>();
  // a project file whose draws rank the items up to the middle rowid on a second reader, the rest on its own
  const side = sideReaderHere();
  beforeAll(async () => {
    for (const s of running) {
      await s.setup();
      projects.set(s.name, await loaded(() => s.open()));
    }
    const file = running.find((s) => s.name === 'sqlite')!.fresh();
    if (file.store === 'postgres') throw new Error('a file');
    projects.set(
      'sqlite, ranked on two readers',
      await loaded(() =>
        ArchiveProject.open(file.path, { name: 'Test', kind: 'live', now: 1, researcher: null }, () => 1, PARTS, side),
      ),
    );
  }, 120_000);
  afterAll(async () => {
    for (const p of projects.values()) await p.close();
    await side.close();
    for (const s of running) s.teardown();
  });

  it.each(CASES)('is the sample ranking every item in JavaScript drew ($by, $size)', async ({ by, seed, size }) => {
    for (const [name, p] of projects) {
      const drawn = await inStore(p, by, seed, size);
      const before = await readAndRanked(p, by, seed, size);
      expect(
        drawn.items.map((i) => ({ id: i.id, stratum: i.stratum })),
        name,
      ).toEqual(before);
      expect(drawn.items.length, name).toBe(Math.min(size, rows.length));
      expect(drawn.population, name).toBe(rows.length);
    }
    expect(side.asked()).toBeGreaterThan(0);
  });

  it('starts a project file’s side reader when a draw’s population is counted, before the draw asks it anything', async () => {
    const file = running.find((s) => s.name === 'sqlite')!.fresh();
    if (file.store === 'postgres') throw new Error('a file');
    const own = sideReaderHere();
    const p = await ArchiveProject.open(
      file.path,
      { name: 'Test', kind: 'live', now: 1, researcher: null },
      () => 1,
      PARTS,
      own,
    );
    try {
      expect(own.started()).toBe(0);
      await p.groupCounts(q, 'day', 200);
      expect(own.started()).toBe(1);
      expect(own.asked()).toBe(0);
    } finally {
      p.close();
      await own.close();
    }
  });

  it('counts each day as the items read out with their dates do', async () => {
    for (const [name, p] of projects) {
      const reader = await p.grouped(q, 'day');
      const expected = new Map<string, number>();
      for (let chunk = await reader.next(100); chunk.length > 0; chunk = await reader.next(100))
        for (const item of chunk) expected.set(item.group!, (expected.get(item.group!) ?? 0) + 1);
      await reader.close();
      const counted = await p.groupCounts(q, 'day', Number.MAX_SAFE_INTEGER);
      expect(new Map(counted.groups.map((g) => [g.value, g.count])), name).toEqual(expected);
      expect(counted.groupCount, name).toBe(expected.size);
      expect(counted.total, name).toBe(rows.length);
      expect((await p.groupCounts(q, 'author', 3)).total, name).toBe(rows.length);
      expect(expected.get('1970-01-01'), name).toBe(6);
      expect(expected.get('1969-12-31'), name).toBe(4);
    }
  });

  it.each(CASES)('draws the same items on either store ($by, $size)', async ({ by, seed, size }) => {
    const drawn = await Promise.all(
      [...projects.values()].map(async (p) => wellFormed(await inStore(p, by, seed, size))),
    );
    for (const d of drawn.slice(1)) expect(d).toEqual(drawn[0]);
    // the hostile ids and strata are in the draws, and the small strata drew nothing
    if (size >= 600) expect(drawn[0]!.items.some((i) => i.id.includes('\u0000'))).toBe(true);
    if (by === 'author') expect(drawn[0]!.strata.some((s) => s.drawn === 0)).toBe(true);
  });
});
