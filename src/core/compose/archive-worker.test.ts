/**
 * The archive worker's module started again with the side reader's data serves a project file's second reader:
 * the file's rows with each item's sample rank worked out on that thread, the rank the archive's worker gives.
 * A side reader that cannot start answers nothing, and the draw does its work where it is. It also copies a
 * project's write-ahead log into the file while the archive's worker goes on writing.
 */
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { ArchiveProject } from '../archive/project';
import { repliesPage } from '../archive/testing/answers';
import { sampleRank, sampleRankSql, sideReader, sql } from '../db';
import { PARTS } from './parts';

const dir = mkdtempSync(join(tmpdir(), 'skein-side-reader-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const IDS = ['1800000000000000001', 'héron 中文 😀', "'); DROP TABLE items; --"];
const PREFIX = 'seed\u0000post\u0000';

function file(): string {
  const path = join(dir, 'p.skein');
  const db = new DatabaseSync(path);
  db.exec('CREATE TABLE IF NOT EXISTS items (id TEXT NOT NULL)');
  db.exec('DELETE FROM items');
  const add = db.prepare('INSERT INTO items (id) VALUES (?)');
  for (const id of IDS) add.run(id);
  db.close();
  return path;
}

describe('the side reader', () => {
  it('ranks a file’s items on its own thread as the archive’s worker does', { timeout: 30_000 }, async () => {
    const path = file();
    const side = sideReader(new URL('./archive-worker.ts', import.meta.url), { execArgv: ['--import', 'tsx'] });
    const q = sql`SELECT id, ${sampleRankSql('sqlite', PREFIX, sql`id`)} AS rk FROM items ORDER BY rowid`;
    try {
      // the first asks start it and are answered null: the caller does that work itself meanwhile
      let rows = await side.of(path).all<{ id: string; rk: string }>(q);
      expect(rows).toBeNull();
      for (let waited = 0; rows === null && waited < 25_000; waited += 50) {
        await sleep(50);
        rows = await side.of(path).all<{ id: string; rk: string }>(q);
      }
      expect(rows).toEqual(IDS.map((id) => ({ id, rk: sampleRank(PREFIX, id) })));
      await side.of(path).forget();
    } finally {
      await side.close();
    }
  });

  it('answers the first ask when it was started ahead of it', { timeout: 30_000 }, async () => {
    const path = file();
    const side = sideReader(new URL('./archive-worker.ts', import.meta.url), { execArgv: ['--import', 'tsx'] });
    const q = sql`SELECT id FROM items ORDER BY rowid`;
    try {
      await side.of(path).start();
      expect(await side.of(path).all<{ id: string }>(q)).toEqual(IDS.map((id) => ({ id })));
      await side.of(path).forget();
    } finally {
      await side.close();
    }
  });

  it('answers nothing when it cannot start, so the draw is done where it was asked', async () => {
    const path = file();
    const side = sideReader(new URL('./no-such-worker.ts', import.meta.url), { execArgv: ['--import', 'tsx'] });
    const q = sql`SELECT id FROM items`;
    expect(await side.of(path).all(q)).toBeNull();
    await sleep(500);
    expect(await side.of(path).all(q)).toBeNull();
    // nor does starting it ahead: it settles, and the asks after it are still answered nothing
    await side.of(path).start();
    expect(await side.of(path).all(q)).toBeNull();
    await side.close();
  });

  it(
    'copies a file’s log into the file beside its writer, and never makes a file that is gone',
    { timeout: 30_000 },
    async () => {
      // a name a file URL must escape, which SQLite's own URI reading must then undo
      const path = join(dir, 'log 50% #1 ?é.skein');
      const writer = new DatabaseSync(path);
      writer.exec('PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0; CREATE TABLE t (x TEXT)');
      writer.prepare('INSERT INTO t (x) VALUES (?)').run('kept');
      const side = sideReader(new URL('./archive-worker.ts', import.meta.url), { execArgv: ['--import', 'tsx'] });
      try {
        // what a copy of the file alone (a backup, a sync tool) holds while the writer is open
        const copied = () => {
          copyFileSync(path, join(dir, 'copy.skein'));
          rmSync(join(dir, 'copy.skein-wal'), { force: true });
          const db = new DatabaseSync(join(dir, 'copy.skein'), { readOnly: true });
          try {
            return db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 't'").get()?.n;
          } finally {
            db.close();
          }
        };
        expect(copied()).toBe(0);
        expect(await side.of(path).checkpoint()).toBe(false); // not running yet: the writer does it itself meanwhile
        await side.of(path).start();
        expect(await side.of(path).checkpoint()).toBe(true);
        expect(copied()).toBe(1);
        // the writer goes on, and its log starts again from its beginning
        writer.prepare('INSERT INTO t (x) VALUES (?)').run('after');
        expect(
          writer
            .prepare('SELECT x FROM t ORDER BY rowid')
            .all()
            .map((r) => r.x),
        ).toEqual(['kept', 'after']);

        const gone = join(dir, 'gone.skein');
        await expect(side.of(gone).checkpoint()).rejects.toThrow();
        expect(existsSync(gone)).toBe(false);
      } finally {
        writer.close();
        await side.close();
      }
    },
  );

  it(
    'has a project’s batches in its file soon after each is written, with the side reader or without one',
    { timeout: 60_000 },
    async () => {
      const init = { name: 'p', kind: 'live' as const, now: 1 };
      /** the posts the file holds without its log; null when the copy caught the side reader mid-checkpoint */
      const postsInFileAlone = (path: string) => {
        const copy = `${path}.copy`;
        copyFileSync(path, copy);
        const db = new DatabaseSync(copy, { readOnly: true });
        try {
          // the file alone may not hold even the schema yet: a new project's tables are in the log too
          if (!db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'items'").get()) return 0;
          return db.prepare("SELECT count(*) AS n FROM items WHERE kind = 'post'").get()?.n;
        } catch (e) {
          // a file copied while another thread writes pages into it is no snapshot: asked again, it is whole
          if (e instanceof Error && /malformed/.test(e.message)) return null;
          throw e;
        } finally {
          db.close();
          rmSync(copy);
        }
      };
      const entries = { beside: './archive-worker.ts', 'none (cannot start)': './no-such-worker.ts' };
      for (const [how, entry] of Object.entries(entries)) {
        const path = join(dir, `batches-${how.split(' ')[0]}.skein`);
        const side = sideReader(new URL(entry, import.meta.url), { execArgv: ['--import', 'tsx'] });
        const project = await ArchiveProject.open(path, init, Date.now, PARTS, side);
        try {
          await side.of(path).start();
          // small batches: under SQLite's own bound, which a writer alone waits for before it copies its log
          for (let page = 0; page < 5; page++) project.ingest([repliesPage(page * 20, 20, 1000)]);
          if (how === 'beside') {
            let n = postsInFileAlone(path);
            for (let waited = 0; n !== 100 && waited < 20_000; waited += 50) {
              await sleep(50);
              n = postsInFileAlone(path);
            }
            expect(n, how).toBe(100);
          } else expect(postsInFileAlone(path), how).toBe(0);
          // a batch past that bound (~4 MB): a writer without the side reader copies its log itself
          project.ingest(Array.from({ length: 160 }, (_, i) => repliesPage(1000 + i * 20, 20, 1000)));
          let n = postsInFileAlone(path);
          for (let waited = 0; n !== 3300 && waited < 20_000; waited += 50) {
            await sleep(50);
            n = postsInFileAlone(path);
          }
          expect(n, how).toBe(3300);
        } finally {
          project.close();
          await side.close();
        }
        expect(existsSync(`${path}-wal`), how).toBe(false);
      }
    },
  );
});
