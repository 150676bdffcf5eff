/**
 * The project copied as Parquet for a DuckDB script: read back by DuckDB, each item's id, JSON and words are the
 * project's own, hostile text included; a copy that fails part-way leaves the one before it whole and no part behind.
 */
import { DuckDBInstance } from '@duckdb/node-api';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postFixture, userFixture } from '../../shared/api/fixtures';
import { searchTokens } from '../../shared/search/tokens';
import { DATASET_FILES, writeDataset } from './dataset';
import type { ProjectStore, Snapshot } from './store';
import { rec, repliesAnswer } from './testing/answers';
import { makeStores } from './testing/stores';

const store = makeStores().find((s) => s.name === 'sqlite')!;

const HOSTILE = [
  { id: '1900000000000000001', text: '<script>alert(1)</script> Héron ﬁsh “quoted” \\ 中文 😀', handle: 'ada' },
  { id: '1900000000000000002', text: 'x'.repeat(100_000), handle: 'Bob' },
  { id: '1900000000000000003', text: '', handle: '' },
];

describe('the project copied as Parquet', () => {
  let dir = '';
  let project: ProjectStore;
  beforeAll(async () => {
    await store.setup();
    dir = mkdtempSync(join(tmpdir(), 'skein-dataset-'));
    project = await store.open();
    // a count past 2^53 and an empty nested object, kept as received
    const raws = HOSTILE.map((h) => ({
      ...postFixture,
      id: h.id,
      text: h.text,
      likeCount: 424242,
      card: {},
      author: { ...userFixture, userName: h.handle, name: `${h.handle} Ünïcode` },
    }));
    await project.ingest([rec(repliesAnswer(raws).replaceAll('424242', '12345678901234567890'))]);
    await project.createCollection({ name: 'c', kind: 'export', manifest: {} });
  });
  afterAll(async () => {
    await project.close();
    store.teardown();
    rmSync(dir, { recursive: true, force: true });
  });

  it("DuckDB reads back each item's id, JSON and words as the project holds them", async () => {
    const report = await writeDataset(project, join(dir, 'a'));
    expect(report.items).toBe(HOSTILE.length);
    const db = await DuckDBInstance.create(':memory:');
    const con = await db.connect();
    try {
      const rows = (
        await con.runAndReadAll(
          `SELECT id, raw, words_text, words_handle FROM read_parquet('${join(dir, 'a', DATASET_FILES.items)}') ORDER BY rowid`,
        )
      ).getRowObjects() as Array<{ id: string; raw: string; words_text: string; words_handle: string }>;
      expect(rows.map((r) => r.id)).toEqual(HOSTILE.map((h) => h.id));
      const held = await project.heldItems(
        'post',
        HOSTILE.map((h) => h.id),
        true,
      );
      for (const row of rows) {
        const h = HOSTILE.find((x) => x.id === row.id)!;
        expect(row.raw).toBe(held.find((x) => x.id === row.id)!.raw);
        expect(row.raw).toContain('12345678901234567890');
        expect(row.words_text).toBe(` ${searchTokens(h.text).join(' ')} `);
        expect(row.words_handle).toBe(` ${searchTokens(h.handle).join(' ')} `);
      }
      expect(rows[0]!.words_text).toContain(' heron fish ');
    } finally {
      con.closeSync();
      db.closeSync();
    }
  });

  it('a copy that fails part-way leaves the earlier copy whole and no part behind', async () => {
    const folder = join(dir, 'b');
    await writeDataset(project, folder);
    const before = statSync(join(folder, DATASET_FILES.items)).size;
    // the project goes away after its first chunk of items
    const failing: ProjectStore = Object.create(project) as ProjectStore;
    (failing as { snapshot: () => Promise<Snapshot> }).snapshot = async () => {
      const s = await project.snapshot();
      let calls = 0;
      return {
        ...s,
        rows: (spec, after, limit) => {
          if (++calls > 1) throw new Error('the server went away');
          return s.rows(spec, after, limit);
        },
      };
    };
    await expect(writeDataset(failing, folder)).rejects.toThrow('the server went away');
    expect(statSync(join(folder, DATASET_FILES.items)).size).toBe(before);
    expect(existsSync(join(folder, DATASET_FILES.collectionItems))).toBe(true);
    expect(readdirSync(folder).filter((f) => f.endsWith('.partial'))).toEqual([]);
  });
});
