import { cp, mkdir, mkdtemp, readFile, readdir, readlink, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ExportJob, ViewDescriptor } from '../../shared/ipc/export';
import { PAGING_STOP_MESSAGES } from '../../shared/api/paging-guard';
import { SkeinError } from '../../shared/errors';
import { FakeClock } from '../testing/fake-clock';
import { ExportService } from './export-service';
import type { ExportServiceDeps } from './service-deps';
import type { ExportManifest } from '../formats';
import type { PageSource } from '../walk';
import { memorySource, post, type MemoryPage } from './testing/memory-source';

const ROOT = '1000000000000000001';
const context = () => ({
  appName: 'Skein',
  appVersion: '0.1.0',
  mode: 'demo' as const,
  baseUrl: 'http://user:secret@127.0.0.1:1234/?k=v',
});

function makePages(count: number, perPage = 5): MemoryPage[] {
  const pages: MemoryPage[] = [{ items: [post(ROOT)] }];
  let n = 0;
  for (let p = 0; p < count; p++) {
    const items = [];
    for (let i = 0; i < perPage; i++) {
      n++;
      const id = String(9007199254740993n + BigInt(n));
      // every third reply answers the previous reply, the rest answer the root
      const parent = n % 3 === 0 ? String(9007199254740993n + BigInt(n - 1)) : ROOT;
      items.push(post(id, parent));
    }
    if (p === 0) pages[0]!.items.push(...items);
    else pages.push({ items });
  }
  return pages;
}

const threadView = (extra: Partial<ViewDescriptor> = {}): ViewDescriptor => ({
  kind: 'thread',
  operation: 'postRepliesV2',
  params: { tweetId: ROOT, queryType: 'Latest' },
  title: 'A thread',
  ...extra,
});

async function setup(source: PageSource, stateDir?: string, answer = true, more: Partial<ExportServiceDeps> = {}) {
  const dir = await mkdtemp(join(tmpdir(), 'skein-export-'));
  const updates: ExportJob[] = [];
  const asked: string[] = [];
  const clock = new FakeClock();
  const service = new ExportService({
    source,
    stateDir: stateDir ?? join(dir, 'state'),
    clock,
    context,
    onUpdate: (job) => updates.push(job),
    // main's own dialog: the user at the screen answers
    confirm: async (request) => {
      asked.push(request.title);
      return answer;
    },
    ...more,
  });
  return { dir, service, updates, asked, clock, stateDir: stateDir ?? join(dir, 'state') };
}

interface JsonExport {
  manifest: ExportManifest;
  items: Array<{ root_id: string; parent_id: string | null; depth: number | null; item: Record<string, unknown> }>;
}
const readJson = async (path: string) => JSON.parse(await readFile(path, 'utf8')) as JsonExport;
const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );
const allItems = (pages: MemoryPage[]) => pages.flatMap((p) => p.items);
/** the files under `dir` this process holds open (Linux's /proc; elsewhere the check is not made and says so) */
async function openFilesUnder(dir: string): Promise<string[]> {
  const fds = await readdir('/proc/self/fd').catch(() => null);
  if (fds === null) {
    console.warn('no /proc/self/fd on this system: open files not checked');
    return [];
  }
  const paths = await Promise.all(fds.map((fd) => readlink(join('/proc/self/fd', fd)).catch(() => '')));
  return paths.filter((p) => p.startsWith(dir));
}

