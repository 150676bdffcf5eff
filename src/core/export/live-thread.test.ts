/**
 * A CSV or Parquet file written from its export's journal in a worker of its own (`writeFromJournalInWorker`, as
 * the app does for a resumed job and a project's codes or opted-out accounts) is the file the export's own thread
 * writes, byte for byte, with the manifest's sections main keeps; JSON and JSON Lines stay on the export's thread;
 * a worker lost while writing fails the job in words, resumable, and the resume writes the same file.
 */
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ExportFormat, ViewDescriptor } from '../../shared/ipc/export';
import { FakeClock } from '../testing/fake-clock';
import type { ExportManifest } from '../formats';
import { ExportService, type ExportServiceDeps } from './export-service';
import type { ItemPolicy } from './item-policy';
import { liveInWorker, PagesAhead, writeFromJournalInWorker } from './live-thread';
import { memorySource, post, type MemoryPage } from './testing/memory-source';
import { runExport } from './testing/run-export';

const ROOT = '1000000000000000001';
const OPTED_OUT = '2000000000000000099';
const FROM_SOURCE = ['--import', 'tsx'];
const worker = (entry = new URL('../compose/live-worker.ts', import.meta.url)) =>
  writeFromJournalInWorker({ entry, execArgv: FROM_SOURCE });

function pages(): MemoryPage[] {
  return [0, 1, 2].map((p) => ({
    items: Array.from({ length: 10 }, (_, i) => {
      const n = p * 10 + i;
      const author = n % 7 === 3 ? { type: 'user', id: OPTED_OUT, userName: 'gone', name: 'Gone' } : undefined;
      return post(String(9007199254740993n + BigInt(n)), ROOT, {
        text: ['=1+1', 'a,"b"\nc', '日本 ✓ é 🧵', ''][n % 4],
        ...(author ? { author } : {}),
      });
    }),
  }));
}

const view: ViewDescriptor = { kind: 'thread', operation: 'postRepliesV2', params: { tweetId: ROOT } };
const context = () => ({ appName: 'Skein', appVersion: '1.0.0', mode: 'demo' as const, baseUrl: 'http://127.0.0.1:1' });
const optedOut: ItemPolicy = { extra: null, exclusions: { userIds: [OPTED_OUT], handles: [], accounts: 1 } };

/** An export capped at one page, then resumed: its file is written from the journal at the end. */
async function resumed(format: ExportFormat, deps: Partial<ExportServiceDeps> = {}) {
  const run = await runExport(pages(), { view, format, resumed: true, deps });
  // a JSON file holds its manifest; the others have it beside them
  const manifest = (
    format === 'json'
      ? (JSON.parse(await readFile(run.target, 'utf8')) as { manifest: ExportManifest }).manifest
      : JSON.parse(await readFile(`${run.target}.manifest.json`, 'utf8'))
  ) as ExportManifest;
  return { ...run, manifest };
}

