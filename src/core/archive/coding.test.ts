/**
 * Coding in a project file: a project written before coding existed is migrated in place. What the coding
 * tables keep and read is asserted on both stores by store.test.ts (testing/coding-suite.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { PARTS } from '../compose/parts';
import { ArchiveProject } from './project';
import { SCHEMA_VERSION } from './schema';
import type { WatchTables } from '../watch';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('coding in the project file', () => {
  it('migrates a project of the format before coding in place', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skein-coding-'));
    dirs.push(dir);
    const path = join(dir, 'p.skein');
    (await ArchiveProject.open(path, { name: 'P', kind: 'live', now: 0 }, Date.now, PARTS)).close();
    // version 2: before coding (3), watches (4) and who collected what (5)
    const db = new DatabaseSync(path);
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
    db.exec('ALTER TABLE requests DROP COLUMN researcher; ALTER TABLE collections DROP COLUMN researcher');
    db.exec('DROP TABLE parts; PRAGMA user_version = 2'); // a file from before parts kept their own versions
    db.close();
    const again = await ArchiveProject.open(path, { name: 'P', kind: 'live', now: 0 }, Date.now, PARTS);
    expect(again.coding.codebooks()).toEqual([]);
    expect(await (again.parts.get('watch') as WatchTables).watches()).toEqual([]);
    again.close();
    const check = new DatabaseSync(path, { readOnly: true });
    expect(check.prepare('PRAGMA user_version').get()).toEqual({ user_version: SCHEMA_VERSION });
    check.close();
  });
});