describe('ExportService', () => {
  it('exports a whole thread to JSON: raw items in order, positions alongside, a complete manifest', async () => {
    const pages = makePages(4);
    const { dir, service } = await setup(memorySource(pages));
    const target = join(dir, 'thread.json');
    const job = await service.start({ view: threadView(), format: 'json', scope: 'all', targetPath: target });
    const done = await service.settled(job.id);
    expect(done.status).toBe('complete');
    expect(done.progress.items).toBe(21);

    const { manifest, items } = await readJson(target);
    expect(items.map((e) => e.item)).toEqual(allItems(pages));
    expect(items[0]).toMatchObject({ root_id: ROOT, parent_id: null, depth: 0 });
    expect(items[1]).toMatchObject({ parent_id: ROOT, depth: 1 });
    expect(items[3]).toMatchObject({ parent_id: items[2]!.item.id, depth: 2 });
    expect(manifest).toMatchObject({
      app: { name: 'Skein', version: '0.1.0' },
      mode: 'demo',
      base_url: 'http://127.0.0.1:1234',
      view: { kind: 'thread', operation: 'postRepliesV2', path: '/social/tweet/replies/v2' },
      requests: [{ operation: 'postRepliesV2', params: { tweetId: ROOT, queryType: 'Latest' } }],
      scope: 'all',
      counts: { pages: 4, items: 21, duplicates_removed: 0, dropped: 0, calls: 4 },
      complete: true,
      incomplete_reason: null,
      files: [target],
    });
    expect([...manifest.pages].map((p) => p.cursor)).toEqual([null, 'c1', 'c2', 'c3']);
    expect([...manifest.pages].map((p) => p.next_cursor)).toEqual(['c1', 'c2', 'c3', null]);
    expect(manifest.estimated_credits).toBe(15 * 21);
    expect(Date.parse(manifest.exported_at)).not.toBeNaN();
    // a finished job leaves no state behind
    expect(await readdir(join(dir, 'state'))).toEqual([]);
  });

  it('removes duplicates across pages and says how many', async () => {
    const pages = makePages(3);
    pages[2]!.items.push(pages[1]!.items[0]);
    const { dir, service } = await setup(memorySource(pages));
    const target = join(dir, 'x.json');
    const job = await service.start({ view: threadView(), format: 'json', scope: 'all', targetPath: target });
    await service.settled(job.id);
    const { manifest, items } = await readJson(target);
    expect(items).toHaveLength(16);
    expect(manifest.counts.duplicates_removed).toBe(1);
  });

  it('stops on two pages in a row of items it already has, counting them, with a source that keeps every item', async () => {
    // the source is told the collection de-duplicates (it holds none of the walk's ids) and passes repeats through
    const pages = makePages(6);
    pages[2]!.items = [...pages[1]!.items];
    pages[3]!.items = [pages[0]!.items[1], pages[1]!.items[2]];
    const source = memorySource(pages);
    const { dir, service } = await setup(source);
    const target = join(dir, 'r.json');
    const job = await service.start({ view: threadView(), format: 'json', scope: 'all', targetPath: target });
    expect(await service.settled(job.id)).toMatchObject({ status: 'partial', stopReason: 'empty-pages' });
    expect(source.requests.every((r) => r.deduplicates === true)).toBe(true);
    expect(source.requests).toHaveLength(4);
    const { manifest, items } = await readJson(target);
    expect(items.map((e) => e.item)).toEqual(allItems(pages.slice(0, 2)));
    expect(manifest.counts.duplicates_removed).toBe(7);
    expect(manifest.paging_stops).toEqual([
      { page: 3, reason: 'empty-pages', message: PAGING_STOP_MESSAGES['empty-pages'] },
    ]);
  });

  it('a cap stops between pages; resume continues from the last cursor and ends with the same items as one run', async () => {
    const pages = makePages(30);
    const source = memorySource(pages);
    const { dir, service } = await setup(source);
    const target = join(dir, 'capped.json');
    const job = await service.start({
      view: threadView(),
      format: 'json',
      scope: 'all',
      caps: { maxPages: 7 },
      targetPath: target,
    });
    const capped = await service.settled(job.id);
    expect(capped).toMatchObject({ status: 'partial', stopReason: 'cap-pages', resumable: true });
    const partial = await readJson(target);
    expect(partial.manifest).toMatchObject({ complete: false, incomplete_reason: 'cap-pages', counts: { pages: 7 } });
    expect(partial.items.map((e) => e.item)).toEqual(allItems(pages.slice(0, 7)));

    await service.resume(job.id, { maxItems: 60 });
    expect((await service.settled(job.id)).stopReason).toBe('cap-items');
    await service.resume(job.id, {});
    const finished = await service.settled(job.id);
    expect(finished).toMatchObject({ status: 'complete', resumable: false });
    const full = await readJson(target);
    expect(full.items.map((e) => e.item)).toEqual(allItems(pages));
    expect([...full.manifest.pages].map((p) => p.cursor)).toEqual(pages.map((_, i) => (i === 0 ? null : `c${i}`)));
    // every page was asked for exactly once across the three runs
    expect(source.requests.map((r) => r.cursor)).toEqual(pages.map((_, i) => (i === 0 ? null : `c${i}`)));
  });

  it('resume keeps the job caps; looser caps or none need the user yes in main (attack: a page resuming without caps)', async () => {
    const pages = makePages(30);
    const source = memorySource(pages);
    const { dir, service, asked } = await setup(source, undefined, false);
    const job = await service.start({
      view: threadView(),
      format: 'json',
      scope: 'all',
      caps: { maxPages: 3 },
      targetPath: join(dir, 'c.json'),
    });
    expect((await service.settled(job.id)).stopReason).toBe('cap-pages');
    // the page asks to go on without caps: main asks the user, who says no; nothing is fetched
    await expect(service.resume(job.id, {})).rejects.toMatchObject({ code: 'cancelled' });
    await expect(service.resume(job.id, { maxPages: 100 })).rejects.toMatchObject({ code: 'cancelled' });
    expect(asked).toHaveLength(2);
    expect(source.requests).toHaveLength(3);
    // a resume without caps keeps the job's own: it stops at once (the cap is already reached)
    const kept = await service.resume(job.id);
    expect(kept.caps).toEqual({ maxPages: 3 });
    expect((await service.settled(job.id)).stopReason).toBe('cap-pages');
    expect(source.requests).toHaveLength(3);
    // tighter caps need no dialog
    await service.resume(job.id, { maxPages: 3, maxCredits: 10 });
    expect(asked).toHaveLength(2);
  });

  it('an error keeps what was collected, writes a partial file that says why, and resumes', async () => {
    const pages = makePages(6);
    const failure = new Error('socket hang up');
    const { dir, service } = await setup(memorySource(pages, { failOnce: new Map([[3, failure]]) }));
    const target = join(dir, 'e.jsonl');
    const job = await service.start({ view: threadView(), format: 'jsonl', scope: 'all', targetPath: target });
    const failed = await service.settled(job.id);
    expect(failed).toMatchObject({ status: 'partial', stopReason: 'error', resumable: true });
    expect(failed.error?.code).toBe('internal');
    const sidecar = JSON.parse(await readFile(join(dir, 'e.jsonl.manifest.json'), 'utf8')) as ExportManifest;
    expect(sidecar).toMatchObject({ complete: false, incomplete_reason: 'error', counts: { pages: 3 } });

    await service.resume(job.id);
    expect((await service.settled(job.id)).status).toBe('complete');
    const lines = (await readFile(target, 'utf8'))
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as JsonExport['items'][number]);
    expect(lines.map((l) => l.item)).toEqual(allItems(pages));
    expect(JSON.parse(await readFile(join(dir, 'e.jsonl.manifest.json'), 'utf8'))).toMatchObject({
      complete: true,
      counts: { items: 31 },
    });
  });

  it('survives a restart: the job comes back interrupted and resumes to the same items', async () => {
    const pages = makePages(12);
    const source = memorySource(pages, { hold: 8 });
    const first = await setup(source);
    const target = join(first.dir, 'r.json');
    const job = await first.service.start({ view: threadView(), format: 'json', scope: 'all', targetPath: target });
    await source.held;
    // the process dies here: only what is on disk survives
    const crashed = join(first.dir, 'after-crash');
    await cp(first.stateDir, crashed, { recursive: true });
    // quitting stops the run without writing a file; the job stays resumable
    await first.service.dispose();
    expect(await first.service.status(job.id)).toMatchObject({ status: 'interrupted', resumable: true });
    expect(await exists(target)).toBe(false);

    const second = await setup(memorySource(pages), crashed);
    const [found] = await second.service.list();
    expect(found).toMatchObject({ id: job.id, status: 'interrupted', stopReason: 'interrupted', resumable: true });
    await second.service.resume(job.id);
    expect((await second.service.settled(job.id)).status).toBe('complete');
    expect((await readJson(target)).items.map((e) => e.item)).toEqual(allItems(pages));
  });

  it('quitting lets the page in flight land (it was paid for) and a restart goes on after it; a page that does not land in time is aborted', async () => {
    const pages = makePages(6);
    const inner = memorySource(pages);
    let land: (() => void) | undefined;
    const slowPage = (cursor: string): PageSource => ({
      async fetchPage(req) {
        if (req.cursor === cursor) {
          // a request in flight: only the hard stop reaches it, never the cancel of waits
          await new Promise<void>((resolve, reject) => {
            land = resolve;
            req.signal.addEventListener('abort', () => reject(req.signal.reason as Error), { once: true });
          });
        }
        return inner.fetchPage(req);
      },
    });
    const settle = async () => {
      // the job writes its journal to disk between pages: wait for the request by condition, up to 15 s of a loaded machine
      for (let i = 0; i < 1500 && land === undefined; i++) await new Promise((r) => setTimeout(r, 10));
      expect(land).toBeDefined();
    };

    const first = await setup(slowPage('c2'));
    const job = await first.service.start({
      view: threadView(),
      format: 'json',
      scope: 'all',
      targetPath: join(first.dir, 'q.json'),
    });
    await settle();
    const quitting = first.service.dispose();
    land?.();
    await quitting;
    expect(await first.service.status(job.id)).toMatchObject({
      status: 'interrupted',
      resumable: true,
      progress: { pages: 3 },
    });

    const second = memorySource(pages);
    const restarted = await setup(second, first.stateDir);
    await restarted.service.resume(job.id);
    expect((await restarted.service.settled(job.id)).status).toBe('complete');
    expect(second.requests.map((r) => r.cursor)).toEqual(['c3', 'c4', 'c5']);
    expect((await readJson(join(first.dir, 'q.json'))).items.map((e) => e.item)).toEqual(allItems(pages));

    land = undefined;
    const stuck = await setup(slowPage('c1'));
    const job2 = await stuck.service.start({
      view: threadView(),
      format: 'json',
      scope: 'all',
      targetPath: join(stuck.dir, 's.json'),
    });
    await settle();
    const quitting2 = stuck.service.dispose();
    await stuck.clock.advance(3000);
    await quitting2;
    expect(await stuck.service.status(job2.id)).toMatchObject({
      status: 'interrupted',
      resumable: true,
      progress: { pages: 1 },
    });
  });

  it('cancel writes what was collected as a partial export; cancel before the first page writes nothing', async () => {
    const pages = makePages(5);
    const source = memorySource(pages, { hold: 2 });
    const { dir, service } = await setup(source);
    const target = join(dir, 'c.json');
    const job = await service.start({ view: threadView(), format: 'json', scope: 'all', targetPath: target });
    await source.held;
    await service.cancel(job.id);
    const cancelled = await service.settled(job.id);
    expect(cancelled).toMatchObject({ status: 'partial', stopReason: 'cancelled', resumable: true });
    expect((await readJson(target)).manifest).toMatchObject({
      complete: false,
      incomplete_reason: 'cancelled',
      counts: { pages: 2 },
    });

    const early = memorySource(pages, { hold: 0 });
    const other = await setup(early);
    const target2 = join(other.dir, 'none.json');
    const job2 = await other.service.start({ view: threadView(), format: 'json', scope: 'all', targetPath: target2 });
    await early.held;
    await other.service.cancel(job2.id);
    expect((await other.service.settled(job2.id)).status).toBe('cancelled');
    expect(await exists(target2)).toBe(false);
    expect(await other.service.discard(job2.id)).toBe(true);
    expect(await readdir(other.stateDir)).toEqual([]);
  });

  it('scope "loaded" exports the pages the view holds and says more exist', async () => {
    const pages = makePages(5);
    const source = memorySource(pages);
    const { dir, service } = await setup(source);
    const target = join(dir, 'l.json');
    const job = await service.start({
      view: threadView({ loadedPages: 2 }),
      format: 'json',
      scope: 'loaded',
      targetPath: target,
    });
    expect(await service.settled(job.id)).toMatchObject({
      status: 'partial',
      stopReason: 'loaded-only',
      resumable: false,
    });
    const { manifest, items } = await readJson(target);
    expect(items.map((e) => e.item)).toEqual(allItems(pages.slice(0, 2)));
    expect(manifest).toMatchObject({ scope: 'loaded', complete: false, incomplete_reason: 'loaded-only' });
    expect(source.requests).toHaveLength(2);
  });

  it('stops on a repeated cursor (paging guard) and records it', async () => {
    const pages = makePages(4);
    pages[2]!.next = 'c1';
    const { dir, service } = await setup(memorySource(pages));
    const target = join(dir, 'g.json');
    const job = await service.start({ view: threadView(), format: 'json', scope: 'all', targetPath: target });
    expect(await service.settled(job.id)).toMatchObject({
      status: 'partial',
      stopReason: 'repeated-cursor',
      resumable: false,
    });
    const { manifest } = await readJson(target);
    expect(manifest.paging_stops).toEqual([
      { page: 2, reason: 'repeated-cursor', message: expect.stringContaining('c1') as string },
    ]);
  });

  it('stops on two empty pages in a row and on a next page without cursor, in the one guard’s words', async () => {
    const empty = makePages(5);
    empty[2]!.items = [];
    empty[3]!.items = [];
    const noCursor = makePages(3);
    noCursor[1]!.next = '';
    for (const [pages, reason] of [
      [empty, 'empty-pages'],
      [noCursor, 'missing-cursor'],
    ] as const) {
      const { dir, service } = await setup(memorySource(pages));
      const target = join(dir, `${reason}.json`);
      const job = await service.start({ view: threadView(), format: 'json', scope: 'all', targetPath: target });
      expect(await service.settled(job.id)).toMatchObject({ status: 'partial', stopReason: reason });
      const { manifest } = await readJson(target);
      expect(manifest.paging_stops).toEqual([
        { page: expect.any(Number) as number, reason, message: PAGING_STOP_MESSAGES[reason] },
      ]);
    }
  });

  it('a project that cannot answer what it asks of the export (its server gone) fails it in words, holds no file open, and resumes', async () => {
    const pages = makePages(2);
    let serverUp = false;
    // resuming an uncapped export asks the person at the screen (`setup`): they say yes
    const { dir, stateDir, service } = await setup(memorySource(pages), undefined, true, {
      policy: async () => {
        if (!serverUp) throw new SkeinError('offline', 'The team project’s server does not answer.');
        return null;
      },
    });
    const target = join(dir, 'p.jsonl');
    const job = await service.start({ view: threadView(), format: 'jsonl', scope: 'all', targetPath: target });
    const failed = await service.settled(job.id);
    expect(failed).toMatchObject({ status: 'failed', resumable: true, error: { code: 'offline' } });
    expect(failed.error?.message).toContain('does not answer');
    // the job's journal is not left open (a handle dropped unclosed waits for the garbage collector)
    expect(await openFilesUnder(stateDir)).toEqual([]);
    serverUp = true;
    await service.resume(job.id);
    expect((await service.settled(job.id)).status).toBe('complete');
    expect((await readFile(target, 'utf8')).trimEnd().split('\n')).toHaveLength(allItems(pages).length);
  });

  it('a folder that cannot be written fails clearly, leaves nothing, and can be retried', async () => {
    const { dir, service } = await setup(memorySource(makePages(2)));
    const target = join(dir, 'missing-folder', 'x.json');
    const job = await service.start({ view: threadView(), format: 'json', scope: 'all', targetPath: target });
    const failed = await service.settled(job.id);
    expect(failed).toMatchObject({ status: 'failed', resumable: true, error: { code: 'write-failed' } });
    expect(failed.error?.message).toContain('does not exist');
    expect(await exists(target)).toBe(false);
  });

  it('a job a newer Skein saved (or a damaged one) is listed as unread, kept byte for byte, and never started over', async () => {
    const pages = makePages(6);
    const source = memorySource(pages, { hold: 3 });
    const first = await setup(source);
    const target = join(first.dir, 'newer.json');
    const job = await first.service.start({
      id: 'saved-job-1',
      view: threadView(),
      format: 'json',
      scope: 'all',
      targetPath: target,
    });
    await source.held;
    await first.service.dispose();
    // a newer Skein wrote the record: a status and a field this one does not know
    const record = JSON.parse(await readFile(join(first.stateDir, job.id, 'job.json'), 'utf8')) as ExportJob;
    const newer = JSON.stringify({ ...record, status: 'verifying', checks: 2 });
    await writeFile(join(first.stateDir, job.id, 'job.json'), newer);
    // and a damaged one, and a folder that is no job's
    await mkdir(join(first.stateDir, 'damaged'));
    await writeFile(join(first.stateDir, 'damaged', 'job.json'), '{"id":"damaged","files":["/x/half.csv"');
    await mkdir(join(first.stateDir, 'not-a-job'));
    const journal = await readFile(join(first.stateDir, job.id, 'journal.log'));

    const second = await setup(memorySource(pages), first.stateDir);
    expect(await second.service.list()).toEqual([]);
    const unread = await second.service.unread();
    expect(unread.folder).toBe(first.stateDir);
    expect(unread.jobs).toEqual([
      { id: job.id, file: target, startedAt: record.startedAt },
      { id: 'damaged', file: null, startedAt: null },
    ]);
    // running the saved job again here would start it afresh over a newer Skein's paid pages: refused in words
    const again = second.service.start({
      id: job.id,
      view: threadView(),
      format: 'json',
      scope: 'all',
      targetPath: target,
    });
    await expect(again).rejects.toMatchObject({ code: 'unreadable', message: expect.stringContaining('newer Skein') });
    await expect(second.service.discard(job.id)).resolves.toBe(false);
    expect(await readFile(join(first.stateDir, job.id, 'job.json'), 'utf8')).toBe(newer);
    expect(await readFile(join(first.stateDir, job.id, 'journal.log'))).toEqual(journal);
    // a new export beside them goes on as usual
    const fresh = await second.service.start({
      view: threadView(),
      format: 'json',
      scope: 'all',
      targetPath: join(first.dir, 'fresh.json'),
    });
    expect((await second.service.settled(fresh.id)).status).toBe('complete');
  });
});
