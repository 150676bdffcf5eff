/**
 * Coding's tables in projects made before they were the coding area's part: a project of the format before
 * coding gets them in place, and one that had them from the archive's schema keeps them (recorded, not made
 * again), on a project file and on a team's schema.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CodebookDefinition } from '../../../shared/coding/codebook';
import { ArchiveProject } from '../../archive/project';
import type { WatchTables } from '../../watch';
import type { ProjectStore as Project } from '../../archive/store';
import { SCHEMA_VERSION } from '../../archive/schema';
import { STORES } from '../../archive/testing/stores';
import { PARTS } from '../../compose/parts';
import { CODING_PART } from './part';
import type { CodingTables } from './tables';

const coding = (p: Project) => p.parts.get(CODING_PART.name) as CodingTables;

const CODING_TABLES = [
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
];

const definition = CodebookDefinition.parse({ fields: [{ key: 'note', label: 'Note', type: 'text' }] });

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
    // version 2: before coding (3), watches (4) and who collected what (5), and before parts kept versions
    const db = new DatabaseSync(path);
    for (const table of [
      ...CODING_TABLES,
      'watches',
      'watch_runs',
      'watch_gaps',
      'watch_presence',
      'watch_counters',
      'watch_runner',
      'parts',
    ])
      db.exec(`DROP TABLE IF EXISTS ${table}`);
    db.exec('ALTER TABLE requests DROP COLUMN researcher; ALTER TABLE collections DROP COLUMN researcher');
    db.exec('PRAGMA user_version = 2');
    db.close();
    const again = await ArchiveProject.open(path, { name: 'P', kind: 'live', now: 0 }, Date.now, PARTS);
    expect(await coding(again).codebooks()).toEqual([]);
    expect(await (again.parts.get('watch') as WatchTables).watches()).toEqual([]);
    again.close();
    const check = new DatabaseSync(path, { readOnly: true });
    expect(check.prepare('PRAGMA user_version').get()).toEqual({ user_version: SCHEMA_VERSION });
    check.close();
  });
});

describe.each(STORES)('coding in a project made before parts kept versions, on $name', (s) => {
  beforeAll(() => s.setup(), 120_000);
  afterAll(() => s.teardown());
  const run = s.skip ? describe.skip : describe;

  /** runs `sql` on the project `init` names, as a project file or a team's schema */
  const exec = (init: ReturnType<typeof s.fresh>, sql: (schema: string) => string) => {
    if (init.store === 'postgres') {
      s.cluster?.().psql(sql(`${init.connection.schema}.`));
      return;
    }
    const db = new DatabaseSync(init.path);
    db.exec(sql(''));
    db.close();
  };

  run(`(${s.skip ?? 'running'})`, () => {
    it('keeps the coding tables the archive made, recorded rather than made again', async () => {
      const init = s.fresh();
      const first = await s.open(init);
      const book = await coding(first).createCodebook('Stance', definition, '');
      await first.close();
      // as projects were before parts kept versions: coding's first tables there (not the switches, which came
      // later), no record of parts
      exec(init, (schema) => `DROP TABLE ${schema}parts; DROP TABLE ${schema}coder_switches`);
      const again = await s.open(init);
      expect((await coding(again).codebooks()).map((b) => b.id)).toEqual([book]);
      // and the later migration made what came after them
      expect(await coding(again).switches(5)).toEqual([]);
      await again.close();
    });

    // a file of version 2 is migrated above; a team's schema of version 1 had neither coding's nor watch's tables
    it.runIf(s.name === 'postgres')('makes the coding tables in a team project of the format before them', async () => {
      const init = s.fresh();
      await (await s.open(init)).close();
      exec(
        init,
        (schema) =>
          `${[
            ...CODING_TABLES,
            'watches',
            'watch_runs',
            'watch_gaps',
            'watch_presence',
            'watch_counters',
            'watch_runner',
            'parts',
          ]
            .map((t) => `DROP TABLE IF EXISTS ${schema}${t};`)
            .join(' ')}
           DROP FUNCTION IF EXISTS ${schema}skein_json_text, ${schema}skein_json_type;
           DROP TABLE IF EXISTS ${schema}fts_words;
           DROP FUNCTION IF EXISTS ${schema}skein_fts_words_added, ${schema}skein_fts_words_changed CASCADE;
           DELETE FROM ${schema}schema_version WHERE version > 1`,
      );
      const again = await s.open(init);
      expect(await coding(again).codebooks()).toEqual([]);
      await again.close();
    });
  });
});
