/** The bridge's media namespace: a keeping runs as a job the page polls, one per collection, cancelled by id. */
import { describe, expect, it } from 'vitest';
import { createMediaHandlers, type MediaProjectPort } from './handlers';
import type { KeepProgress } from './keep';

const ctx = { senderId: 1 };

function slowPort(): MediaProjectPort & { calls: number } {
  const port = {
    calls: 0,
    estimate: async () => ({ files: 3, alreadyKept: 0, knownBytes: 0, guessedBytes: 0, guessedFiles: 3, seconds: 1 }),
    keep: async (_c: number, signal?: AbortSignal, onProgress?: (p: KeepProgress) => void) => {
      port.calls++;
      const p: KeepProgress = { total: 3, done: 0, kept: 0, storedBytes: 0, failed: 0, reasons: {} };
      for (let i = 0; i < 3 && !signal?.aborted; i++) {
        await new Promise((r) => setTimeout(r, 20));
        p.done++;
        p.kept++;
        p.storedBytes += 100;
        onProgress?.({ ...p });
      }
      return { ...p, alreadyKept: 0, cancelled: signal?.aborted ?? false };
    },
    keptIn: async () => [],
    read: async () => null,
  };
  return port;
}

const until = async (check: () => Promise<boolean>) => {
  for (let i = 0; i < 200 && !(await check()); i++) await new Promise((r) => setTimeout(r, 10));
};

describe('keeping media as a job', () => {
  it('runs once per collection at a time, reports progress and how it ended', async () => {
    const port = slowPort();
    const { handlers } = createMediaHandlers(port);
    const job = await handlers.media.keep({ collection: 4 }, ctx);
    expect(job.state).toBe('running');
    // a second click while it runs is the same job, not a second keeping
    expect((await handlers.media.keep({ collection: 4 }, ctx)).id).toBe(job.id);
    await until(async () => (await handlers.media.job({ id: job.id }, ctx))?.state === 'done');
    expect(await handlers.media.job({ id: job.id }, ctx)).toMatchObject({ state: 'done', done: 3, storedBytes: 300 });
    expect(port.calls).toBe(1);
    expect(await handlers.media.cancel({ id: job.id }, ctx)).toEqual({ cancelled: false });
  });

  it('a cancel stops the job, which says so', async () => {
    const { handlers } = createMediaHandlers(slowPort());
    const job = await handlers.media.keep({ collection: 5 }, ctx);
    expect(await handlers.media.cancel({ id: job.id }, ctx)).toEqual({ cancelled: true });
    await until(async () => (await handlers.media.job({ id: job.id }, ctx))?.state !== 'running');
    expect((await handlers.media.job({ id: job.id }, ctx))?.state).toBe('cancelled');
    expect(await handlers.media.job({ id: 'nope' }, ctx)).toBeNull();
  });
});
