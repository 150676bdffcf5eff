/**
 * The archive's suite, run against each store (testing/stores.ts): a SQLite file and a schema of a real
 * PostgreSQL started by the tests. Everything the archive does with a project is asserted here once.
 */
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { postFixture, userFixture } from '../../shared/api/fixtures';
import { CodebookDefinition } from '../../shared/coding/codebook';
import { ArchiveQuery, type ArchiveActivity } from '../../shared/ipc/archive';
import { CODING_PART, type CodingTables } from '../coding';
import { PARTS } from '../compose/parts';
import { inProcess } from '../workers';
import type { IngestRecord } from './answer';
import { ArchiveHost } from './host';
import { partProxy } from './part-proxy';
import { tablesOf } from './parts';
import { post, rec, repliesAnswer, repliesPage } from './testing/answers';
import { STORES, makeStores } from './testing/stores';
import type { ProjectStore, RawRow, Reader } from './store';

const q = (over: object = {}) => ArchiveQuery.parse(over);

async function all(store: ProjectStore, query = q()): Promise<RawRow[]> {
  return readAll(await store.reader(query));
}

async function readAll<T>(reader: Reader<T>): Promise<T[]> {
  const out: T[] = [];
  for (;;) {
    const rows = await reader.next(7);
    out.push(...rows);
    if (rows.length < 7) break;
  }
  await reader.close();
  return out;
}

const DAY_MS = 86_400_000;

/** a chart's buckets that hold anything, by start */
const nonZero = (a: ArchiveActivity): Record<number, number> =>
  Object.fromEntries(a.buckets.filter((b) => b.count > 0).map((b) => [b.start, b.count]));

/** charts of disjoint sets of items added up */
function added(charts: readonly ArchiveActivity[]) {
  const buckets: Record<number, number> = {};
  for (const c of charts)
    for (const [start, n] of Object.entries(nonZero(c))) buckets[Number(start)] = (buckets[Number(start)] ?? 0) + n;
  return {
    buckets,
    total: charts.reduce((n, c) => n + c.total, 0),
    undated: charts.reduce((n, c) => n + c.undated, 0),
  };
}

