import { mkdtemp, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ImportStore, MAX_OPEN_IMPORTS } from './import-store';

async function store() {
  const dir = join(await mkdtemp(join(tmpdir(), 'skein-imports-')), 'imports');
  return { dir, store: new ImportStore({ dir, now: () => 1_700_000_000_000 }) };
}

describe('ImportStore', () => {
  it('keeps distinct ids in first-seen order, counts repeats, and reads them back after a restart', async () => {
    const { dir, store: a } = await store();
    const imp = a.create('users', 'followers.csv');
    a.add(imp.importId, ['3', '1', '3']);
    expect(a.add(imp.importId, ['2', '1'])).toMatchObject({ ids: 3, repeated: 2, sealed: false });
    expect(await a.seal(imp.importId)).toMatchObject({ ids: 3, sealed: true, entity: 'users' });
    const b = new ImportStore({ dir, now: Date.now });
    expect(await b.ids(imp.importId)).toEqual(['3', '1', '2']);
    expect((await b.list()).map((m) => m.label)).toEqual(['followers.csv']);
  });

  it('checks every id again, whatever the page sent', async () => {
    const { store: s } = await store();
    const imp = s.create('posts', 'x');
    for (const bad of ['1.23E+18', '="123"', '12 3', '', '<b>1</b>', '1'.repeat(26), '١٢٣']) {
      expect(() => s.add(imp.importId, ['1', bad])).toThrow(/digits only/);
    }
    // nothing of a refused slice is kept
    expect(s.add(imp.importId, [])).toMatchObject({ ids: 0 });
  });

  it('refuses an empty list, unknown and forged import ids, and too many open lists', async () => {
    const { dir, store: s } = await store();
    const empty = s.create('posts', 'empty');
    await expect(s.seal(empty.importId)).rejects.toMatchObject({ code: 'bad-input' });
    expect(() => s.add('imp-doesnotexist', ['1'])).toThrow(/No id list/);
    for (const forged of ['imp-../../etc/passwd', '../x', 'imp-0000000000000000/../../a']) {
      await expect(s.ids(forged)).rejects.toMatchObject({ code: 'not-found' });
      expect(await s.meta(forged)).toBeNull();
    }
    for (let i = 1; i < MAX_OPEN_IMPORTS; i++) s.create('posts', `open ${i}`);
    expect(() => s.create('posts', 'one too many')).toThrow(/Too many id lists/);
    expect(await s.discard(empty.importId)).toBe(true);
    s.create('posts', 'room again');
    await expect(readdir(dir)).rejects.toThrow(); // nothing was written for lists never sealed
  });

  it('keeps a hydration’s missing ids and makes a new list of only those', async () => {
    const { store: s } = await store();
    const from = await s.createFrom('posts', 'dataset.txt', ['10', '11', '12']);
    const jobId = '0b6f1c3e-1a2b-4c3d-8e9f-001122334455';
    await s.saveMissing(jobId, from, [
      { id: '11', reason: 'not returned (deleted, protected or suspended)' },
      { id: '12', reason: 'returned, but Skein could not read it (bad date)' },
    ]);
    expect(await s.missing(jobId, 1, 5)).toEqual({
      total: 2,
      ids: [{ id: '12', reason: 'returned, but Skein could not read it (bad date)' }],
    });
    const retry = await s.retryMissing(jobId);
    expect(retry).toMatchObject({ ids: 2, label: 'Missing from dataset.txt', sealed: true });
    expect(await s.ids(retry.importId)).toEqual(['11', '12']);
    expect(await s.missing('not-a-job', 0, 5)).toBeNull();
    await s.saveMissing(jobId, from, []);
    await expect(s.retryMissing(jobId)).rejects.toMatchObject({ code: 'bad-input' });
    expect(await s.discard(from.importId)).toBe(true);
    await expect(s.ids(from.importId)).rejects.toMatchObject({ code: 'not-found' });
  });
});
