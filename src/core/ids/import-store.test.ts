import { mkdtemp, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { MissingId } from '../../shared/ipc/ids';
import { MAYBE_ROUNDED } from '../../shared/ids/id-token';
import { ImportStore, MAX_OPEN_IMPORTS } from './import-store';

/** every id of a kept list, read batch by batch as a hydration reads it */
async function allIds(s: ImportStore, importId: string): Promise<string[]> {
  const list = await s.idList(importId, 2);
  const out: string[] = [];
  for (let i = 0; i < list.batches; i++) out.push(...(await list.batch(i)));
  expect(out).toHaveLength(list.count);
  return out;
}

const missingList = (ids: MissingId[]) => ({
  count: ids.length,
  possiblyRounded: ids.filter((m) => m.reason.includes('spreadsheet-rounded')).length,
  ids: async function* () {
    yield* ids;
  },
});

async function store() {
  const dir = join(await mkdtemp(join(tmpdir(), 'skein-imports-')), 'imports');
  return { dir, store: new ImportStore({ dir, now: () => 1_700_000_000_000 }) };
}

describe('ImportStore', () => {
  it('keeps distinct ids in first-seen order, counts repeats, and reads them back after a restart', async () => {
    const { dir, store: a } = await store();
    const imp = a.create('users', 'followers.txt', { format: 'txt' });
    a.append(imp.importId, '3\n1\n3\n2\n');
    expect(a.append(imp.importId, '2\n1\n')).toMatchObject({ ids: 3, sealed: false });
    const sealed = await a.seal(imp.importId);
    expect(sealed).toMatchObject({ ids: 3, sealed: true, entity: 'users', report: { lines: 6, duplicates: 3 } });
    const b = new ImportStore({ dir, now: Date.now });
    expect(await allIds(b, imp.importId)).toEqual(['3', '1', '2']);
    expect(await b.list()).toEqual([sealed]);
  });

  it('names the lists a newer Skein kept (or damaged ones) instead of leaving them out, and leaves their files', async () => {
    const { dir, store: a } = await store();
    const imp = a.create('posts', 'ours.txt', { format: 'txt' });
    a.append(imp.importId, '1\n2\n');
    const ours = await a.seal(imp.importId);
    const newer = JSON.stringify({
      ...ours,
      importId: 'imp-newer0001',
      entity: 'communities',
      label: 'Their communities',
    });
    await writeFile(join(dir, 'imp-newer0001.json'), newer);
    await writeFile(join(dir, 'imp-damaged01.json'), '{"label":');
    await writeFile(join(dir, 'notes.json'), '{}');
    const b = new ImportStore({ dir, now: Date.now });
    expect(await b.list()).toEqual([ours]);
    expect(await b.unread()).toEqual([
      { importId: 'imp-newer0001', label: 'Their communities', createdAt: ours.createdAt },
      { importId: 'imp-damaged01', label: null, createdAt: null },
    ]);
    expect(b.folder).toBe(dir);
    expect(await readFile(join(dir, 'imp-newer0001.json'), 'utf8')).toBe(newer);
  });

  it('keeps an id ending in zeros in its place, and takes such ids back out of the kept file when refused', async () => {
    const { store: s } = await store();
    const long = (i: number) => String(1_850_000_001_234_560_001n + BigInt(i) * 7n);
    const genuine = Array.from({ length: 5_000 }, (_, i) => long(i)).filter((id) => !id.endsWith('0000'));
    const zeros = (i: number) => String(1_850_000_002_000_000_000n + BigInt(i) * 10_000n);
    // one among thousands: chance, kept where it was
    const one = [...genuine.slice(0, 2_000), zeros(0), ...genuine.slice(2_000)];
    const a = s.create('posts', 'one.txt', { format: 'txt' });
    s.append(a.importId, one.join('\n'));
    expect(await s.seal(a.importId)).toMatchObject({ ids: one.length, report: { damagedTotal: 0 } });
    expect(await allIds(s, a.importId)).toEqual(one);
    // one in fifty: a rounded column; the file (written as it was read, past its first pieces) holds the others
    const many = genuine.flatMap((id, i) => (i % 50 === 0 ? [zeros(i), id] : [id]));
    const b = s.create('posts', 'many.txt', { format: 'txt' });
    s.append(b.importId, many.join('\n'));
    const sealed = await s.seal(b.importId);
    expect(sealed).toMatchObject({ ids: genuine.length, report: { damagedTotal: many.length - genuine.length } });
    expect(await allIds(s, b.importId)).toEqual(genuine);
  });

  it('refuses hostile lines with their line and why, and never keeps them', async () => {
    const { store: s } = await store();
    const imp = s.create('posts', 'x', { format: 'txt' });
    const hostile = ['1.23E+18', '<b>1</b>', '1'.repeat(26), '١٢٣', '0123', '12 3', '="7"'];
    s.append(imp.importId, hostile.join('\n'));
    const sealed = await s.seal(imp.importId);
    expect(sealed.ids).toBe(1);
    expect(await allIds(s, imp.importId)).toEqual(['7']);
    expect(sealed.report?.damagedTotal).toBe(1);
    expect(sealed.report?.invalid.map((r) => r.line)).toEqual([2, 3, 4, 5, 6]);
  });

  it('does not keep a list with no ids, and says why', async () => {
    const { dir, store: s } = await store();
    const imp = s.create('posts', 'empty', { format: 'paste' });
    s.append(imp.importId, 'hello, 1.2E+18');
    const sealed = await s.seal(imp.importId);
    expect(sealed).toMatchObject({ ids: 0, sealed: false, report: { invalidTotal: 1, damagedTotal: 1 } });
    await expect(allIds(s, imp.importId)).rejects.toMatchObject({ code: 'not-found' });
    await expect(readdir(dir)).rejects.toThrow(); // nothing written
  });

  it('writes a list being read to disk as it comes (never held whole), and leaves no file of a list not kept', async () => {
    const { dir, store: s } = await store();
    const imp = s.create('posts', 'big.txt', { format: 'txt' });
    // 60,000 ids of 19 digits: 1.2 MB of lines, more than the one piece an open list holds in memory
    const ids = Array.from({ length: 60_000 }, (_, i) => String(1_600_000_000_000_000_000n + BigInt(i) * 7919n));
    s.append(imp.importId, `${ids.join('\n')}\n`);
    const [part] = await readdir(dir);
    expect(part).toBe(`${imp.importId}.${process.pid}.ids.part`);
    expect((await stat(join(dir, part!))).size).toBeGreaterThanOrEqual(1_000_000);
    expect(await s.seal(imp.importId)).toMatchObject({ ids: 60_000, sealed: true });
    expect((await readdir(dir)).sort()).toEqual([`${imp.importId}.ids`, `${imp.importId}.json`]);
    // in order, those ending in zeros (that look rounded by a spreadsheet, judged at the end) in their places too
    expect(await allIds(s, imp.importId)).toEqual(ids);

    // given up while open: its file goes; one a killed Skein left is removed by the next store that reads a list
    const dropped = s.create('posts', 'dropped.txt', { format: 'txt' });
    s.append(dropped.importId, `${ids.join('\n')}\n`);
    expect(await s.discard(dropped.importId)).toBe(true);
    // a Skein killed while reading (its process gone: no pid past Linux's largest), and another still reading
    // into the same folder (the app beside a headless runner: a running process)
    await writeFile(join(dir, `killed.${4_194_400}.ids.part`), '1\n');
    await writeFile(join(dir, `reading.${process.ppid}.ids.part`), '1\n');
    const next = new ImportStore({ dir, now: () => 1 });
    next.create('posts', 'after the restart', { format: 'txt' });
    expect((await readdir(dir)).sort()).toEqual(
      [`${imp.importId}.ids`, `${imp.importId}.json`, `reading.${process.ppid}.ids.part`].sort(),
    );
  });

  it('refuses unknown and forged import ids, and too many open lists', async () => {
    const { store: s } = await store();
    expect(() => s.append('imp-doesnotexist', '1')).toThrow(/No id list/);
    for (const forged of ['imp-../../etc/passwd', '../x', 'imp-0000000000000000/../../a']) {
      await expect(allIds(s, forged)).rejects.toMatchObject({ code: 'not-found' });
      expect(await s.meta(forged)).toBeNull();
    }
    const first = s.create('posts', 'open 0', { format: 'txt' });
    for (let i = 1; i < MAX_OPEN_IMPORTS; i++) s.create('posts', `open ${i}`, { format: 'txt' });
    expect(() => s.create('posts', 'one too many', { format: 'txt' })).toThrow(/Too many id lists/);
    expect(await s.discard(first.importId)).toBe(true);
    expect(s.create('posts', 'room again', { format: 'txt' }).sealed).toBe(false);
  });

  it('keeps a list of @handles for resolving, and extends a list with the ids they resolved to', async () => {
    const { store: s } = await store();
    const imp = s.create('users', 'mixed.txt', { format: 'txt' });
    s.append(imp.importId, '@ann\n12\nhttps://x.com/bob\n@ANN\n');
    const sealed = await s.seal(imp.importId);
    expect(sealed).toMatchObject({ ids: 1, sealed: true, report: { handles: 2, handleList: ['ann', 'bob'] } });
    const handlesOnly = s.create('users', 'handles.txt', { format: 'txt' });
    s.append(handlesOnly.importId, '@carol\n');
    expect(await s.seal(handlesOnly.importId)).toMatchObject({ ids: 0, sealed: true });

    const more = await s.extend(imp.importId, 'mixed.txt with handles');
    expect(more).toMatchObject({ ids: 1, sealed: false, entity: 'users' });
    s.append(more.importId, '44\n12\n');
    expect(await s.seal(more.importId)).toMatchObject({ ids: 2, sealed: true });
    expect(await allIds(s, more.importId)).toEqual(['12', '44']);
    await expect(s.extend('imp-notakeptlist00', 'x')).rejects.toMatchObject({ code: 'not-found' });
  });

  it('keeps a hydration’s missing ids and makes a new list of only those', async () => {
    const { store: s } = await store();
    const from = await s.createFrom('posts', 'dataset.txt', ['10', '11', '12']);
    const jobId = '0b6f1c3e-1a2b-4c3d-8e9f-001122334455';
    await s.saveMissing(
      jobId,
      from,
      missingList([
        { id: '11', reason: 'not returned (deleted, protected or suspended)' },
        { id: '12', reason: 'returned, but Skein could not read it (bad date)' },
        { id: '1234567890123450000', reason: MAYBE_ROUNDED },
      ]),
    );
    expect(await s.hydrations(from.importId)).toEqual([
      { jobId, missing: 3, possiblyRounded: 1, at: 1_700_000_000_000 },
    ]);
    expect(await s.hydrations('imp-someotherlist00')).toEqual([]);
    expect(await s.missing(jobId, 1, 5)).toEqual({
      total: 3,
      ids: [
        { id: '12', reason: 'returned, but Skein could not read it (bad date)' },
        { id: '1234567890123450000', reason: MAYBE_ROUNDED },
      ],
    });
    const retry = await s.retryMissing(jobId);
    // the id that looks rounded is refused on its own (too few long ids to tell it from a damaged one)
    expect(retry).toMatchObject({
      ids: 2,
      label: 'Missing from dataset.txt',
      sealed: true,
      report: { damagedTotal: 1 },
    });
    expect(await allIds(s, retry.importId)).toEqual(['11', '12']);
    expect(await s.missing('not-a-job', 0, 5)).toBeNull();
    await s.saveMissing(jobId, from, missingList([]));
    await expect(s.retryMissing(jobId)).rejects.toMatchObject({ code: 'bad-input' });
    expect(await s.discard(from.importId)).toBe(true);
    await expect(allIds(s, from.importId)).rejects.toMatchObject({ code: 'not-found' });
  });
});
