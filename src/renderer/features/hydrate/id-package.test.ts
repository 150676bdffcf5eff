/**
 * Reading a package for re-hydration in the window: the id file of the tab's kind, found at the zip's root or one
 * folder down, stored or deflated; a zip of the other kind, no ids, not a zip, cut short or expanding without end
 * each said in words, the bomb stopped at the bound.
 */
import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { idsFromPackage } from './id-package';

const ids = '1850000000000000001\n1850000000000000002\n';
const blob = (bytes: Uint8Array) => new Blob([new Uint8Array(bytes)]);

describe('a package for re-hydration read in the window', () => {
  it('reads the id file of the tab’s kind, deflated or stored, at the root or one folder down', async () => {
    const zip = zipSync({
      'post_ids.txt': strToU8(ids),
      'README.txt': strToU8('read me'),
      'manifest.json': strToU8('{}'),
    });
    expect(await idsFromPackage(blob(zip), 'posts')).toEqual({ ok: true, file: 'post_ids.txt', text: ids });
    const stored = zipSync({ 'shared/user_ids.txt': [strToU8('42\n'), { level: 0 }] });
    expect(await idsFromPackage(blob(stored), 'users')).toEqual({
      ok: true,
      file: 'shared/user_ids.txt',
      text: '42\n',
    });
  });

  it('says which tab reads a package of the other kind, and what a package holds', async () => {
    const users = zipSync({ 'user_ids.txt': strToU8('42\n') });
    expect(await idsFromPackage(blob(users), 'posts')).toEqual({
      ok: false,
      problem: 'This zip holds user_ids.txt, not post_ids.txt: read it in the User ids tab.',
    });
    const none = zipSync({ 'items.csv': strToU8('item_id\np_1\n') });
    expect(await idsFromPackage(blob(none), 'posts')).toMatchObject({
      ok: false,
      problem: expect.stringContaining('holds no post_ids.txt'),
    });
  });

  it('says a file that is not a zip, or is cut short, could not be read', async () => {
    expect(await idsFromPackage(blob(strToU8('1850000000000000001\n')), 'posts')).toMatchObject({ ok: false });
    const zip = zipSync({ 'post_ids.txt': strToU8(ids.repeat(5_000)) });
    const cut = await idsFromPackage(blob(zip.subarray(0, Math.floor(zip.length / 2))), 'posts');
    expect(cut).toMatchObject({ ok: false, problem: expect.stringContaining('could not be read to its end') });
  });

  it('stops a zip that expands without end at the bound, and says so', async () => {
    // 64 MB of one id, a few hundred KB zipped
    const bomb = zipSync({ 'post_ids.txt': new Uint8Array(64 * 2 ** 20).fill(0x31) }, { level: 9 });
    expect(bomb.length).toBeLessThan(2 ** 20);
    expect(await idsFromPackage(blob(bomb), 'posts', 2 ** 20)).toEqual({
      ok: false,
      problem: 'post_ids.txt in this zip holds more than 1 MB of ids: unzip it and read post_ids.txt itself.',
    });
  });
});
