/**
 * The archive worker's module started again with the side reader's data serves a project file's second reader:
 * the file's rows with each item's sample rank worked out on that thread, the rank the archive's worker gives.
 * A side reader that cannot start answers nothing, and the draw does its work where it is.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { sampleRank, sampleRankSql, sideReader, sql } from '../db';

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
});