describe('an export written from its journal in a worker of its own', () => {
  it.each<ExportFormat>(['csv', 'parquet'])(
    '%s: the bytes its own thread writes',
    { timeout: 30_000 },
    async (format) => {
      const here = await resumed(format);
      const sent: string[] = [];
      const inWorker = worker();
      const there = await resumed(format, {
        writeFromJournal: (job, signal) => {
          sent.push(job.format);
          return inWorker(job, signal);
        },
      });
      expect(sent).toEqual([format]);
      expect(there.done.status).toBe('complete');
      expect((await readFile(there.target)).equals(await readFile(here.target))).toBe(true);
      expect(there.manifest.counts).toEqual(here.manifest.counts);
    },
  );

  it.each<ExportFormat>(['json', 'jsonl'])(
    '%s, the journal’s bytes copied, stays on the export’s thread',
    async (format) => {
      const sent: string[] = [];
      const done = await resumed(format, {
        writeFromJournal: async (job) => {
          sent.push(job.format);
          return job.manifest;
        },
      });
      expect(done.done.status).toBe('complete');
      expect(sent).toEqual([]);
    },
  );

  it('a manifest of 1,500 pages crosses a piece at a time, live or from the journal: every page listed, once', async () => {
    const many: MemoryPage[] = Array.from({ length: 1_500 }, (_, p) => ({
      items: [post(String(9007199254740993n + BigInt(p)), ROOT, { text: p % 2 ? '日本 ✓ "q"\n' : '=1+1' })],
    }));
    const kept: ExportManifest[] = [];
    const onWritten: ExportServiceDeps['onWritten'] = async (run) => {
      kept.push(run.manifest);
    };
    const read = async (target: string) =>
      JSON.parse(await readFile(`${target}.manifest.json`, 'utf8')) as ExportManifest;
    const entry = new URL('../compose/live-worker.ts', import.meta.url);
    const here = await runExport(many, { view, format: 'csv', deps: { onWritten } });
    const live = await runExport(many, {
      view,
      format: 'csv',
      deps: { onWritten, openLive: liveInWorker({ entry, execArgv: FROM_SOURCE }) },
    });
    const journal = await runExport(many, {
      view,
      format: 'csv',
      resumed: true,
      deps: { onWritten, writeFromJournal: worker() },
    });
    const reference = await read(here.target);
    expect(reference.pages).toHaveLength(1_500);
    for (const run of [live, journal]) {
      expect(run.done.status).toBe('complete');
      expect((await readFile(run.target)).equals(await readFile(here.target))).toBe(true);
      const manifest = await read(run.target);
      expect([...manifest.pages].map((p) => [p.cursor, p.items_kept])).toEqual(
        [...reference.pages].map((p) => [p.cursor, p.items_kept]),
      );
      expect(manifest.counts).toEqual(reference.counts);
    }
    // what main hands the project: every page too (the resumed one's first run was capped at a page)
    expect(kept.map((m) => m.pages.length)).toEqual([1_500, 1_500, 1, 1_500]);
  }, 60_000);

  it('a worker that cannot start leaves the file to the export’s own thread', { timeout: 30_000 }, async () => {
    const here = await resumed('csv');
    const missing = new URL('./testing/no-such-worker.ts', import.meta.url);
    const there = await resumed('csv', { writeFromJournal: worker(missing) });
    expect(there.done.status).toBe('complete');
    expect((await readFile(there.target)).equals(await readFile(here.target))).toBe(true);
  });

  it('leaves out an opted-out account as here, and the manifest main keeps says so', { timeout: 30_000 }, async () => {
    const policy = async () => optedOut;
    const kept: ExportManifest[] = [];
    const onWritten: ExportServiceDeps['onWritten'] = async (run) => {
      kept.push(run.manifest);
    };
    const here = await resumed('csv', { policy, onWritten });
    const there = await resumed('csv', { policy, onWritten, writeFromJournal: worker() });
    const written = await readFile(there.target, 'utf8');
    expect(written).toBe(await readFile(here.target, 'utf8'));
    expect(written).not.toContain(OPTED_OUT);
    expect(there.manifest.left_out).toMatchObject({ accounts: 1 });
    // what main hands the project is the manifest as written in the worker
    expect(kept.at(-1)?.left_out).toEqual(there.manifest.left_out);
  });

  it('a worker lost while writing fails the job in words, resumable; the resume writes the file', async () => {
    const dying = new URL('./testing/dying-live-worker.ts', import.meta.url);
    const dir = await mkdtemp(join(tmpdir(), 'skein-journal-write-'));
    const deps = { stateDir: join(dir, 'state'), clock: new FakeClock(), context, confirm: async () => true };
    const service = new ExportService({ ...deps, source: memorySource(pages()), writeFromJournal: worker(dying) });
    const target = join(dir, 'out.csv');
    const job = await service.start({ view, format: 'csv', scope: 'all', targetPath: target, caps: { maxPages: 1 } });
    expect((await service.settled(job.id)).status).toBe('partial');
    // resumed: written from the journal, in the worker
    await service.resume(job.id, {});
    const failed = await service.settled(job.id);
    expect(failed).toMatchObject({ status: 'failed', resumable: true });
    expect(failed.error).toMatchObject({
      message: 'Writing the export’s file stopped unexpectedly; no file was written, and the collected items are kept.',
      details: { action: 'Resume the export to write its file again; if it happens again, please report it.' },
    });
    // the first try's partial file stays as it was; nothing the worker staged is left beside it
    expect((await readdir(dir)).filter((name) => name.startsWith('.'))).toEqual([]);

    // Skein started again, writing in its own thread: the journal's items, no page asked for again
    const source = memorySource(pages());
    const again = new ExportService({ ...deps, source });
    await again.resume(job.id, {});
    expect((await again.settled(job.id)).status).toBe('complete');
    expect(source.requests).toHaveLength(0);
    const reference = await resumed('csv');
    expect(await readFile(target, 'utf8')).toBe(await readFile(reference.target, 'utf8'));
  }, 30_000);
});

describe('pages posted to the file worker ahead of it', () => {
  /** a page the worker has not written yet, and its writing */
  const page = () => {
    let write = () => {};
    const written = new Promise<void>((resolve) => (write = resolve));
    return { written, write };
  };
  /** whether `p` has settled once the microtasks queued so far have run */
  const settled = async (p: Promise<void>) => {
    let done = false;
    void p.then(() => (done = true));
    await new Promise((resolve) => setImmediate(resolve));
    return done;
  };

  it('lets the collection go on until that many pages are unwritten, then waits for the oldest', async () => {
    const ahead = new PagesAhead(3, 1_000);
    const [a, b, c] = [page(), page(), page()];
    expect(await settled(ahead.posted(a.written, 10))).toBe(true);
    expect(await settled(ahead.posted(b.written, 10))).toBe(true);
    const third = ahead.posted(c.written, 10);
    expect(await settled(third)).toBe(false);
    a.write();
    expect(await settled(third)).toBe(true);
    const all = ahead.settled();
    expect(await settled(all)).toBe(false);
    b.write();
    c.write();
    expect(await settled(all)).toBe(true);
  });

  it('waits sooner for pages of huge items: what they hold, not their count', async () => {
    const ahead = new PagesAhead(100, 1_000);
    const [a, b] = [page(), page()];
    expect(await settled(ahead.posted(a.written, 600))).toBe(true);
    // past the text allowed: the oldest pages are written first, down to what is allowed
    const second = ahead.posted(b.written, 600);
    expect(await settled(second)).toBe(false);
    a.write();
    expect(await settled(second)).toBe(true);
    // one page over it alone is written before the next is made
    const huge = page();
    const third = ahead.posted(huge.written, 5_000);
    b.write();
    expect(await settled(third)).toBe(false);
    huge.write();
    expect(await settled(third)).toBe(true);
  });
});
