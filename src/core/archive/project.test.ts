import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { postFixture, userFixture } from '../../shared/api/fixtures';
import { ArchiveQuery } from '../../shared/ipc/archive';
import type { IngestRecord } from './ingest';
import { repliesPage } from './testing/answers';
import { ArchiveProject } from './project';
import { ProjectFileError, SCHEMA_VERSION } from './schema';

let dir: string;
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'skein-archive-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const init = { name: 'Test', kind: 'live' as const, now: 1 };
const q = (over: object = {}) => ArchiveQuery.parse(over);

function post(id: string, text: string, extra: object = {}) {
  return { ...postFixture, id, text, quoted_tweet: null, ...extra };
}
function repliesAnswer(posts: unknown[], next = ''): string {
  return JSON.stringify({
    replies: posts,
    has_next_page: next !== '',
    next_cursor: next,
    status: 'success',
    message: '',
  });
}
function rec(text: string, over: Partial<IngestRecord> = {}): IngestRecord {
  return {
    operation: 'postReplies',
    params: '{"tweetId":"1"}',
    cursor: null,
    at: 1000,
    baseUrl: 'https://api.example',
    httpStatus: 200,
    text,
    ...over,
  };
}

describe('a project file', () => {
  it('says which of many ids it holds, by kind, in chunks, with the raw item as last received and when', () => {
    const p = new ArchiveProject(join(dir, 'held.skein'), init);
    p.ingest([rec(repliesAnswer([post('11', 'first'), post('12', 'second')]), { at: 1000 })]);
    p.ingest([rec(repliesAnswer([post('12', 'second, edited')]), { operation: 'postQuotes', at: 2000 })]);
    // more ids than one IN (…) query takes, a hostile one among them
    const asked = ["12' OR 1=1 --", ...Array.from({ length: 1200 }, (_, i) => String(100 + i)), '11', '12'];
    const held = p.heldItems('post', asked, true);
    expect(held.map((h) => h.id).sort()).toEqual(['11', '12']);
    const twelve = held.find((h) => h.id === '12');
    expect(twelve?.at).toBe(2000);
    expect((JSON.parse(twelve?.raw ?? '{}') as { text: string }).text).toBe('second, edited');
    expect(p.heldItems('post', ['11'], false)).toEqual([{ id: '11', raw: '', at: 1000 }]);
    expect(p.heldItems('user', ['11', '12'], false)).toEqual([]);
    p.close();
  });

  it('keeps each item once by (kind, id), with every request that returned it and its earlier versions', () => {
    const p = new ArchiveProject(join(dir, 'a.skein'), init);
    p.ingest([rec(repliesAnswer([post('11', 'first words'), post('12', 'second words')], 'c1'))]);
    // the same post from another view, later, with a counter changed
    p.ingest([
      rec(repliesAnswer([post('11', 'first words', { likeCount: 99 })]), {
        operation: 'postQuotes',
        params: '{"tweetId":"5"}',
        at: 2000,
      }),
    ]);
    p.ingest([rec(repliesAnswer([post('13', 'third')]), { cursor: 'c1', at: 1500 })]);
    expect(p.summary()).toMatchObject({ items: 3, requests: 3 });
    const prov = p.provenance('post', '11');
    expect(prov?.requests.map((r) => r.operation)).toEqual(['postReplies', 'postQuotes']);
    expect(prov?.versions).toEqual([{ seenFrom: 1000, seenTo: 1000 }]);
    expect(prov).toMatchObject({ firstSeen: 1000, lastSeen: 2000 });
    expect(p.provenance('post', '13')?.requests[0]).toMatchObject({ cursor: 'c1', pageIndex: 1 });
    p.close();
  });

  it('never records the key: only operation, params, cursor, time and base URL', () => {
    const p = new ArchiveProject(join(dir, 'a.skein'), init);
    p.ingest([rec(repliesAnswer([post('11', 'x')]))]);
    p.close();
    const db = new DatabaseSync(join(dir, 'a.skein'));
    const cols = (db.prepare('PRAGMA table_info(requests)').all() as Array<{ name: string }>).map((c) => c.name);
    db.close();
    expect(cols).not.toContain('key');
    expect(cols.join()).not.toMatch(/key|header/i);
  });

  it('rebuilds an answer exactly from one copy of each item', () => {
    const p = new ArchiveProject(join(dir, 'a.skein'), init);
    const text = repliesAnswer([post('11', 'a'), post('12', 'b')], 'next');
    p.ingest([rec(text)]);
    const held = p.held({
      operation: 'postReplies',
      params: '{"tweetId":"1"}',
      cursor: null,
      baseUrl: null,
      freshSince: 0,
    });
    expect(held?.text).toBe(text);
    expect(
      p.held({ operation: 'postReplies', params: '{"tweetId":"1"}', cursor: null, baseUrl: null, freshSince: 5000 }),
    ).toBeNull();
    // an answer a paging guard stopped on is kept but never served again
    p.forget({ operation: 'postReplies', params: '{"tweetId":"1"}', cursor: null });
    expect(
      p.held({ operation: 'postReplies', params: '{"tweetId":"1"}', cursor: null, baseUrl: null, freshSince: 0 }),
    ).toBeNull();
    expect(p.summary().requests).toBe(1);
    p.close();
  });

  it('keeps each item as received (escapes and number spellings), on one line for JSONL', () => {
    const p = new ArchiveProject(join(dir, 'a.skein'), init);
    const item = JSON.stringify(post('11', 'x')).replace('"text":"x"', '"text":"caf\\u00e9 \\/ \\"q\\" ]}"');
    const spelled = item.replace('"likeCount":3', '"likeCount":3.0');
    const text = `{"replies":[${spelled}, ${JSON.stringify(post('12', 'y'))}],"next_cursor":"n","status":"success"}`;
    const pretty = JSON.stringify({ replies: [post('13', 'z')], status: 'success' }, null, 2);
    p.ingest([rec(text), rec(pretty, { params: '{"tweetId":"2"}' })]);
    const raws = [...{ [Symbol.iterator]: () => p.rawItems(q()) }].map((r) => r.raw);
    expect(raws[0]).toBe(spelled);
    expect(raws[1]).toBe(JSON.stringify(post('12', 'y')));
    expect(raws[2]).toBe(JSON.stringify(post('13', 'z')));
    expect(p.search(q({ text: 'café' }), 0, 10).hits.map((h) => h.id)).toEqual(['11']);
    const held = (params: string) =>
      p.held({ operation: 'postReplies', params, cursor: null, baseUrl: null, freshSince: 0 })?.text;
    expect(held('{"tweetId":"1"}')).toBe(text);
    expect(JSON.parse(held('{"tweetId":"2"}') ?? 'null')).toEqual(JSON.parse(pretty));
    p.close();
  });

  it('keeps a hostile answer holding the marker word whole, so markers only ever mean items', () => {
    const p = new ArchiveProject(join(dir, 'a.skein'), init);
    const text = repliesAnswer([post('11', '{"$skein:item":0}')]);
    p.ingest([rec(text)]);
    const held = p.held({
      operation: 'postReplies',
      params: '{"tweetId":"1"}',
      cursor: null,
      baseUrl: null,
      freshSince: 0,
    });
    expect(held?.text).toBe(text);
    p.close();
  });

  it('searches post text, handles and bios offline, with filters and sorts; FTS syntax in input is only words', () => {
    const p = new ArchiveProject(join(dir, 'a.skein'), init);
    p.ingest([
      rec(
        repliesAnswer([
          post('11', 'the heron flew', { likeCount: 1, createdAt: 'Sun Nov 22 02:13:21 +0000 2026' }),
          post('12', 'a Heron again', { likeCount: 50, isReply: true, createdAt: 'Mon Nov 23 02:13:21 +0000 2026' }),
          post('13', 'nothing', { likeCount: 3 }),
        ]),
      ),
      rec(JSON.stringify({ users: [{ ...userFixture, id: '77', description: 'I study herons' }], status: 'success' }), {
        operation: 'usersByIds',
        params: '{"userIds":"77"}',
      }),
    ]);
    const ids = (over: object) => p.search(q(over), 0, 10).hits.map((h) => h.id);
    expect(ids({ text: 'heron' })).toEqual(['12', '11']);
    expect(ids({ text: 'heron', sort: 'engagement' })).toEqual(['12', '11']);
    expect(ids({ text: 'heron', reply: false })).toEqual(['11']);
    expect(ids({ text: 'heron', from: Date.UTC(2026, 10, 23) })).toEqual(['12']);
    expect(ids({ text: 'herons', kind: 'user' })).toEqual(['77']);
    expect(ids({ text: postFixture.author.userName, kind: 'post' }).length).toBe(3);
    expect(ids({ text: '") OR * NEAR(' })).toEqual([]);
    expect(ids({ text: 'her' })).toEqual(['12', '11']);
    p.close();
  });

  it('finds the same first page whether a word is rare (sorted) or common (walked by index)', () => {
    const p = new ArchiveProject(join(dir, 'a.skein'), init);
    // 5,400 posts: "heron" is in a tenth of them (sorted: 540), "post" in all (past 5,000: walked)
    p.ingest(Array.from({ length: 270 }, (_, i) => repliesPage(i * 20, 20, 1000)));
    const newest = (text: string, sort: 'time' | 'engagement') =>
      p.search(q({ text, sort }), 0, 20).hits.map((h) => h.id);
    const expected = (match: (n: number) => boolean, key: (n: number) => number) =>
      Array.from({ length: 5400 }, (_, n) => n)
        .filter(match)
        .sort((a, b) => key(b) - key(a) || b - a)
        .slice(0, 20)
        .map((n) => String(1_000_000_000 + n));
    const created = (n: number) => n % 8760;
    expect(newest('heron', 'time')).toEqual(expected((n) => n % 10 === 0 || (n * 7) % 10 === 0, created));
    expect(newest('post', 'time')).toEqual(expected(() => true, created));
    expect(newest('post', 'engagement')).toEqual(
      expected(
        () => true,
        (n) => n % 97,
      ),
    );
    p.close();
  });

  it('counts activity per day, zero-filled, and shifts buckets for local time', () => {
    const p = new ArchiveProject(join(dir, 'a.skein'), init, () => Date.UTC(2026, 11, 1));
    p.ingest([
      rec(
        repliesAnswer([
          post('11', 'a', { createdAt: 'Sun Nov 22 23:30:00 +0000 2026' }),
          post('12', 'b', { createdAt: 'Tue Nov 24 10:00:00 +0000 2026' }),
          post('13', 'c', { createdAt: 'Tue Nov 24 11:00:00 +0000 2026' }),
          post('14', 'd', { createdAt: 'not a date' }),
        ]),
      ),
    ]);
    const utc = p.activity(q(), 'day', 0);
    expect(utc.buckets.map((b) => b.count)).toEqual([1, 0, 2]);
    expect(utc.buckets[0]?.start).toBe(Date.UTC(2026, 10, 22));
    expect(utc).toMatchObject({ total: 4, undated: 1 });
    // UTC+1: 23:30 on the 22nd is 00:30 on the 23rd
    expect(p.activity(q(), 'day', 60).buckets.map((b) => b.count)).toEqual([1, 2]);
    p.close();
  });

  it('rolls back an answer it cannot keep alone, never its whole batch', () => {
    const p = new ArchiveProject(join(dir, 'a.skein'), init);
    p.ingest([
      rec(repliesAnswer([post('11', 'a')])),
      rec(repliesAnswer([post('12', 'b')]), { operation: 'noSuchOperation' as IngestRecord['operation'] }),
      rec(repliesAnswer([post('13', 'c')]), { cursor: 'x' }),
      // not JSON at all, and an item without an id: the answer is kept, no item taken from it
      rec('<html>oops</html>', { cursor: 'y' }),
      rec(repliesAnswer([{ text: 'no id' }]), { cursor: 'z' }),
    ]);
    expect(p.summary()).toMatchObject({ items: 2, requests: 4 });
    expect(p.skipped).toBe(1);
    p.close();
  });

  it('migrates a version 1 file forward, keeping what it holds, and numbers pages from their cursors', () => {
    const path = join(dir, 'v1.skein');
    const p1 = new ArchiveProject(path, init);
    p1.ingest([rec(repliesAnswer([post('11', 'a')], 'c1'))]);
    p1.close();
    // version 1 was today's file without the index on the next cursor (2), the coding tables (3) and the
    // watch tables (4)
    const db = new DatabaseSync(path);
    db.exec('DROP INDEX requests_next; PRAGMA user_version = 1');
    for (const table of [
      'codebooks',
      'codebook_versions',
      'coders',
      'codings',
      'adjudications',
      'samples',
      'sample_items',
      'assignments',
      'opt_outs',
      'watches',
      'watch_runs',
      'watch_gaps',
      'watch_presence',
      'watch_counters',
      'watch_runner',
    ])
      db.exec(`DROP TABLE ${table}`);
    db.close();
    const p = new ArchiveProject(path, init);
    p.ingest([
      rec(repliesAnswer([post('12', 'b')], 'c2'), { cursor: 'c1', at: 1100 }),
      rec(repliesAnswer([post('13', 'c')]), { cursor: 'c2', at: 1200 }),
    ]);
    expect(p.provenance('post', '11')?.requests[0]).toMatchObject({ pageIndex: 0 });
    expect(p.provenance('post', '13')?.requests[0]).toMatchObject({ cursor: 'c2', pageIndex: 2 });
    p.close();
    const check = new DatabaseSync(path, { readOnly: true });
    expect(check.prepare('PRAGMA user_version').get()).toEqual({ user_version: SCHEMA_VERSION });
    expect(check.prepare("SELECT name FROM sqlite_master WHERE name = 'requests_next'").get()).toBeTruthy();
    expect(check.prepare('SELECT count(*) AS n FROM watches').get()).toEqual({ n: 0 });
    check.close();
  });

  it('refuses a file from a newer Skein in plain words, and leaves it untouched', () => {
    const path = join(dir, 'new.skein');
    new ArchiveProject(path, init).close();
    const db = new DatabaseSync(path);
    db.exec(`PRAGMA user_version = ${SCHEMA_VERSION + 1}`);
    db.close();
    const before = readFileSync(path);
    expect(() => new ArchiveProject(path, init)).toThrow(/newer version of Skein/);
    expect(readFileSync(path).equals(before)).toBe(true);
  });

  it('refuses a damaged file in plain words, and leaves it untouched', () => {
    const path = join(dir, 'bad.skein');
    const p = new ArchiveProject(path, init);
    p.ingest([rec(repliesAnswer([post('11', 'x')]))]);
    p.close();
    const bytes = readFileSync(path);
    // scribble over the second page onwards
    bytes.fill(0x41, 4096, Math.min(bytes.length, 4096 * 3));
    writeFileSync(path, bytes);
    copyFileSync(path, join(dir, 'copy'));
    let error: unknown;
    try {
      new ArchiveProject(path, init);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ProjectFileError);
    expect((error as Error).message).toMatch(/damaged|not a Skein project/);
    expect(readFileSync(path).equals(readFileSync(join(dir, 'copy')))).toBe(true);
    writeFileSync(join(dir, 'text.skein'), 'hello, not a database at all '.repeat(200));
    expect(() => new ArchiveProject(join(dir, 'text.skein'), init)).toThrow(ProjectFileError);
  });
});
