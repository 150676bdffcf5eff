/**
 * The bridge's media namespace: a keeping runs as a job the page polls, one per collection, cancelled by id; a
 * check re-hashes every kept file of the project (on a project file and a team's PostgreSQL schema) and names a
 * flipped byte and a deleted file with the posts they were kept for.
 */
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateParts } from '../db';
import { DIALECTS } from '../db/testing/dialects';
import { createMediaHandlers, type MediaProjectPort } from './handlers';
import type { KeepProgress } from './keep';
import { MEDIA_PART } from './tables/part';
import { verifyMedia } from './verify';

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
      return { ...p, alreadyKept: 0, cancelled: signal?.aborted ?? false, timestamp: null };
    },
    estimateView: async () => ({
      files: 3,
      alreadyKept: 0,
      knownBytes: 0,
      guessedBytes: 0,
      guessedFiles: 3,
      seconds: 1,
      posts: 3,
      partial: false,
    }),
    keptIn: async () => [],
    read: async () => null,
    verify: async () => ({
      checked: 0,
      bytes: 0,
      matched: 0,
      changed: [],
      missing: [],
      tokens: { checked: 0, problems: [] },
      pages: { checked: 0, matched: 0, unrecorded: 0, problems: [], folder: '', tokens: 0, tokenProblems: [] },
    }),
    evidence: async () => null,
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

describe.each(DIALECTS)('checking kept files on $name', (d) => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'skein-check-'));
    await d.setup();
  }, 120_000);
  afterAll(async () => {
    await d.teardown();
    await rm(root, { recursive: true, force: true });
  });
  const maybe = d.skip ? it.skip : it;
  if (d.skip) it.skip(`(${d.skip})`, () => undefined);

  /** three files kept for three posts (the third file for two), as keeping them would record them */
  const keepThree = async () => {
    const db = await d.fresh();
    await migrateParts(db, [MEDIA_PART], 0);
    const store = MEDIA_PART.open(db, { now: Date.now });
    const folder = join(root, `${d.name}-${Math.random().toString(36).slice(2)}-media`);
    await mkdir(folder, { recursive: true });
    const files = [];
    for (const [i, text] of ['first photo', 'second photo', 'a video'].entries()) {
      const bytes = Buffer.from(text.repeat(1000));
      const sha256 = createHash('sha256').update(bytes).digest('hex');
      const name = `${sha256}.jpg`;
      await writeFile(join(folder, name), bytes);
      const file = { sha256, size: bytes.length, mime: 'image/jpeg', name };
      const at = Date.UTC(2026, 10, 1, 12, i);
      const fetch = { status: 200, file, reason: null, message: null, at };
      await store.recordFetch({
        ...fetch,
        url: `https://media.example/${i}.jpg`,
        postId: `10${i}`,
        mediaKey: `3_${i}`,
      });
      if (i === 2)
        await store.recordFetch({ ...fetch, url: `https://media.example/${i}.jpg`, postId: '200', mediaKey: '3_9' });
      files.push({ ...file, at, path: join(folder, name) });
    }
    const port = {
      ...slowPort(),
      verify: async (p?: (c: number, t: number) => void) => ({
        ...(await verifyMedia(store, folder, p)),
        pages: { checked: 0, matched: 0, unrecorded: 0, problems: [], folder: '', tokens: 0, tokenProblems: [] },
      }),
    };
    return { handlers: createMediaHandlers(port).handlers, files };
  };

  /** "Check kept files": the check started, followed until it ends (a second click joins it), its result */
  const check = async (handlers: ReturnType<typeof createMediaHandlers>['handlers']) => {
    const job = await handlers.media.verify(undefined, ctx);
    expect((await handlers.media.verify(undefined, ctx)).id).toBe(job.id);
    await until(async () => (await handlers.media.verifyJob({ id: job.id }, ctx))?.state !== 'running');
    const ended = await handlers.media.verifyJob({ id: job.id }, ctx);
    expect(ended).toMatchObject({ state: 'done', checked: 3, total: 3 });
    return ended?.result;
  };

  maybe('a project whose files are as kept: every one matches, with their size', async () => {
    const { handlers, files } = await keepThree();
    expect(await check(handlers)).toEqual({
      checked: 3,
      bytes: files.reduce((a, f) => a + f.size, 0),
      matched: 3,
      mismatches: [],
      tokens: 0,
      tokenProblems: [],
      pages: { checked: 0, matched: 0, unrecorded: 0, problems: [], folder: '', tokens: 0, tokenProblems: [] },
    });
  });

  maybe('a flipped byte and a deleted file are each named, with the posts they were kept for', async () => {
    const { handlers, files } = await keepThree();
    const [flipped, , deleted] = files as [(typeof files)[0], (typeof files)[0], (typeof files)[0]];
    const bytes = await readFile(flipped.path);
    bytes.writeUInt8((bytes[0] as number) ^ 1, 0);
    await writeFile(flipped.path, bytes);
    await unlink(deleted.path);

    const result = await check(handlers);
    expect(result).toMatchObject({ checked: 3, matched: 1 });
    expect(result?.mismatches).toEqual([
      {
        name: flipped.name,
        expected: flipped.sha256,
        found: createHash('sha256').update(bytes).digest('hex'),
        size: flipped.size,
        keptAt: flipped.at,
        uses: [{ postId: '100', mediaKey: '3_0', url: 'https://media.example/0.jpg' }],
      },
      {
        name: deleted.name,
        expected: deleted.sha256,
        found: null,
        size: deleted.size,
        keptAt: deleted.at,
        uses: [
          { postId: '102', mediaKey: '3_2', url: 'https://media.example/2.jpg' },
          { postId: '200', mediaKey: '3_9', url: 'https://media.example/2.jpg' },
        ],
      },
    ]);
  });
});
