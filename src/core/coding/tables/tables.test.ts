/**
 * Coding's tables, every test on a SQLite file and on a PostgreSQL schema (testing/stores.ts: a throwaway
 * cluster, skipped with the reason without one), so the one table module keeps and reads codes alike on both;
 * and coding's store port as the composition fits it over the archive's thread (its tables and the items it reads).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postFixture, userFixture } from '../../../shared/api/fixtures';
import { CodebookDefinition } from '../../../shared/coding/codebook';
import type { SampleDefinition, Stratum } from '../../../shared/coding/records';
import { ArchiveQuery } from '../../../shared/ipc/archive';
import type { IngestRecord } from '../../archive/answer';
import type { ProjectStore as Project } from '../../archive/store';
import { startArchiveThread } from '../../archive/thread';
import { STORES, type StoreUnderTest } from '../../archive/testing/stores';
import { codingStore } from '../../compose/coding-store';
import { PARTS } from '../../compose/parts';
import { CODING_PART } from './part';
import type { CodingTables } from './tables';

const T = Date.UTC(2026, 10, 1);

const definition = CodebookDefinition.parse({
  fields: [
    {
      key: 'stance',
      label: 'Stance',
      type: 'category',
      categories: [
        { value: 'a', label: 'A' },
        { value: 'b', label: 'B' },
      ],
    },
    { key: 'note', label: 'Note', type: 'text' },
  ],
});

/** 30 posts by three authors over two days (one a reply), and one account: what the strata are counted from. */
function codingRecord(): IngestRecord {
  const posts = Array.from({ length: 30 }, (_, i) => ({
    ...postFixture,
    id: String(1000 + i),
    text: `post ${i}`,
    quoted_tweet: null,
    isReply: i === 29,
    inReplyToId: i === 29 ? '1000' : null,
    lang: i % 5 === 0 ? 'ja' : 'en',
    author: { ...postFixture.author, id: String(i % 3), userName: `User${i % 3}`, name: `User ${i % 3}` },
    createdAt: i % 2 === 0 ? 'Sun Nov 01 12:00:00 +0000 2026' : 'Mon Nov 09 23:59:59 +0000 2026',
  }));
  return {
    operation: 'postsByIds',
    params: '{"tweet_ids":"x"}',
    cursor: null,
    at: T + 2 * 86_400_000,
    baseUrl: 'https://api.example',
    httpStatus: 200,
    text: JSON.stringify({ tweets: posts, status: 'success', message: '' }),
  };
}

const sampleDefinition = (size: number): SampleDefinition => ({
  source: { text: 'heron' },
  sourceLabel: 'posts matching “heron”',
  kind: 'post',
  method: 'random',
  stratum: null,
  size,
  seed: 's',
  population: size,
  strata: [],
  overlap: 0,
  coders: [],
});

const clock = () => {
  let now = T;
  return () => (now += 1000);
};

/** A project's coding part, opened. */
const coding = (p: Project) => p.parts.get(CODING_PART.name) as CodingTables;

/** The archive on this thread with a project open on `s`, and coding's store over it. */
async function hosted(s: StoreUnderTest) {
  const thread = await startArchiveThread({ parts: PARTS });
  await thread.call('open', 'current', s.fresh());
  return { thread, store: codingStore(thread, 'current') };
}

describe.each(STORES)("coding's tables on $name", (s) => {
  beforeAll(() => s.setup(), 120_000);
  afterAll(() => s.teardown());
  const run = s.skip ? describe.skip : describe;
  run(`(${s.skip ?? 'running'})`, () => codingTests(s));
});