describe.each(STORES)('a project on $name', (s) => {
  beforeAll(() => s.setup(), 120_000);
  afterAll(() => s.teardown());
  const run = s.skip ? describe.skip : describe;

  run(`(${s.skip ?? 'running'})`, () => {
    it('says which of many ids it holds, by kind, in chunks, with the raw item as last received and when', async () => {
      const p = await s.open();
      await p.ingest([rec(repliesAnswer([post('11', 'first'), post('12', 'second')]), { at: 1000 })]);
      await p.ingest([rec(repliesAnswer([post('12', 'second, edited')]), { operation: 'postQuotes', at: 2000 })]);
      // more ids than one IN (…) query takes, a hostile one among them
      const asked = ["12' OR 1=1 --", ...Array.from({ length: 1200 }, (_, i) => String(100 + i)), '11', '12'];
      const held = await p.heldItems('post', asked, true);
      expect(held.map((h) => h.id).sort()).toEqual(['11', '12']);
      const twelve = held.find((h) => h.id === '12');
      expect(twelve?.at).toBe(2000);
      expect((JSON.parse(twelve?.raw ?? '{}') as { text: string }).text).toBe('second, edited');
      expect(await p.heldItems('post', ['11'], false)).toEqual([{ id: '11', raw: '', at: 1000 }]);
      expect(await p.heldItems('user', ['11', '12'], false)).toEqual([]);
      await p.close();
    });

    it('keeps each item once by (kind, id), with every request that returned it and its earlier versions', async () => {
      const p = await s.open(s.fresh({ researcher: 'Ada' }));
      await p.ingest([rec(repliesAnswer([post('11', 'first words'), post('12', 'second words')], 'c1'))]);
      // the same post from another view, later, with a counter changed
      await p.ingest([
        rec(repliesAnswer([post('11', 'first words', { likeCount: 99 })]), {
          operation: 'postQuotes',
          params: '{"tweetId":"5"}',
          at: 2000,
        }),
      ]);
      await p.ingest([rec(repliesAnswer([post('13', 'third')]), { cursor: 'c1', at: 1500 })]);
      expect(await p.summary()).toMatchObject({ items: 3, requests: 3 });
      const prov = await p.provenance('post', '11');
      expect(prov?.requests.map((r) => r.operation)).toEqual(['postReplies', 'postQuotes']);
      expect(prov?.requests.map((r) => r.researcher)).toEqual(['Ada', 'Ada']);
      expect(prov?.versions).toEqual([{ seenFrom: 1000, seenTo: 1000 }]);
      expect(prov).toMatchObject({ firstSeen: 1000, lastSeen: 2000 });
      expect((await p.provenance('post', '13'))?.requests[0]).toMatchObject({ cursor: 'c1', pageIndex: 1 });
      expect((await p.summary()).researchers).toEqual([{ name: 'Ada', answers: 3, lastAt: 2000 }]);
      await p.close();
    });

    it('works out each item in a batch as one at a time: repeats, changes, and an answer older than what is held', async () => {
      const p = await s.open();
      // one batch: 21 seen three times (same, changed, then an older answer with other words)
      await p.ingest([
        rec(repliesAnswer([post('21', 'v1'), post('22', 'x')], 'n1'), { at: 1000 }),
        rec(repliesAnswer([post('21', 'v1')], 'n2'), { cursor: 'n1', at: 1100 }),
        rec(repliesAnswer([post('21', 'v2')], 'n3'), { cursor: 'n2', at: 1200 }),
        rec(repliesAnswer([post('21', 'v0')]), { operation: 'postQuotes', at: 900 }),
      ]);
      const prov = await p.provenance('post', '21');
      expect(prov).toMatchObject({ firstSeen: 1000, lastSeen: 1200 });
      expect(prov?.versions).toEqual([
        { seenFrom: 900, seenTo: 900 },
        { seenFrom: 1000, seenTo: 1100 },
      ]);
      expect(prov?.requests.map((r) => r.pageIndex)).toEqual([0, 0, 1, 2]);
      const [row] = await all(p, q({ text: 'v2' }));
      expect(JSON.parse(row?.raw ?? '{}')).toMatchObject({ id: '21', text: 'v2' });
      expect(row).toMatchObject({ firstSeen: 1000, lastSeen: 1200 });
      // the row's raw JSON is that of the request that last returned it, which a re-export's manifest lists
      const sources = await readAll(await p.requests(q({ text: 'v2' })));
      expect(sources).toEqual([
        expect.objectContaining({ id: row?.request, operation: 'postReplies', cursor: 'n2', pageIndex: 2, at: 1200 }),
      ]);
      expect(sources[0]?.params).toBe('{"tweetId":"1"}');
      expect((await p.search(q({ text: 'v1' }), 0, 10)).hits).toEqual([]);
      expect(await p.summary()).toMatchObject({ items: 2, requests: 4 });
      await p.close();
    });

    it('reads a conversation’s reply listings it holds, per order, the newest answer of each page', async () => {
      const p = await s.open();
      const replies = (posts: unknown[], next: string) =>
        JSON.stringify({
          tweets: posts,
          has_next_page: next !== '',
          next_cursor: next,
          status: 'success',
          message: '',
        });
      const v2 = (params: string, over: Partial<IngestRecord>) =>
        rec('', { operation: 'postRepliesV2', params, ...over });
      const byPairs = '[["queryType","Latest"],["tweetId","5"]]';
      await p.ingest([
        v2(byPairs, { text: replies([post('51', 'a', { inReplyToId: '5', replyCount: 2 })], 'c1'), at: 1000 }),
        // page 1 answered twice: the newer answer is the one read
        v2(byPairs, { cursor: 'c1', text: replies([post('52', 'old', { inReplyToId: '51' })], 'c2'), at: 1100 }),
        v2(byPairs, { cursor: 'c1', text: replies([post('53', 'new', { inReplyToId: '51' })], ''), at: 1200 }),
        // another order, its params an object (older rows), its first page only
        v2('{"tweetId":"5"}', { text: replies([post('54', 'b')], 'd1'), at: 1000 }),
        // another post's listing
        v2('{"tweetId":"6"}', { text: replies([post('61', 'x')], ''), at: 1000 }),
      ]);
      const listings = await p.conversation('5');
      expect(listings).toEqual([
        {
          order: 'Latest',
          items: [
            { id: '51', parent: '5', replies: 2 },
            { id: '53', parent: '51', replies: postFixture.replyCount },
          ],
          pages: 2,
          complete: true,
        },
        {
          order: 'Relevance',
          items: [{ id: '54', parent: null, replies: postFixture.replyCount }],
          pages: 1,
          complete: false,
        },
      ]);
      expect(await p.conversation('404')).toEqual([]);
      await p.close();
    });

    it('never records the key: only operation, params, cursor, time, base URL and who asked', async () => {
      const init = s.fresh();
      const p = await s.open(init);
      await p.ingest([rec(repliesAnswer([post('11', 'x')]))]);
      await p.close();
      const cols = await s.columns(init, 'requests');
      expect(cols).toContain('researcher');
      expect(cols).not.toContain('key');
      expect(cols.join()).not.toMatch(/key|header/i);
    });

    it('rebuilds an answer exactly from one copy of each item', async () => {
      const p = await s.open();
      const text = repliesAnswer([post('11', 'a'), post('12', 'b')], 'next');
      await p.ingest([rec(text)]);
      const key = { operation: 'postReplies', params: '{"tweetId":"1"}', cursor: null, baseUrl: null, freshSince: 0 };
      expect((await p.held(key))?.text).toBe(text);
      expect(await p.held({ ...key, freshSince: 5000 })).toBeNull();
      expect(await p.held({ ...key, baseUrl: 'https://elsewhere.example' })).toBeNull();
      expect((await p.held({ ...key, baseUrl: 'https://api.example' }))?.text).toBe(text);
      // an answer a paging guard stopped on is kept but never served again
      await p.forget({ operation: 'postReplies', params: '{"tweetId":"1"}', cursor: null });
      expect(await p.held(key)).toBeNull();
      expect((await p.summary()).requests).toBe(1);
      await p.close();
    });

    it('keeps each item as received (escapes and number spellings), on one line for JSONL', async () => {
      const p = await s.open();
      const item = JSON.stringify(post('11', 'x')).replace('"text":"x"', '"text":"caf\\u00e9 \\/ \\"q\\" ]}"');
      const spelled = item.replace('"likeCount":3', '"likeCount":3.0');
      const text = `{"replies":[${spelled}, ${JSON.stringify(post('12', 'y'))}],"next_cursor":"n","status":"success"}`;
      const pretty = JSON.stringify({ replies: [post('13', 'z')], status: 'success' }, null, 2);
      await p.ingest([rec(text), rec(pretty, { params: '{"tweetId":"2"}' })]);
      const raws = (await all(p)).map((r) => r.raw);
      expect(raws[0]).toBe(spelled);
      expect(raws[1]).toBe(JSON.stringify(post('12', 'y')));
      expect(raws[2]).toBe(JSON.stringify(post('13', 'z')));
      expect((await p.search(q({ text: 'café' }), 0, 10)).hits.map((h) => h.id)).toEqual(['11']);
      expect((await p.search(q({ text: 'cafe' }), 0, 10)).hits.map((h) => h.id)).toEqual(['11']);
      const held = async (params: string) =>
        (await p.held({ operation: 'postReplies', params, cursor: null, baseUrl: null, freshSince: 0 }))?.text;
      expect(await held('{"tweetId":"1"}')).toBe(text);
      expect(JSON.parse((await held('{"tweetId":"2"}')) ?? 'null')).toEqual(JSON.parse(pretty));
      await p.close();
    });

    it('keeps a hostile answer holding the marker word whole, so markers only ever mean items', async () => {
      const p = await s.open();
      const text = repliesAnswer([post('11', '{"$skein:item":0}')]);
      await p.ingest([rec(text)]);
      const held = await p.held({
        operation: 'postReplies',
        params: '{"tweetId":"1"}',
        cursor: null,
        baseUrl: null,
        freshSince: 0,
      });
      expect(held?.text).toBe(text);
      await p.close();
    });

    it('leaves items whose kept JSON is damaged out of what a re-export reads, and counts and names them', async () => {
      const source = await s.open();
      await source.ingest([
        rec(
          repliesAnswer([post('41', 'kept'), post('42', 'cut'), post('43', 'a list'), post('44', 'half \ud83d pair')]),
        ),
      ]);
      // the project copied with two items damaged on the way, as a file damaged on disk (or by hand) holds them
      const damage: Record<string, string> = { '42': '{"id": "42", "text": "cu', '43': '[1, 2]' };
      const target = await copiedWithDamage(source, await s.open(), damage);
      expect((await all(target)).map((r) => r.id).sort()).toEqual(['41', '44']);
      expect(await target.damaged(q(), 1)).toEqual({ count: 2, ids: ['42'] });
      expect(await target.damaged(q({ text: 'kept' }), 10)).toEqual({ count: 0, ids: [] });
      // nor are they held: a hydration buys them again, which mends them
      for (const withRaw of [true, false])
        expect((await target.heldItems('post', ['41', '42', '43', '44'], withRaw)).map((h) => h.id).sort()).toEqual([
          '41',
          '44',
        ]);
      // and a view where they would be shown says so
      for (const withRaw of [true, false]) {
        const kept = await target.keptItems('post', ['41', '42', '43', '44', '45'], withRaw);
        expect(kept.damaged.sort()).toEqual(['42', '43']);
        expect(kept.held.map((h) => h.id).sort()).toEqual(['41', '44']);
        expect(kept.held.every((h) => (withRaw ? JSON.parse(h.raw) !== null : h.raw === ''))).toBe(true);
      }
      expect(await target.keptItems('user', ['42'], true)).toEqual({ held: [], damaged: [] });
      await target.ingest([rec(repliesAnswer([post('42', 'cut')]), { at: 5000 })]);
      expect(await target.damaged(q(), 10)).toEqual({ count: 1, ids: ['43'] });
      expect((await target.heldItems('post', ['42'], true)).map((h) => JSON.parse(h.raw) as { text: string })).toEqual([
        expect.objectContaining({ text: 'cut' }),
      ]);
      // the damaged text stays among the item's earlier versions
      const versions = await target.snapshot();
      const spec = target.tables.find((t) => t.name === 'item_versions');
      expect((await versions.rows(spec!, null, 100)).map((r) => r.raw)).toContain(damage['42']);
      await versions.close();
      await target.close();
    });

    it('takes an item damaged inside its braces as damaged, never as held, so a hydration buys it again', async () => {
      const source = await s.open();
      await source.ingest([rec(repliesAnswer([post('51', 'kept'), post('52', 'torn'), post('53', 'torn too')]))]);
      // braces whole, what lies between them not JSON: a test of the first and last character lets these through
      const damage = { '52': '{"id": "52", "text": "to rn}', '53': '{"id": "53",, "text": "x"}' };
      const target = await copiedWithDamage(source, await s.open(), damage);
      for (const withRaw of [true, false]) {
        expect((await target.heldItems('post', ['51', '52', '53'], withRaw)).map((h) => h.id)).toEqual(['51']);
        const kept = await target.keptItems('post', ['51', '52', '53'], withRaw);
        expect(kept.held.map((h) => h.id)).toEqual(['51']);
        expect(kept.damaged.sort()).toEqual(['52', '53']);
      }
      await target.close();
    });

    it('keeps hostile text exactly: NUL, half a surrogate pair, markup, odd cursors, a huge and deep item', async () => {
      const p = await s.open();
      const nul = 'before\u0000after <img src=x onerror=alert(1)>';
      const lone = 'half \ud83d pair';
      const notJson = `<html>\u0000${lone}</html>`;
      // (SQLite's driver writes half a surrogate pair as U+FFFD: a cursor holding one is not compared here)
      const cursor = `c\u0000 \u0001`;
      const deep = JSON.parse(`${'{"a":'.repeat(300)}1${'}'.repeat(300)}`) as unknown;
      const huge = post('33', `${'word '.repeat(60_000)}needle`, { deep });
      await p.ingest([
        rec(repliesAnswer([post('31', nul), post('32', lone)], cursor)),
        rec(notJson, { params: '{"tweetId":"2"}', httpStatus: 502 }),
        rec(repliesAnswer([post('34', 'next page')]), { cursor, at: 1100 }),
        rec(repliesAnswer([huge]), { params: '{"tweetId":"3"}' }),
        rec(repliesAnswer([{ ...post('35', 'x'), id: '9'.repeat(300) }, post('36', 'kept')]), {
          params: '{"tweetId":"4"}',
        }),
      ]);
      expect(p.skipped).toBe(0);
      const byId = new Map((await all(p)).map((r) => [r.id, JSON.parse(r.raw) as { text: string }]));
      expect(byId.get('31')?.text).toBe(nul);
      expect(byId.get('32')?.text).toBe(lone);
      expect(byId.get('33')?.text.endsWith('needle')).toBe(true);
      // an id no service writes (300 digits) is not an item: its answer keeps it, whole
      expect([...byId.keys()].sort()).toEqual(['31', '32', '33', '34', '36']);
      const held = async (params: string, c: string | null = null, notBefore = 0) =>
        (await p.held({ operation: 'postReplies', params, cursor: c, baseUrl: null, freshSince: 0, notBefore }))?.text;
      expect(await held('{"tweetId":"1"}')).toBe(repliesAnswer([post('31', nul), post('32', lone)], cursor));
      expect(await held('{"tweetId":"1"}', cursor)).toBe(repliesAnswer([post('34', 'next page')]));
      expect((await p.provenance('post', '34'))?.requests[0]).toMatchObject({ cursor, pageIndex: 1 });
      // not served (an error status), but kept exactly
      expect(await held('{"tweetId":"2"}')).toBeUndefined();
      expect((await p.search(q({ text: 'needle' }), 0, 5)).hits.map((h) => h.id)).toEqual(['33']);
      expect((await p.search(q({ text: 'onerror' }), 0, 5)).hits.map((h) => h.id)).toEqual(['31']);
      await p.close();
    });

    it('searches post text, handles and bios offline, with filters and sorts; FTS syntax in input is only words', async () => {
      const p = await s.open();
      await p.ingest([
        rec(
          repliesAnswer([
            post('11', 'the heron flew', { likeCount: 1, createdAt: 'Sun Nov 22 02:13:21 +0000 2026' }),
            post('12', 'a Heron again', { likeCount: 50, isReply: true, createdAt: 'Mon Nov 23 02:13:21 +0000 2026' }),
            post('13', 'nothing', { likeCount: 3 }),
            post('14', 'storm-garden and no date', {
              createdAt: 'not a date',
              author: { ...postFixture.author, userName: 'Grace', name: 'Grace H' },
            }),
          ]),
        ),
        rec(
          JSON.stringify({ users: [{ ...userFixture, id: '77', description: 'I study herons' }], status: 'success' }),
          {
            operation: 'usersByIds',
            params: '{"userIds":"77"}',
          },
        ),
      ]);
      const ids = async (over: object) => (await p.search(q(over), 0, 10)).hits.map((h) => h.id);
      expect(await ids({ text: 'heron' })).toEqual(['12', '11']);
      expect(await ids({ text: 'heron', sort: 'engagement' })).toEqual(['12', '11']);
      expect(await ids({ text: 'heron', reply: false })).toEqual(['11']);
      expect(await ids({ text: 'heron', reply: true })).toEqual(['12']);
      expect(await ids({ text: 'heron', from: Date.UTC(2026, 10, 23) })).toEqual(['12']);
      expect(await ids({ text: 'heron', to: Date.UTC(2026, 10, 23) })).toEqual(['11']);
      expect(await ids({ text: 'herons', kind: 'user' })).toEqual(['77']);
      expect((await ids({ text: postFixture.author.userName, kind: 'post' })).length).toBe(3);
      // the search language is parsed by Skein: a quote left open is refused, engines' syntax is only words
      await expect(ids({ text: '") OR * NEAR(' })).rejects.toMatchObject({ code: 'bad-input' });
      expect(await ids({ text: "NEAR * ^ text '(:*) | !x & <-> \\" })).toEqual([]);
      expect(await ids({ text: 'heron -again' })).toEqual(['11']);
      expect(await ids({ text: '-heron' })).toEqual(['13', '14']);
      expect(await ids({ text: 'nothing OR "heron flew"' })).toEqual(['13', '11']);
      expect(await ids({ text: 'heron min_likes:10' })).toEqual(['12']);
      expect(await ids({ text: 'is:reply OR from:grace' })).toEqual(['12', '14']);
      expect(await ids({ text: 'until:2026-11-23 heron' })).toEqual(['11']);
      expect(await ids({ text: 'her' })).toEqual(['12', '11']);
      // a phrase across a dash is one phrase; the post without a date comes last, newest first
      expect(await ids({ text: 'storm-garden' })).toEqual(['14']);
      expect(await ids({ text: 'garden storm' })).toEqual(['14']);
      // ties on time newest-row first
      expect(await ids({})).toEqual(['12', '13', '11', '14']);
      // handles compare without case, with or without the @
      expect(await ids({ author: '@grace' })).toEqual(['14']);
      expect(await ids({ author: 'GRACE' })).toEqual(['14']);
      expect(await ids({ lang: 'en', text: 'nothing' })).toEqual(['13']);
      expect(await ids({ media: true, text: 'nothing' })).toEqual(['13']);
      expect(await ids({ media: false, text: 'nothing' })).toEqual([]);
      // a page and the next
      const first = await p.search(q(), 0, 2);
      expect(first.nextOffset).toBe(2);
      const second = await p.search(q(), 2, 2);
      expect(second.nextOffset).toBeNull();
      expect([...first.hits, ...second.hits].map((h) => h.id).sort()).toEqual(['11', '12', '13', '14']);
      expect(first.hits[0]).toMatchObject({ kind: 'post', firstSeen: 1000, lastSeen: 1000, requests: 1 });
      await p.close();
    });

    it('keeps a search as a collection of what it finds now, to filter on like any other', async () => {
      const p = await s.open(s.fresh({ researcher: 'Ada' }));
      await p.ingest([
        rec(
          repliesAnswer([
            post('11', 'the heron flew', { createdAt: 'Sun Nov 22 02:13:21 +0000 2026' }),
            post('12', 'a heron again', { createdAt: 'Mon Nov 23 02:13:21 +0000 2026' }),
            post('13', 'an egret', { createdAt: 'Tue Nov 24 02:13:21 +0000 2026' }),
          ]),
        ),
      ]);
      const saved = await p.saveSearch(q({ text: '(heron OR egret) -again' }), 'Wading birds');
      expect(saved).toMatchObject({ name: 'Wading birds', kind: 'search', items: 2, researcher: 'Ada' });
      expect((await p.collections()).map((c) => [c.name, c.items])).toEqual([['Wading birds', 2]]);
      // later items do not change it: it is what the search found when kept, newest first
      await p.ingest([rec(repliesAnswer([post('14', 'another heron')]), { at: 2000 })]);
      const ids = async (over: object) => (await p.search(q(over), 0, 10)).hits.map((h) => h.id);
      expect(await ids({ collection: saved.id })).toEqual(['13', '11']);
      expect((await all(p, q({ collection: saved.id }))).map((r) => r.id)).toEqual(['13', '11']);
      // brought up to date, it takes in what the search finds now after what it held; again, nothing new
      await p.ingest([
        rec(repliesAnswer([post('15', 'a heron at dusk', { createdAt: 'Wed Nov 25 02:13:21 +0000 2026' })]), {
          at: 3000,
        }),
      ]);
      const fresh = await p.refreshSearch(saved.id);
      expect(fresh).toMatchObject({ added: 2, collection: { id: saved.id, items: 4, kind: 'search' } });
      expect((await all(p, q({ collection: saved.id }))).map((r) => r.id)).toEqual(['13', '11', '15', '14']);
      expect(await p.refreshSearch(saved.id)).toMatchObject({ added: 0, collection: { items: 4 } });
      // only a saved search can: another collection is refused in words
      const other = await p.createCollection({ name: 'Picked', kind: 'export', manifest: { search: {} } });
      await expect(Promise.resolve(p.refreshSearch(other))).rejects.toThrow(/“Picked” is not a saved search/);
      await p.close();
    });

    it('finds the same first page whether a word is rare (sorted) or common (walked by index)', async () => {
      const p = await s.open();
      // 5,400 posts: "heron" is in a tenth of them (sorted: 540), "post" in all (past 5,000: walked)
      await p.ingest(Array.from({ length: 270 }, (_, i) => repliesPage(i * 20, 20, 1000)));
      const newest = async (text: string, sort: 'time' | 'engagement') =>
        (await p.search(q({ text, sort }), 0, 20)).hits.map((h) => h.id);
      const expected = (match: (n: number) => boolean, key: (n: number) => number) =>
        Array.from({ length: 5400 }, (_, n) => n)
          .filter(match)
          .sort((a, b) => key(b) - key(a) || b - a)
          .slice(0, 20)
          .map((n) => String(1_000_000_000 + n));
      const created = (n: number) => n % 8760;
      expect(await newest('heron', 'time')).toEqual(expected((n) => n % 10 === 0 || (n * 7) % 10 === 0, created));
      expect(await newest('post', 'time')).toEqual(expected(() => true, created));
      expect(await newest('post', 'engagement')).toEqual(
        expected(
          () => true,
          (n) => n % 97,
        ),
      );
      await p.close();
    });

    it('counts activity per day, zero-filled, and shifts buckets for local time', async () => {
      const p = await s.open(undefined, () => Date.UTC(2026, 11, 1));
      await p.ingest([
        rec(
          repliesAnswer([
            post('11', 'a', { createdAt: 'Sun Nov 22 23:30:00 +0000 2026' }),
            post('12', 'b', { createdAt: 'Tue Nov 24 10:00:00 +0000 2026' }),
            post('13', 'c', { createdAt: 'Tue Nov 24 11:00:00 +0000 2026' }),
            post('14', 'd', { createdAt: 'not a date' }),
          ]),
        ),
      ]);
      const utc = await p.activity(q(), 'day', 0);
      expect(utc.buckets.map((b) => b.count)).toEqual([1, 0, 2]);
      expect(utc.buckets[0]?.start).toBe(Date.UTC(2026, 10, 22));
      expect(utc).toMatchObject({ total: 4, undated: 1 });
      // UTC+1: 23:30 on the 22nd is 00:30 on the 23rd
      expect((await p.activity(q(), 'day', 60)).buckets.map((b) => b.count)).toEqual([1, 2]);
      expect((await p.activity(q(), 'week', 0)).buckets.map((b) => b.count)).toEqual([1, 2]);
      expect((await p.activity(q({ text: 'b' }), 'hour', 0)).buckets.map((b) => b.count)).toEqual([1]);
      await p.close();
    });

    it('charts all posts from the counts ingest keeps, as a pass over the posts would, in any time zone', async () => {
      const now = Date.UTC(2026, 11, 1, 12, 7);
      const p = await s.open(undefined, () => now);
      const iso = (ms: number) => new Date(ms).toISOString();
      await p.ingest([
        rec(
          repliesAnswer([
            post('11', 'a', { createdAt: iso(Date.UTC(2026, 10, 22, 23, 30)) }),
            post('12', 'b', { createdAt: iso(Date.UTC(2026, 10, 24, 10)) }),
            // 23:59:59.999 on the 24th in India (UTC+5:30)
            post('13', 'c', { createdAt: iso(Date.UTC(2026, 10, 24, 18, 29, 59, 999)) }),
            post('14', 'd', { createdAt: 'not a date' }),
            post('15', 'e', { createdAt: iso(Date.UTC(2003, 0, 1)) }),
            // a day ahead of the clock, a minute inside the chart's end and a minute past it (undated)
            post('16', 'f', { createdAt: iso(now + DAY_MS - 60_000) }),
            post('17', 'g', { createdAt: iso(now + DAY_MS + 60_000) }),
          ]),
          { at: 1000 },
        ),
      ]);
      await p.ingest([
        // the same post again; a newer version of one, its time the same; a newer one whose time moved (to the 25th);
        // an older answer, kept only as an earlier version
        rec(repliesAnswer([post('16', 'f', { createdAt: iso(now + DAY_MS - 60_000) })]), { at: 2000 }),
        rec(repliesAnswer([post('11', 'a, edited', { createdAt: iso(Date.UTC(2026, 10, 22, 23, 30)) })]), {
          at: 2000,
          cursor: 'x',
        }),
        rec(repliesAnswer([post('12', 'b, edited', { createdAt: iso(Date.UTC(2026, 10, 25, 9)) })]), {
          at: 3000,
          cursor: 'y',
        }),
        rec(repliesAnswer([post('13', 'c, older', { createdAt: iso(Date.UTC(2026, 10, 1)) })]), {
          at: 500,
          cursor: 'z',
        }),
      ]);
      const utc = await p.activity(q(), 'day', 0);
      expect(nonZero(utc)).toEqual({
        [Date.UTC(2026, 10, 22)]: 1,
        [Date.UTC(2026, 10, 24)]: 1,
        [Date.UTC(2026, 10, 25)]: 1,
        [Date.UTC(2026, 11, 2)]: 1,
      });
      expect(utc).toMatchObject({ total: 7, undated: 3 });
      // every chart of all posts equals the charts of replies and of the rest added up (those read the posts)
      for (const bucket of ['hour', 'day', 'week'] as const)
        for (const offset of [0, 60, 330, 345, -570, 7]) {
          const whole = await p.activity(q(), bucket, offset);
          const parts = [
            await p.activity(q({ reply: true }), bucket, offset),
            await p.activity(q({ reply: false }), bucket, offset),
          ];
          expect({ buckets: nonZero(whole), total: whole.total, undated: whole.undated }).toEqual(added(parts));
        }
      await p.close();
    });

    it('rolls back an answer it cannot keep alone, never its whole batch', async () => {
      const p = await s.open();
      await p.ingest([
        rec(repliesAnswer([post('11', 'a')])),
        rec(repliesAnswer([post('12', 'b')]), { operation: 'noSuchOperation' as IngestRecord['operation'] }),
        rec(repliesAnswer([post('13', 'c')]), { cursor: 'x' }),
        // not JSON at all, and an item without an id: the answer is kept, no item taken from it
        rec('<html>oops</html>', { cursor: 'y' }),
        rec(repliesAnswer([{ text: 'no id' }]), { cursor: 'z' }),
      ]);
      expect(await p.summary()).toMatchObject({ items: 2, requests: 4 });
      expect(p.skipped).toBe(1);
      await p.close();
    });

    it('keeps collections in order with their places, and reads a collection back in that order', async () => {
      const p = await s.open(s.fresh({ researcher: 'Grace' }));
      await p.ingest([rec(repliesAnswer([post('11', 'a'), post('12', 'b'), post('13', 'c')]))]);
      const id = await p.createCollection({
        name: 'Thread · 2026-11-22 10:00 UTC',
        kind: 'export',
        manifest: { x: 1 },
      });
      expect(await p.appendCollection(id, 0, [{ kind: 'post', id: '13', depth: 0, place: '{"depth":0}' }])).toBe(1);
      expect(
        await p.appendCollection(id, 1, [
          { kind: 'post', id: 'not-held', depth: 1 },
          { kind: 'post', id: '11', depth: 1, place: null },
        ]),
      ).toBe(1);
      const other = await p.createCollection({ name: 'Later', kind: 'fetch-everything', manifest: null });
      const list = await p.collections();
      expect(list.map((c) => [c.id, c.items, c.researcher])).toEqual([
        [other, 0, 'Grace'],
        [id, 2, 'Grace'],
      ]);
      const rows = await all(p, q({ collection: id }));
      expect(rows.map((r) => [r.id, r.place])).toEqual([
        ['13', '{"depth":0}'],
        ['11', null],
      ]);
      expect((await p.search(q({ collection: id }), 0, 10)).hits.map((h) => h.id).sort()).toEqual(['11', '13']);
      await p.close();
    });

    it('renames, and reads a query in chunks from one snapshot while answers keep coming', async () => {
      const p = await s.open();
      await p.rename('Heron study');
      expect((await p.summary()).name).toBe('Heron study');
      await p.ingest(Array.from({ length: 5 }, (_, i) => repliesPage(i * 20, 20, 1000)));
      const reader = await p.reader(q());
      const first = await reader.next(30);
      await p.ingest([repliesPage(10_000, 20, 2000)]);
      const rest = await reader.next(1000);
      await reader.close();
      expect(first.length + rest.length).toBe(100);
      expect((await p.summary()).items).toBe(120);
      await p.close();
    });
  });
});

