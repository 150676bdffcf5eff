/**
 * What a person waits for: an export is shown complete once its file is whole, not after the project has
 * kept it as a collection (`onWritten` reads the journal again and writes to the archive).
 */
import { mkdtemp, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ExportJob } from '../../shared/ipc/export';
import { FakeClock } from '../testing/fake-clock';
import { ExportService } from './export-service';
import { memorySource, post } from './testing/memory-source';

describe('ExportService and onWritten', () => {
  it('says complete (file whole, finish time set) before the collection is kept, and once', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'skein-written-'));
    const updates: ExportJob[] = [];
    let keep: () => void = () => undefined;
    const kept = new Promise<void>((resolve) => (keep = resolve));
    let seenWhileKeeping: ExportJob | undefined;
    const service = new ExportService({
      source: memorySource([{ items: [post('1000000000000000001'), post('1000000000000000002')] }]),
      stateDir: join(dir, 'state'),
      clock: new FakeClock(),
      context: () => ({ appName: 'Skein', appVersion: 'test', mode: 'demo', baseUrl: 'http://127.0.0.1:1' }),
      onUpdate: (job) => updates.push(job),
      onWritten: async () => {
        seenWhileKeeping = updates.at(-1);
        await kept;
      },
    });
    const target = join(dir, 'posts.csv');
    const job = await service.start({
      view: {
        kind: 'postsByIds',
        operation: 'postsByIds',
        params: { tweet_ids: '1000000000000000001,1000000000000000002' },
      },
      format: 'csv',
      scope: 'all',
      targetPath: target,
    });
    await expect.poll(() => seenWhileKeeping?.status).toBe('complete');
    expect(seenWhileKeeping?.finishedAt).not.toBeNull();
    expect((await stat(target)).size).toBeGreaterThan(0);
    keep();
    const done = await service.settled(job.id);
    expect(done.status).toBe('complete');
    expect(done.finishedAt).toBe(seenWhileKeeping?.finishedAt);
  });
});
