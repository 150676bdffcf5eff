/**
 * What a person waits for: an export is shown complete once its file is whole, not after the project has
 * kept it as a collection (`onWritten` reads the journal again and writes to the archive). A project that
 * cannot keep it then (a team's server away) loses nothing: the job says so and keeps it again later, free.
 */
import { access, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SkeinError } from '../../shared/errors';
import type { ExportJob } from '../../shared/ipc/export';
import { FakeClock } from '../testing/fake-clock';
import { ExportService, type ExportServiceDeps } from './export-service';
import type { WrittenRun } from './service-deps';
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

  describe('when the project cannot keep the written file', () => {
    const ids = Array.from({ length: 45 }, (_, i) => String(1000000000000000001n + BigInt(i)));
    const pages = [0, 20, 40].map((at) => ({ items: ids.slice(at, at + 20).map((id) => post(id)) }));
    const away = () => new SkeinError('offline', 'Nothing answers at 127.0.0.1:5432.', { action: 'Check the server.' });

    async function setUp() {
      const dir = await mkdtemp(join(tmpdir(), 'skein-unrecorded-'));
      const updates: ExportJob[] = [];
      const runs: Array<{ collection: number | undefined; ids: string[] }> = [];
      let failing = true;
      const onWritten: ExportServiceDeps['onWritten'] = async (run: WrittenRun) => {
        const got: string[] = [];
        const collection = run.collection ?? 7;
        run.into({ id: 'p1', name: 'Elections' });
        await run.begun(collection);
        for await (const item of run.items()) {
          if (failing && got.length === 30) throw away();
          got.push(item.id ?? '');
        }
        runs.push({ collection: run.collection, ids: got });
        return { collection };
      };
      const deps = (): ExportServiceDeps => ({
        source: memorySource(pages),
        stateDir: join(dir, 'state'),
        clock: new FakeClock(),
        context: () => ({ appName: 'Skein', appVersion: 'test', mode: 'live', baseUrl: 'http://127.0.0.1:1' }),
        onUpdate: (job) => updates.push(job),
        onInternalError: () => undefined,
        onWritten,
      });
      const service = new ExportService(deps());
      const target = join(dir, 'posts.jsonl');
      const started = await service.start({
        view: { kind: 'thread', operation: 'postRepliesV2', params: { tweetId: '1' } },
        format: 'jsonl',
        scope: 'all',
        targetPath: target,
      });
      const done = await service.settled(started.id);
      return { dir, target, service, done, runs, updates, deps, heal: () => (failing = false) };
    }

    it('says the file is written and why the project has not kept it, and keeps what it needs to keep it later', async () => {
      const { done, target, service, runs, updates } = await setUp();
      expect(done.status).toBe('complete');
      expect((await readFile(target, 'utf8')).trim().split('\n')).toHaveLength(45);
      expect(done.collection).toBeUndefined();
      expect(done.unrecorded).toEqual({
        error: {
          code: 'offline',
          message: 'Nothing answers at 127.0.0.1:5432.',
          details: { action: 'Check the server.' },
        },
        collection: 7,
        project: { id: 'p1', name: 'Elections' },
      });
      expect(updates.at(-1)?.unrecorded?.error.code).toBe('offline');
      expect(runs).toEqual([]);
      // still listed (a written export is otherwise forgotten), with what it is kept from
      expect((await service.list()).map((j) => j.id)).toEqual([done.id]);
    });

    it('keeps it again, after a restart, into the collection it had begun: every item once, in order, no call', async () => {
      const { done, deps, runs, heal, dir } = await setUp();
      heal();
      const source = memorySource(pages);
      const later = new ExportService({ ...deps(), source });
      const [kept] = await later.list();
      expect(kept?.unrecorded?.collection).toBe(7);
      const recorded = await later.record(done.id);
      expect(recorded.collection).toBe(7);
      expect(recorded.unrecorded).toBeUndefined();
      expect(runs).toEqual([{ collection: 7, ids }]);
      expect(source.requests).toHaveLength(0);
      // kept: the job is forgotten, its folder gone
      expect(await later.list()).toEqual([]);
      await expect(access(join(dir, 'state', done.id))).rejects.toThrow();
    });

    it('a second try that fails too says so again and keeps the job; two clicks keep it once', async () => {
      const { done, service, runs, heal } = await setUp();
      const again = await service.record(done.id);
      expect(again.unrecorded?.error.message).toBe('Nothing answers at 127.0.0.1:5432.');
      expect((await service.list()).map((j) => j.id)).toEqual([done.id]);
      heal();
      const [a, b] = await Promise.all([service.record(done.id), service.record(done.id)]);
      expect(a.collection).toBe(7);
      expect(b.collection).toBe(7);
      expect(runs).toHaveLength(1);
    });

    it('a Skein killed while keeping it completes the collection it had begun, and begins no other', async () => {
      const dir = await mkdtemp(join(tmpdir(), 'skein-unrecorded-kill-'));
      const stateDir = join(dir, 'state');
      const keeps: Array<number | undefined> = [];
      let hang = true;
      const deps = (): ExportServiceDeps => ({
        source: memorySource(pages),
        stateDir,
        clock: new FakeClock(),
        context: () => ({ appName: 'Skein', appVersion: 'test', mode: 'live', baseUrl: 'http://127.0.0.1:1' }),
        onWritten: async (run) => {
          keeps.push(run.collection);
          run.into({ id: 'p1', name: 'Elections' });
          await run.begun(run.collection ?? 9);
          // killed here: the collection exists, its items are not written
          if (hang) await new Promise<never>(() => undefined);
          return { collection: run.collection ?? 9 };
        },
      });
      const first = new ExportService(deps());
      const started = await first.start({
        view: { kind: 'thread', operation: 'postRepliesV2', params: { tweetId: '1' } },
        format: 'jsonl',
        scope: 'all',
        caps: { maxPages: 10 },
        targetPath: join(dir, 'posts.jsonl'),
      });
      await expect
        .poll(() => readFile(join(stateDir, started.id, 'collection.json'), 'utf8').catch(() => ''))
        .toBe('{"collection":9,"project":{"id":"p1","name":"Elections"}}');
      hang = false;
      const source = memorySource(pages);
      const later = new ExportService({ ...deps(), source });
      const [kept] = await later.list();
      expect(kept).toMatchObject({ status: 'interrupted', resumable: true });
      await later.resume(started.id);
      const done = await later.settled(started.id);
      expect(done).toMatchObject({ status: 'complete', collection: 9 });
      expect(keeps).toEqual([undefined, 9]);
      expect(source.requests).toHaveLength(0);
    });

    it('says in plain words when what it was kept from is gone or unreadable', async () => {
      const { done, dir, deps, service } = await setUp();
      const manifest = join(dir, 'state', done.id, 'manifest.json');
      // a file that is not this export's manifest (cut short, or written by something else) reads as gone
      await writeFile(manifest, '{"mode":null}');
      await expect(service.record(done.id)).rejects.toThrow(/no longer kept, so it cannot be kept again/);
      await rm(manifest);
      const later = new ExportService(deps());
      await expect(later.record(done.id)).rejects.toThrow(/no longer kept, so it cannot be kept again/);
    });
  });
});