describe.each(STORES)("the archive's host on $name", (s) => {
  beforeAll(() => s.setup(), 120_000);
  afterAll(() => s.teardown());
  const run = s.skip ? describe.skip : describe;

  run(`(${s.skip ?? 'running'})`, () => {
    it('writes a batch once it holds 8 MB of answers, before the timer and before 256 answers', async () => {
      // the batch timer never fires by itself here: what is written before `flush` was written for its size
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      onTestFinished(() => void vi.useRealTimers());
      const init = s.fresh();
      const host = new ArchiveHost(() => undefined);
      await host.api.open('current', init);
      // pages of 20 posts are ~40 KB: 8 MB is ~200 of them
      const pages = Array.from({ length: 220 }, (_, i) => repliesPage(i * 20, 20, 1000));
      expect(pages.reduce((n, p) => n + p.text.length, 0)).toBeGreaterThan(8_000_000);
      for (const record of pages) host.api.ingest('current', record);
      // the first batch is under way before any timer: a second connection sees it once written
      const other = await s.open(init);
      await expect.poll(async () => (await other.summary()).requests, { timeout: 10_000 }).toBeGreaterThan(150);
      expect((await other.summary()).requests).toBeLessThan(220);
      await host.api.flush();
      expect((await other.summary()).requests).toBe(220);
      await other.close();
      await host.dispose();
    });

    it('copies a project into an empty one of either store, every table counted, and refuses a full one', async () => {
      const host = new ArchiveHost(() => undefined, PARTS);
      await host.api.open('current', s.fresh({ researcher: 'Ada' }));
      const coding = partProxy<CodingTables>(
        { call: inProcess(host.api).call } as Parameters<typeof partProxy>[0],
        'current',
        CODING_PART.name,
      );
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
        ],
      });
      for (let i = 0; i < 30; i++) host.api.ingest('current', repliesPage(i * 20, 20, 1000 + i));
      host.api.ingest('current', repliesPage(0, 20, 5000)); // changed likes: versions
      host.api.ingest('current', rec(repliesAnswer([post('9', 'nul\u0000 and \ud800')]), { cursor: 'c\u0000' }));
      const id = await host.api.createCollection('current', { name: 'C', kind: 'export', manifest: { a: 1 } });
      await host.api.appendCollection('current', id, 0, [{ kind: 'post', id: '1000000001', depth: 0, place: null }]);
      // codes travel with the project (the watch tables' suite copies theirs)
      const book = await coding.createCodebook('Stance', definition, 'v1');
      const ana = await coding.addCoder('Ana \u0000', 'person', null);
      const value = { codebook: book, kind: 'post' as const, id: '1000000001', field: 'stance', coder: ana.id };
      await coding.setCoding({ ...value, value: 'a', version: 1, codedAt: 5 });
      await coding.addOptOut('42', 'someone', 'asked');
      // each store of its own (a cluster of its own for PostgreSQL)
      for (const target of makeStores().filter((t) => !t.skip)) {
        await target.setup();
        try {
          const into = target.fresh();
          const report = await host.api.copy('current', into);
          expect(report.tables.map((t) => t.name)).toEqual(tablesOf(PARTS).map((t) => t.name));
          for (const t of report.tables) expect(t.copied, t.name).toBe(t.source);
          expect(report.tables.find((t) => t.name === 'items')?.source).toBe(601);
          const copy = await target.open(into);
          const [a, b] = [await host.api.summary('current'), await copy.summary()];
          expect(b).toMatchObject({ items: a.items, requests: a.requests, researchers: a.researchers });
          expect((await copy.search(q({ text: 'heron' }), 0, 5)).hits.map((h) => h.id)).toEqual(
            (await host.api.search('current', q({ text: 'heron' }), 0, 5)).hits.map((h) => h.id),
          );
          expect(await copy.provenance('post', '1000000003')).toEqual(
            await host.api.provenance('current', 'post', '1000000003'),
          );
          expect(await copy.collections()).toEqual(await host.api.collections('current'));
          const copied = copy.parts.get(CODING_PART.name) as CodingTables;
          expect(await copied.codebook(book)).toEqual(await coding.codebook(book));
          expect(await copied.codings(book, null)).toEqual(await coding.codings(book, null));
          expect((await copied.coderByName('ana \u0000'))?.id).toBe(ana.id);
          expect(await copied.optOuts()).toEqual(await coding.optOuts());
          // new rows are numbered after the copied ones
          expect(await copied.createCodebook('Next', definition, '')).toBe(book + 1);
          expect((await all(copy, q({ text: 'nul' })))[0]?.raw).toContain('nul\\u0000');
          // a new row after the copy is numbered after the copied ones
          await copy.ingest([repliesPage(90_000, 20, 9000)]);
          expect((await copy.summary()).items).toBe(621);
          await copy.close();
          // a project that holds items is never copied into
          await expect(host.api.copy('current', into)).rejects.toThrow(/only into an empty one/);
        } finally {
          target.teardown();
        }
      }
      await host.dispose();
    }, 120_000);
  });
});

/** a copy of `source` into `target` (empty) with some items' kept JSON replaced: a project damaged on disk or by hand */
async function copiedWithDamage(source: ProjectStore, target: ProjectStore, damage: Record<string, string>) {
  const snapshot = await source.snapshot();
  const loader = await target.loader();
  for (const table of source.tables) {
    let after: Record<string, number | string | null> | null = null;
    for (;;) {
      const rows = await snapshot.rows(table, after, 500);
      await loader.add(
        table,
        table.name === 'items' ? rows.map((r) => ({ ...r, raw: damage[String(r.id)] ?? r.raw ?? null })) : rows,
      );
      if (rows.length < 500) break;
      after = rows.at(-1) ?? null;
    }
  }
  await loader.commit();
  await snapshot.close();
  await source.close();
  return target;
}
