/**
 * What only a project file has: its migrations, and a file Skein refuses (damaged, from a newer Skein) left
 * untouched. Everything a project does on either store is in store.test.ts.
 */
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ArchiveQuery } from '../../shared/ipc/archive';
import { PARTS } from '../compose/parts';
import { post, rec, repliesAnswer } from './testing/answers';
import { ArchiveProject } from './project';
import { ProjectFileError, SCHEMA_VERSION } from './schema';

let dir: string;
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'skein-archive-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const init = { name: 'Test', kind: 'live' as const, now: 1 };

describe('a project file', () => {
  it('migrates a version 1 file forward, keeping what it holds, and numbers pages from their cursors', async () => {
    const path = join(dir, 'v1.skein');
    const p1 = await ArchiveProject.open(path, init, Date.now, PARTS);
    p1.ingest([rec(repliesAnswer([post('11', 'a')], 'c1'))]);
    p1.close();
    // version 1 was today's file without the index on the next cursor (2), the coding tables (3), the watch
    // tables (4) and who collected each request and collection (5)
    const db = new DatabaseSync(path);
    db.exec(
      'DROP INDEX requests_next; ALTER TABLE requests DROP COLUMN researcher; ALTER TABLE collections DROP COLUMN researcher; PRAGMA user_version = 1',
    );
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
      'coder_switches',
      'watches',
      'watch_runs',
      'watch_gaps',
      'watch_presence',
      'watch_counters',
      'watch_runner',
      'activity_counts',
      'parts',
    ])
      db.exec(`DROP TABLE ${table}`);
    db.close();
    const p = await ArchiveProject.open(path, { ...init, researcher: 'Ada' }, Date.now, PARTS);
    p.ingest([
      rec(repliesAnswer([post('12', 'b')], 'c2'), { cursor: 'c1', at: 1100 }),
      rec(repliesAnswer([post('13', 'c')]), { cursor: 'c2', at: 1200 }),
    ]);
    expect((await p.provenance('post', '11'))?.requests[0]).toMatchObject({ pageIndex: 0 });
    expect((await p.provenance('post', '13'))?.requests[0]).toMatchObject({
      cursor: 'c2',
      pageIndex: 2,
      researcher: 'Ada',
    });
    // answers recorded before names were asked are nobody's
    expect((await p.summary()).researchers.map((r) => r.name)).toEqual(['Ada', null]);
    // the chart of all posts: the one the file held (counted by the migration) and the two written since
    expect((await p.activity(ArchiveQuery.parse({}), 'day', 0)).total).toBe(3);
    p.close();
    const check = new DatabaseSync(path, { readOnly: true });
    expect(check.prepare('PRAGMA user_version').get()).toEqual({ user_version: SCHEMA_VERSION });
    expect(check.prepare("SELECT name FROM sqlite_master WHERE name = 'requests_next'").get()).toBeTruthy();
    // a sample's draw reads the items' ids and times from the index by time alone
    expect(
      check
        .prepare("EXPLAIN QUERY PLAN SELECT id, created_at FROM items WHERE kind = 'post'")
        .all()
        .map((r) => (r as { detail: string }).detail),
    ).toEqual(['SEARCH items USING COVERING INDEX items_created (kind=?)']);
    expect(check.prepare('SELECT count(*) AS n FROM watches').get()).toEqual({ n: 0 });
    check.close();
  });

  it("rebuilds an earlier Skein's contentless word index as one older SQLite reads, finding the same words", async () => {
    const path = join(dir, 'v5.skein');
    const p1 = await ArchiveProject.open(path, init, Date.now, PARTS);
    p1.ingest([rec(repliesAnswer([post('11', 'the héron by the river'), post('12', 'a storm')]))]);
    p1.close();
    // version 5's index kept no words of its own, and deleting from it needed SQLite 3.43
    const db = new DatabaseSync(path);
    db.exec(`DROP TABLE items_fts;
      CREATE VIRTUAL TABLE items_fts USING fts5 (text, handle, name, bio, content='', contentless_delete=1,
        tokenize='unicode61 remove_diacritics 2');
      INSERT INTO items_fts (rowid, text) SELECT rowid, 'stale' FROM items;
      PRAGMA user_version = 5;`);
    db.close();
    const p = await ArchiveProject.open(path, init, Date.now, PARTS);
    const ids = (text: string) =>
      p
        .search(ArchiveQuery.parse({ text }), 0, 10)
        .hits.map((h) => h.id)
        .sort();
    expect(ids('heron river')).toEqual(['11']);
    expect(ids('stale')).toEqual([]);
    // a changed post's words replace its old ones
    p.ingest([rec(repliesAnswer([post('12', 'a calm sea')]), { at: 2000 })]);
    expect(ids('storm')).toEqual([]);
    expect(ids('calm')).toEqual(['12']);
    p.close();
    const check = new DatabaseSync(path, { readOnly: true });
    expect(check.prepare("SELECT sql FROM sqlite_master WHERE name = 'items_fts'").get()).not.toMatchObject({
      sql: expect.stringContaining('contentless'),
    });
    expect(check.prepare('PRAGMA user_version').get()).toEqual({ user_version: SCHEMA_VERSION });
    check.close();
  });

  it('refuses a file from a newer Skein in plain words, and leaves it untouched', async () => {
    const path = join(dir, 'new.skein');
    (await ArchiveProject.open(path, init)).close();
    const db = new DatabaseSync(path);
    db.exec(`PRAGMA user_version = ${SCHEMA_VERSION + 1}`);
    db.close();
    const before = readFileSync(path);
    await expect(ArchiveProject.open(path, init)).rejects.toThrow(/newer version of Skein/);
    expect(readFileSync(path).equals(before)).toBe(true);
  });

  it('refuses a damaged file in plain words, and leaves it untouched', async () => {
    const path = join(dir, 'bad.skein');
    const p = await ArchiveProject.open(path, init);
    p.ingest([rec(repliesAnswer([post('11', 'x')]))]);
    p.close();
    const bytes = readFileSync(path);
    // scribble over the second page onwards
    bytes.fill(0x41, 4096, Math.min(bytes.length, 4096 * 3));
    writeFileSync(path, bytes);
    copyFileSync(path, join(dir, 'copy'));
    let error: unknown;
    try {
      await ArchiveProject.open(path, init);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ProjectFileError);
    expect((error as Error).message).toMatch(/damaged|not a Skein project/);
    expect(readFileSync(path).equals(readFileSync(join(dir, 'copy')))).toBe(true);
    // and nothing was made beside it
    expect(existsSync(`${path}-wal`) || existsSync(`${path}-shm`)).toBe(false);
    writeFileSync(join(dir, 'text.skein'), 'hello, not a database at all '.repeat(200));
    await expect(ArchiveProject.open(join(dir, 'text.skein'), init)).rejects.toThrow(ProjectFileError);
  });

  it('refuses an empty file rather than making it a project', async () => {
    const path = join(dir, 'empty.skein');
    writeFileSync(path, '');
    await expect(ArchiveProject.open(path, init)).rejects.toThrow(/is empty: it is not a Skein project/);
    expect(readFileSync(path).length).toBe(0);
    expect(existsSync(`${path}-wal`) || existsSync(`${path}-shm`)).toBe(false);
  });

  it('opens a project whose -wal is still there (not closed cleanly) with what the -wal holds', async () => {
    const path = join(dir, 'crashed.skein');
    const p = await ArchiveProject.open(path, init);
    p.ingest([rec(repliesAnswer([post('12', 'kept only in the wal')]))]);
    // a copy taken while it is open: the file and its -wal as a crash leaves them
    copyFileSync(path, join(dir, 'crashed2.skein'));
    copyFileSync(`${path}-wal`, join(dir, 'crashed2.skein-wal'));
    p.close();
    const again = await ArchiveProject.open(join(dir, 'crashed2.skein'), init);
    expect((await again.summary()).items).toBeGreaterThan(0);
    again.close();
  });
});