function codingTests(s: StoreUnderTest): void {
  const open = (): Promise<Project> => s.open(s.fresh(), clock());

  it('keeps codebooks and their versions: one replaced in place, the next one added', async () => {
    const p = await open();
    const id = await coding(p).createCodebook('Stance', definition, 'first');
    expect(await coding(p).codebooks()).toEqual([{ id, name: 'Stance', createdAt: T + 2000, version: 1, codings: 0 }]);
    await coding(p).putVersion(id, 'Stance (fixed)', 1, definition, 'typo');
    await coding(p).putVersion(id, 'Stance v2', 2, definition, 'a new field');
    const book = await coding(p).codebook(id);
    expect(book?.name).toBe('Stance v2');
    expect(book?.versions.map((v) => [v.version, v.note])).toEqual([
      [1, 'typo'],
      [2, 'a new field'],
    ]);
    expect(book?.versions[0]?.definition).toEqual(definition);
    expect(await coding(p).codebook(id + 100)).toBeNull();
    await p.close();
  });

  it('keeps one value per item × field × coder, with its time and version; a name is one coder whatever its case', async () => {
    const p = await open();
    const id = await coding(p).createCodebook('Stance', definition, '');
    const ana = await coding(p).addCoder('Ana', 'person', null);
    const model = await coding(p).addCoder('Model', 'model', {
      model: 'llama3',
      temperature: 0,
      maxTokens: 64,
      prompts: { stance: 'Which side?' },
    });
    expect(ana).toMatchObject({ name: 'Ana', kind: 'person', model: null, revealedAt: null });
    expect(model.model).toMatchObject({ model: 'llama3' });
    await coding(p).setCoding({
      codebook: id,
      kind: 'post',
      id: '1',
      field: 'stance',
      coder: ana.id,
      value: 'a',
      version: 1,
      codedAt: 5,
    });
    await coding(p).setCoding({
      codebook: id,
      kind: 'post',
      id: '1',
      field: 'stance',
      coder: ana.id,
      value: 'b',
      version: 2,
      codedAt: 6,
    });
    expect(await coding(p).codings(id, null)).toEqual([
      { kind: 'post', id: '1', field: 'stance', coder: ana.id, value: 'b', codedAt: 6, version: 2, detail: null },
    ]);
    expect(await coding(p).usedVersion(id, 2)).toBe(true);
    expect(await coding(p).usedVersion(id, 1)).toBe(false);
    await expect(Promise.resolve().then(() => coding(p).addCoder('ana', 'person', null))).rejects.toThrow();
    expect((await coding(p).coderByName('ANA'))?.id).toBe(ana.id);
    expect(await coding(p).updateCoder(ana.id, { name: 'Ana B.' })).toMatchObject({ id: ana.id, name: 'Ana B.' });
    const revealed = await coding(p).reveal(ana.id);
    expect(revealed?.revealedAt).toBeGreaterThan(T);
    // revealing again keeps the first time
    expect((await coding(p).reveal(ana.id))?.revealedAt).toBe(revealed?.revealedAt);
    expect((await coding(p).coders()).map((c) => c.name)).toEqual(['Ana B.', 'Model']);
    await p.close();
  });

  it('records each switch of the person coding at a computer, the latest first', async () => {
    const p = await open();
    const ana = await coding(p).addCoder('Ana', 'person', null);
    const ben = await coding(p).addCoder('Ben', 'person', null);
    await coding(p).recordSwitch(null, ana.id, 'ana@lab');
    await coding(p).recordSwitch(ana.id, ben.id, 'ana@lab');
    expect(await coding(p).switches(10)).toEqual([
      { from: ana.id, to: ben.id, researcher: 'ana@lab', at: expect.any(Number) },
      { from: null, to: ana.id, researcher: 'ana@lab', at: expect.any(Number) },
    ]);
    expect(await coding(p).switches(1)).toHaveLength(1);
    await p.close();
  });

  it('writes many values at once (the last of a repeated one wins), reads them by coder and sample, clears one', async () => {
    const p = await open();
    const id = await coding(p).createCodebook('Stance', definition, '');
    const ana = await coding(p).addCoder('Ana', 'person', null);
    const ben = await coding(p).addCoder('Ben', 'person', null);
    const value = (coder: number, item: string, v: string, at: number, detail?: unknown) => ({
      codebook: id,
      kind: 'post' as const,
      id: item,
      field: 'stance',
      coder,
      value: v,
      version: 1,
      codedAt: at,
      ...(detail === undefined ? {} : { detail }),
    });
    const list = [
      ...Array.from({ length: 1200 }, (_, i) => value(ana.id, String(i), i % 2 ? 'a' : 'b', i)),
      value(ana.id, '7', 'b', 9999, { prompt: 'hostile \u0000 and \ud800, <b>markup</b>' }),
      value(ben.id, '7', 'a', 10),
    ];
    expect(await coding(p).setCodings(list)).toBe(list.length);
    const seven = await coding(p).valuesOf(id, ana.id, 'post', ['7', '8', "7' OR 1=1"]);
    expect(seven.map((c) => [c.id, c.value, c.codedAt])).toEqual(
      expect.arrayContaining([
        ['7', 'b', 9999],
        ['8', 'b', 8],
      ]),
    );
    expect(seven).toHaveLength(2);
    expect(seven.find((c) => c.id === '7')?.detail).toEqual({ prompt: 'hostile \u0000 and \ud800, <b>markup</b>' });
    expect(await coding(p).codings(id, null)).toHaveLength(1201);
    const sample = await coding(p).addSample(
      id,
      'S',
      sampleDefinition(2),
      [
        { position: 0, kind: 'post', id: '7', stratum: null },
        { position: 1, kind: 'post', id: '8', stratum: null },
      ],
      [],
    );
    const inSample = await coding(p).codings(id, sample);
    expect(inSample.map((c) => `${c.id}:${c.coder}`)).toEqual([`7:${ana.id}`, `7:${ben.id}`, `8:${ana.id}`]);
    await coding(p).clearCoding(id, 'post', '7', 'stance', ben.id);
    expect((await coding(p).codings(id, sample)).map((c) => c.coder)).toEqual([ana.id, ana.id]);
    await p.close();
  });

  it('keeps adjudicated values apart from the coders', async () => {
    const p = await open();
    const id = await coding(p).createCodebook('Stance', definition, '');
    const decided = { codebook: id, kind: 'post' as const, field: 'stance', version: 1, decidedBy: 'Ana', note: '' };
    await coding(p).adjudicate({ ...decided, id: '1', value: 'a', decidedAt: 1 });
    await coding(p).setAdjudications([
      { ...decided, id: '2', value: 'b', decidedAt: 2 },
      { ...decided, id: '1', value: 'b', decidedAt: 3, note: 'on second thought' },
    ]);
    expect((await coding(p).adjudications(id, null)).map((a) => [a.id, a.value, a.note])).toEqual([
      ['1', 'b', 'on second thought'],
      ['2', 'b', ''],
    ]);
    expect(await coding(p).codings(id, null)).toEqual([]);
    expect(await coding(p).usedVersion(id, 1)).toBe(true);
    await coding(p).clearAdjudication(id, 'post', '1', 'stance');
    expect((await coding(p).adjudications(id, null)).map((a) => a.id)).toEqual(['2']);
    await p.close();
  });

  it('keeps samples with their items and assignment, and each coder’s progress through the fields compared', async () => {
    const p = await open();
    const id = await coding(p).createCodebook('Stance', definition, '');
    const ana = await coding(p).addCoder('Ana', 'person', null);
    const ben = await coding(p).addCoder('Ben', 'person', null);
    const items = Array.from({ length: 6000 }, (_, i) => ({
      position: i,
      kind: 'post' as const,
      id: String(5000 + i),
      stratum: i % 2 ? 'en' : null,
    }));
    const assignments = items.flatMap((it) => [
      { coder: ana.id, position: it.position, kind: it.kind, id: it.id, overlap: it.position < 10 },
      ...(it.position < 10 ? [{ coder: ben.id, position: it.position, kind: it.kind, id: it.id, overlap: true }] : []),
    ]);
    const sample = await coding(p).addSample(id, 'Six thousand', sampleDefinition(6000), items, assignments);
    for (const item of ['5000', '5001'])
      for (const field of ['stance', 'note'])
        await coding(p).setCoding({
          codebook: id,
          kind: 'post',
          id: item,
          field,
          coder: ana.id,
          value: 'a',
          version: 1,
          codedAt: 1,
        });
    await coding(p).setCoding({
      codebook: id,
      kind: 'post',
      id: '5002',
      field: 'stance',
      coder: ana.id,
      value: 'a',
      version: 1,
      codedAt: 1,
    });
    const [summary] = await coding(p).samples(id, ['stance', 'note']);
    expect(summary).toMatchObject({ id: sample, name: 'Six thousand', items: 6000, definition: { seed: 's' } });
    expect(summary?.progress).toEqual([
      { coder: ana.id, assigned: 6000, done: 2 },
      { coder: ben.id, assigned: 10, done: 0 },
    ]);
    expect(await coding(p).sample(sample)).toMatchObject({ codebook: id, name: 'Six thousand' });
    expect(await coding(p).sample(sample + 1)).toBeNull();
    // a draw asks for its new sample's summary alone, the same as in the list of all
    const other = await coding(p).addSample(id, 'Other', sampleDefinition(1), [items[0]!], []);
    expect((await coding(p).samples(id, ['stance', 'note'])).map((s) => s.id)).toEqual([other, sample]);
    expect(await coding(p).samples(id, ['stance', 'note'], sample)).toEqual([summary]);
    const held = await coding(p).sampleItems(sample);
    expect(held).toHaveLength(6000);
    expect(held[1]).toEqual({ position: 1, kind: 'post', id: '5001', stratum: 'en' });
    const page = await coding(p).assignments(sample, ben.id, 5, 3);
    expect(page.total).toBe(10);
    expect(page.entries.map((e) => [e.position, e.overlap])).toEqual([
      [5, true],
      [6, true],
      [7, true],
    ]);
    await p.close();
  });

  it('counts and reads a source by stratum (day, week, month, author, language, type), in chunks through the host', async () => {
    const { thread, store } = await hosted(s);
    thread.ingest('current', codingRecord());
    const q = ArchiveQuery.parse({});
    const count = async (stratum: Stratum) => (await store.groupCounts(q, stratum, 10)).groups;
    expect((await store.groupCounts(q, null, 10)).total).toBe(30);
    expect(await count('author')).toEqual([
      { value: '@User0', count: 10 },
      { value: '@User1', count: 10 },
      { value: '@User2', count: 10 },
    ]);
    expect(await count('day')).toEqual([
      { value: '2026-11-01', count: 15 },
      { value: '2026-11-09', count: 15 },
    ]);
    // Sunday 1 November falls in the week of Monday 26 October
    expect(await count('week')).toEqual([
      { value: 'week of 2026-10-26', count: 15 },
      { value: 'week of 2026-11-09', count: 15 },
    ]);
    expect(await count('month')).toEqual([{ value: '2026-11', count: 30 }]);
    expect(await count('lang')).toEqual([
      { value: 'en', count: 24 },
      { value: 'ja', count: 6 },
    ]);
    expect(await count('type')).toEqual([
      { value: 'original', count: 29 },
      { value: 'reply', count: 1 },
    ]);
    const byAuthor = await store.groupCounts(ArchiveQuery.parse({ author: 'user1' }), 'author', 1);
    expect(byAuthor).toEqual({ total: 10, groups: [{ value: '@User1', count: 10 }], groupCount: 1 });
    const reader = await thread.call('groupedOpen', 'current', q, 'day');
    const first = await thread.call('groupedNext', reader, 25);
    const rest = await thread.call('groupedNext', reader, 25);
    expect(first).toHaveLength(25);
    expect(rest).toHaveLength(5);
    expect(new Set([...first, ...rest].map((r) => r.id)).size).toBe(30);
    expect(new Set([...first, ...rest].map((r) => r.group))).toEqual(new Set(['2026-11-01', '2026-11-09']));
    expect(await thread.call('groupedNext', reader, 25)).toEqual([]);
    // a source closed before its end lets go of what it read from
    const early = await thread.call('groupedOpen', 'current', ArchiveQuery.parse({ text: 'post' }), null);
    expect((await thread.call('groupedNext', early, 2)).map((r) => r.group)).toEqual([null, null]);
    await thread.call('groupedClose', early);
    // the store reads the same source in chunks, and lets go of it when its reader stops early
    const chunks: number[] = [];
    for await (const chunk of store.grouped(q, 'day', 25)) chunks.push(chunk.length);
    expect(chunks).toEqual([25, 5]);
    for await (const chunk of store.grouped(q, null, 2)) {
      expect(chunk.map((r) => r.group)).toEqual([null, null]);
      break;
    }
    expect(
      (
        await store.itemCards([
          { kind: 'post', id: '1003' },
          { kind: 'post', id: '9' },
          { kind: 'user', id: '1003' },
        ])
      ).map((i) => i.item === null),
    ).toEqual([false, true, true]);
    await thread.close();
  });

  it('finds opted-out accounts by id or by handle (without case), lists each once, and removes them', async () => {
    const { thread, store } = await hosted(s);
    thread.ingest('current', codingRecord());
    thread.ingest('current', {
      ...codingRecord(),
      operation: 'usersByIds',
      params: '{"userIds":"77"}',
      text: JSON.stringify({
        users: [{ ...userFixture, id: '77', userName: 'Known' }],
        status: 'success',
        message: '',
      }),
    });
    // an account the project holds as a user; one known only from its posts' author; one it does not know
    expect(await store.accountOf({ handle: 'known' })).toEqual({ userId: '77', handle: 'Known' });
    expect(await store.accountOf({ userId: '77' })).toEqual({ userId: '77', handle: 'Known' });
    expect(await store.accountOf({ handle: 'user1' })).toEqual({ userId: '1', handle: 'user1' });
    expect(await store.accountOf({ handle: 'nobody' })).toEqual({ userId: null, handle: 'nobody' });
    expect(await store.accountOf({ userId: '404' })).toEqual({ userId: '404', handle: null });
    await store.addOptOut('1', 'user1', 'asked by email \u0000');
    await store.addOptOut(null, 'USER1', 'again');
    await store.addOptOut('77', null, '');
    expect((await store.optOuts()).map((o) => [o.userId, o.handle, o.note])).toEqual([
      ['1', 'user1', 'asked by email \u0000'],
      ['77', null, ''],
    ]);
    expect((await store.removeOptOut({ handle: 'User1' })).map((o) => o.userId)).toEqual(['77']);
    await store.setMeta('citation', '{"title":"Ñ \ud83d\ude00"}');
    expect(await store.meta('citation')).toBe('{"title":"Ñ \ud83d\ude00"}');
    expect(await store.meta('nothing')).toBeNull();
    await thread.close();
  });
}
