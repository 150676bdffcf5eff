/**
 * Dehydrate: an export as ids only (plain digits, one per line, no header) that the id import reads back
 * to the same ids; post ids or user ids, never mixed; the manifest beside it.
 */
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ExportOptions, ViewDescriptor } from '../../shared/ipc/export';
import { importIds } from '../ids/id-import';
import { FakeClock } from '../testing/fake-clock';
import { ExportService } from '../export/export-service';
import type { ExportManifest } from './manifest';
import { memorySource, post } from '../export/testing/memory-source';
import { sidecarPath } from './format';

const context = () => ({ appName: 'Skein', appVersion: '0.1.0', mode: 'demo' as const, baseUrl: 'http://127.0.0.1:1' });
const BIG = '9223372036854775807';

const items = [
  post(BIG, null, { author: { id: '11', userName: 'a' } }),
  post('1234567890123456789', BIG, { author: { id: '12', userName: 'b' } }),
  post('5', BIG, { author: { id: '11', userName: 'a' } }),
  // hostile: an item whose ids are not digits never reaches the list
  post('<x>', BIG, { author: { id: 'x\ny', userName: 'c' } }),
];

async function dehydrate(options: ExportOptions, view?: ViewDescriptor) {
  const dir = await mkdtemp(join(tmpdir(), 'skein-ids-'));
  const service = new ExportService({
    source: memorySource([{ items: items.slice(0, 2) }, { items: items.slice(2) }]),
    stateDir: join(dir, 'state'),
    clock: new FakeClock(),
    context,
  });
  const target = join(dir, 'x.txt');
  const job = await service.start({
    view: view ?? { kind: 'thread', operation: 'postRepliesV2', params: { tweetId: BIG } },
    format: 'ids',
    scope: 'all',
    targetPath: target,
    options,
  });
  const done = await service.settled(job.id);
  expect(done.status).toBe('complete');
  expect(done.files).toEqual([target, sidecarPath(target)]);
  const manifest = JSON.parse(await readFile(sidecarPath(target), 'utf8')) as ExportManifest;
  return { text: await readFile(target, 'utf8'), manifest };
}

describe('dehydrate (ids only)', () => {
  it('post ids: plain digits, one per line, no header, each once, in collection order', async () => {
    const { text, manifest } = await dehydrate({ idsOf: 'posts' });
    expect(text).toBe(`${BIG}\n1234567890123456789\n5\n`);
    expect(manifest.ids).toMatchObject({ of: 'posts' });
    expect(manifest.row_provenance).toBeNull();
    // the import reads it back to the same ids, nothing refused
    const back = await importIds([text], { kind: 'posts', source: { format: 'txt' } });
    expect(back.ids).toEqual([BIG, '1234567890123456789', '5']);
    expect(back.invalidTotal + back.damagedTotal + back.duplicates).toBe(0);
  });

  it('user ids of a post view: its authors, each once', async () => {
    const { text, manifest } = await dehydrate({ idsOf: 'users' });
    expect(text).toBe('11\n12\n');
    expect(manifest.ids?.of).toBe('users');
  });
});
