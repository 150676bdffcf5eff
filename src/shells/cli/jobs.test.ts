/**
 * Saved jobs, headless: a thread collection with a cap, a hydration and an export saved from the app's dialogs
 * (`jobs.save`, what "Save as job…" calls) and run with `skein run` give the same item ids, manifest counts and
 * sandbox ledger lines as the same three started through the app's handlers; killed with SIGKILL and run again,
 * a job goes on from its journal and no page is paid for twice. The key never reaches a job file.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../core';
import { testCoreDeps } from '../../core/testing/core-deps';
import { startSandbox, type LedgerEntry, type RequestLogEntry, type Sandbox } from '../../sandbox';
import type { ExportJob, ExportStartInput } from '../../shared/ipc/export';
import { EXIT_CAP, parseRunnerArgs, runJob, type JobRunOptions } from './skein';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const ENTRY = join(ROOT, 'src', 'shells', 'cli', 'skein.ts');
const KEY = 'sk-canary-never-in-a-job-file';
const sandboxes: Sandbox[] = [];
const dirs: string[] = [];
let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, seed: 3 });
  sandboxes.push(sandbox);
});
afterAll(async () => {
  for (const s of sandboxes) await s.close();
  dirs.forEach((d) => rmSync(d, { recursive: true, force: true }));
});

const control = async <T>(path: string, init?: RequestInit): Promise<T> =>
  (await (await fetch(`${sandbox.baseUrl}${path}`, init)).json()) as T;
const resetLedger = async () => {
  await fetch(`${sandbox.baseUrl}/__sandbox/usage/reset`, { method: 'POST' });
  await fetch(`${sandbox.baseUrl}/__sandbox/requests`, { method: 'DELETE' });
};
/** the ledger's lines without their clock: what was asked, answered and charged, in order */
const ledgerLines = async () =>
  (await control<{ calls: LedgerEntry[] }>('/__sandbox/usage')).calls.map(
    ({ operation, status, items, idsAsked, credits }) => ({ operation, status, items, idsAsked, credits }),
  );

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'skein-jobs-'));
  dirs.push(dir);
  return dir;
}

/** the app, on its own project, saving into `dir` whatever its save dialog is asked */
function app(dir: string, project: string, savePath: { next: string }): { core: Core; jobs: ExportJob[] } {
  const jobs: ExportJob[] = [];
  const core = createCore(
    testCoreDeps(join(dir, 'app-data'), sandboxes, {
      apiBaseUrl: sandbox.baseUrl,
      apiKey: KEY,
      projectPath: project,
      workers: undefined,
      watches: { start: false },
      chooseSavePath: async () => savePath.next,
      emit: (name, payload) => {
        if (name === 'export') jobs.push(payload as ExportJob);
      },
    }),
  );
  return { core, jobs };
}

const ctx = { senderId: 1 };

/** a new project, made as the app makes one (the runner works on projects that exist) */
async function newProject(dir: string, project: string): Promise<void> {
  const { core } = app(join(dir, 'maker'), project, { next: '' });
  await core.projects.handleFor('current');
  await core.dispose();
}

/** the written JSONL's item ids, in order */
const idsIn = (file: string) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => (JSON.parse(l) as { item: { id: string } }).item.id);
const manifestOf = (file: string) =>
  JSON.parse(readFileSync(`${file}.manifest.json`, 'utf8')) as {
    counts: Record<string, number>;
    ids_not_found: string[];
    pages: unknown[];
  };

/** the sandbox's big thread collected to JSON Lines, at most `maxPages` pages */
const bigThread = (maxPages: number): ExportStartInput => ({
  view: {
    kind: 'thread',
    operation: 'postRepliesV2',
    params: { tweetId: sandbox.examples.bigThreadPostId, queryType: 'Latest' },
    title: 'Big thread',
  },
  format: 'jsonl',
  scope: 'all',
  caps: { maxPages },
});

describe('saved jobs, run headless', () => {
  it('reads its command line', () => {
    expect(parseRunnerArgs(['run', 'job.json', '--project', 'p.skein', '--demo'], {})).toMatchObject({
      command: 'run',
      jobFile: join(process.cwd(), 'job.json'),
      demo: true,
    });
    expect(parseRunnerArgs(['run', '--project', 'p.skein', '--demo'], {})).toEqual({
      error: expect.stringContaining('which job'),
    });
    expect(parseRunnerArgs(['run', 'job.json', '--demo'], {})).toEqual({ error: expect.stringContaining('--project') });
    // a watch job runs what is due with --once; an export job refuses it when it reads its file
    expect(parseRunnerArgs(['run', 'job.json', '--project', 'p', '--demo', '--once'], {})).toMatchObject({
      once: true,
    });
  });

  it(
    'a collection with a cap, a hydration and an export saved in the app give the same items, manifests and ledger headless',
    { timeout: 240_000 },
    async () => {
      const dir = tempDir();
      const save = { next: '' };
      mkdirSync(join(dir, 'gui'));
      mkdirSync(join(dir, 'jobs'));
      const gui = app(dir, join(dir, 'gui.skein'), save);
      const { examples } = sandbox;
      const thread: ExportStartInput = {
        view: {
          kind: 'thread',
          operation: 'postRepliesV2',
          params: { tweetId: examples.bigThreadPostId, queryType: 'Latest' },
          title: 'Big thread',
        },
        format: 'jsonl',
        scope: 'all',
        caps: { maxPages: 3 },
      };
      const timeline: ExportStartInput = {
        view: { kind: 'timeline', operation: 'userTimeline', params: { userId: examples.profile.id }, title: 'Posts' },
        format: 'jsonl',
        scope: 'all',
        caps: { maxPages: 2 },
      };

      // the app's run: each job started as its dialog starts it, and saved as a job file beside
      await resetLedger();
      const guiRun = async (start: ExportStartInput, name: string): Promise<ExportJob> => {
        save.next = join(dir, 'gui', `${name}.jsonl`);
        const { job } = await gui.core.handlers.export.start(start, ctx);
        if (!job) throw new Error('no job');
        await expect
          .poll(() => gui.jobs.findLast((j) => j.id === job.id)?.finishedAt ?? null, { timeout: 60_000 })
          .not.toBeNull();
        return gui.jobs.findLast((j) => j.id === job.id) as ExportJob;
      };
      const threadJob = await guiRun(thread, 'thread');
      expect(threadJob, JSON.stringify(threadJob.error)).toMatchObject({ status: 'partial', stopReason: 'cap-pages' });
      const threadIds = idsIn(join(dir, 'gui', 'thread.jsonl'));
      // the hydration: some of the thread's posts (held, free), some posts it does not have, and an id nobody has
      const toHydrate = [...threadIds.slice(0, 5), examples.muchQuotedPostId, examples.mediaPostId, '12345'];
      const list = await gui.core.handlers.ids.create(
        { entity: 'posts', label: 'Posts to read back', source: { format: 'paste' } },
        ctx,
      );
      await gui.core.handlers.ids.append({ importId: list.importId, text: toHydrate.join('\n') }, ctx);
      await gui.core.handlers.ids.seal({ importId: list.importId }, ctx);
      const hydration: ExportStartInput = {
        view: { kind: 'postsByIds', operation: 'postsByIds', params: {}, idsFrom: list.importId, title: 'Read back' },
        format: 'jsonl',
        scope: 'all',
      };
      await guiRun(hydration, 'hydration');
      await guiRun(timeline, 'timeline');
      const guiLedger = await ledgerLines();
      expect(guiLedger.length).toBeGreaterThan(3);

      // "Save as job…" in each dialog: the files, wherever the person puts them
      const jobsDir = join(dir, 'jobs');
      const saved: string[] = [];
      for (const [kind, start, name] of [
        ['export', thread, 'thread'],
        ['hydrate', hydration, 'hydration'],
        ['export', timeline, 'timeline'],
      ] as const) {
        save.next = join(jobsDir, `${name}.skein-job.json`);
        const { file } = await gui.core.handlers.jobs.save({ kind, start }, ctx);
        expect(file).toBe(save.next);
        saved.push(file as string);
      }
      await gui.core.dispose();
      const texts = saved.map((f) => readFileSync(f, 'utf8'));
      for (const text of texts) {
        expect(text).not.toContain(KEY);
        expect(text).not.toContain(sandbox.baseUrl);
        expect(text).not.toContain(list.importId);
      }

      // the same three headless, on another project, in another data folder
      await resetLedger();
      const project = join(dir, 'headless.skein');
      await newProject(dir, project);
      const headless = (file: string): JobRunOptions =>
        parseRunnerArgs(
          ['run', file, '--project', project, '--data-dir', join(dir, 'runner'), '--api-base-url', sandbox.baseUrl],
          { SKEIN_API_KEY: KEY },
        ) as JobRunOptions;
      const lines: string[] = [];
      const codes: number[] = [];
      for (const file of saved)
        codes.push(
          await runJob(
            headless(file),
            (l) => lines.push(l),
            (l) => lines.push(l),
          ),
        );
      expect(codes, lines.join('\n')).toEqual([EXIT_CAP, 0, EXIT_CAP]);
      expect(lines.filter((l) => /^page \d/.test(l))).toHaveLength(3 + 2);
      expect(lines.some((l) => /^batch 1/.test(l))).toBe(true);
      expect(await ledgerLines()).toEqual(guiLedger);
      for (const name of ['thread', 'hydration', 'timeline']) {
        const a = join(dir, 'gui', `${name}.jsonl`);
        const b = join(jobsDir, `${name}.jsonl`);
        expect(idsIn(b), name).toEqual(idsIn(a));
        expect(manifestOf(b).counts, name).toEqual(manifestOf(a).counts);
        expect(manifestOf(b).ids_not_found, name).toEqual(manifestOf(a).ids_not_found);
      }
      expect(manifestOf(join(jobsDir, 'hydration.jsonl')).ids_not_found).toEqual(['12345']);
      // the id list the runner made of the hydration's ids is let go once the job has ended
      expect(readdirSync(join(dir, 'runner', 'imports')).filter((f) => f.endsWith('.ids'))).toEqual([]);

      // the app, opening the project the runner worked on, lists its runs and shows what one wrote
      const shown: string[] = [];
      const later = createCore(
        testCoreDeps(join(dir, 'app-later'), sandboxes, {
          apiBaseUrl: sandbox.baseUrl,
          apiKey: KEY,
          projectPath: project,
          workers: undefined,
          watches: { start: false },
          showInFolder: async (path) => {
            shown.push(path);
          },
        }),
      );
      const { runs, unread } = await later.handlers.jobs.headless(undefined, ctx);
      expect(unread).toEqual([]);
      expect(runs.map((r) => [r.name, r.kind, r.status, r.stopReason, r.files])).toEqual([
        [
          'Posts',
          'export',
          'partial',
          'cap-pages',
          [join(jobsDir, 'timeline.jsonl'), join(jobsDir, 'timeline.jsonl.manifest.json')],
        ],
        [
          'Read back',
          'hydrate',
          'complete',
          null,
          [join(jobsDir, 'hydration.jsonl'), join(jobsDir, 'hydration.jsonl.manifest.json')],
        ],
        [
          'Big thread',
          'export',
          'partial',
          'cap-pages',
          [join(jobsDir, 'thread.jsonl'), join(jobsDir, 'thread.jsonl.manifest.json')],
        ],
      ]);
      expect(runs[1]?.items).toBe(idsIn(join(jobsDir, 'hydration.jsonl')).length);
      expect(await later.handlers.jobs.showResult({ jobId: runs[2]?.jobId ?? '' }, ctx)).toMatchObject({ shown: true });
      expect(shown).toEqual([join(jobsDir, 'thread.jsonl')]);
      await later.dispose();
    },
  );

  it(
    'killed with SIGKILL mid-run and run again, goes on without paying for a page twice',
    { timeout: 180_000 },
    async () => {
      const dir = tempDir();
      const jobFile = join(dir, 'thread.skein-job.json');
      writeFileSync(
        jobFile,
        JSON.stringify({
          skein_job: 1,
          kind: 'export',
          id: '5d0c8a4e-9b1f-4c2a-8e3d-7f6a5b4c3d2e',
          name: 'Big thread',
          created_by: 'Skein 0.1.0',
          created_at: '2026-11-28T12:00:00.000Z',
          job: bigThread(8),
          destination: { path: 'out/thread.jsonl' },
        }),
      );
      const project = join(dir, 'study.skein');
      await newProject(dir, project);
      const args = ['run', jobFile, '--project', project, '--data-dir', join(dir, 'runner')];
      await resetLedger();
      const child = spawn(process.execPath, ['--import', 'tsx', ENTRY, ...args, '--rate', '2'], {
        cwd: ROOT,
        env: { ...process.env, SKEIN_API_BASE_URL: sandbox.baseUrl, SKEIN_API_KEY: KEY },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const printed: string[] = [];
      const third = new Promise<void>((resolve, reject) => {
        const onData = (chunk: Buffer) => {
          printed.push(...chunk.toString().split('\n').filter(Boolean));
          if (printed.some((l) => l.startsWith('page 3'))) resolve();
        };
        child.stdout.on('data', onData);
        child.stderr.on('data', onData);
        child.once('exit', () => reject(new Error(`the runner ended first:\n${printed.join('\n')}`)));
      });
      await third;
      child.kill('SIGKILL');
      await new Promise((r) => child.once('exit', r));

      const lines: string[] = [];
      const options = parseRunnerArgs([...args, '--api-base-url', sandbox.baseUrl], {
        SKEIN_API_KEY: KEY,
      }) as JobRunOptions;
      const code = await runJob(
        options,
        (l) => lines.push(l),
        (l) => lines.push(l),
      );
      expect(code, lines.join('\n')).toBe(EXIT_CAP);
      expect(lines.join('\n')).toMatch(/Going on with job .* where its last run stopped/);
      const manifest = manifestOf(join(dir, 'out', 'thread.jsonl'));
      expect(manifest.counts.pages).toBe(8);
      // every page bought once: as many calls in the ledger as pages in the file, no request asked twice
      const { requests } = await control<{ requests: RequestLogEntry[] }>('/__sandbox/requests');
      const urls = requests.map((r) => r.url);
      expect(new Set(urls).size).toBe(urls.length);
      expect((await ledgerLines()).length).toBe(8);

      // run once more: it stopped at its cap, and stays there without asking the service again
      const quiet = () => {};
      expect(await runJob(options, quiet, quiet)).toBe(EXIT_CAP);
      expect((await ledgerLines()).length).toBe(8);

      // a larger cap written into the file is the person's yes: it goes on for one page more, none again
      const raised = JSON.parse(readFileSync(jobFile, 'utf8')) as { job: { caps: { maxPages: number } } };
      raised.job.caps.maxPages = 9;
      writeFileSync(jobFile, JSON.stringify(raised));
      expect(await runJob(options, quiet, quiet)).toBe(EXIT_CAP);
      expect(manifestOf(join(dir, 'out', 'thread.jsonl')).counts.pages).toBe(9);
      expect((await ledgerLines()).length).toBe(9);
    },
  );

  it('stopped by SIGTERM, exits 1 and says how to go on', { timeout: 120_000 }, async () => {
    const dir = tempDir();
    const jobFile = join(dir, 'thread.skein-job.json');
    writeFileSync(
      jobFile,
      JSON.stringify({
        skein_job: 1,
        kind: 'export',
        id: '7a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
        name: 'Big thread',
        created_by: 'Skein 0.1.0',
        created_at: '2026-11-28T12:00:00.000Z',
        job: {
          view: {
            kind: 'thread',
            operation: 'postRepliesV2',
            params: { tweetId: sandbox.examples.bigThreadPostId, queryType: 'Latest' },
          },
          format: 'jsonl',
          scope: 'all',
        },
        destination: { path: 'thread.jsonl' },
      }),
    );
    const project = join(dir, 'study.skein');
    await newProject(dir, project);
    const args = ['run', jobFile, '--project', project, '--data-dir', join(dir, 'runner'), '--rate', '1'];
    const child = spawn(process.execPath, ['--import', 'tsx', ENTRY, ...args], {
      cwd: ROOT,
      env: { ...process.env, SKEIN_API_BASE_URL: sandbox.baseUrl, SKEIN_API_KEY: KEY },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let printed = '';
    const exit = new Promise<number | null>((done) => child.once('exit', done));
    await new Promise<void>((resolve, reject) => {
      const onData = (chunk: Buffer) => {
        printed += chunk.toString();
        if (/^page 1 /m.test(printed)) resolve();
      };
      child.stdout.on('data', onData);
      child.stderr.on('data', onData);
      void exit.then(() => reject(new Error(`the runner ended first:\n${printed}`)));
    });
    child.kill('SIGTERM');
    expect(await exit, printed).toBe(1);
    expect(printed).toContain('Stopping (SIGTERM)');
    expect(printed).toMatch(/Stopped \(it was stopped\): \d+ items so far\. Run the same command again to go on/);
  });

  it(
    'a file the project could not keep as a collection is kept by the next run, with no call',
    { timeout: 120_000 },
    async () => {
      const dir = tempDir();
      const { examples } = sandbox;
      const asked = [examples.mediaPostId, examples.muchQuotedPostId, '12345'];
      const jobFile = join(dir, 'read-back.skein-job.json');
      writeFileSync(
        jobFile,
        JSON.stringify({
          skein_job: 1,
          kind: 'hydrate',
          id: '0b9e8d7c-6a5f-4e3d-9c2b-1a0f9e8d7c6b',
          name: 'Read back',
          created_by: 'Skein 0.1.0',
          created_at: '2026-11-28T12:00:00.000Z',
          job: {
            view: { kind: 'postsByIds', operation: 'postsByIds', params: {}, title: 'Read back' },
            format: 'jsonl',
            scope: 'all',
          },
          ids: { entity: 'posts', list: asked },
          destination: { path: 'out/read-back.jsonl' },
        }),
      );
      const project = join(dir, 'study.skein');
      await newProject(dir, project);
      /** the project takes items but refuses new collections (as a member's rights to write one can be taken) */
      const refuseCollections = (refused: boolean) => {
        const db = new DatabaseSync(project);
        db.exec(
          refused
            ? "CREATE TRIGGER refuse_collections BEFORE INSERT ON collections BEGIN SELECT RAISE(ABORT, 'refused'); END"
            : 'DROP TRIGGER refuse_collections',
        );
        db.close();
      };
      const options = parseRunnerArgs(
        ['run', jobFile, '--project', project, '--data-dir', join(dir, 'runner'), '--api-base-url', sandbox.baseUrl],
        { SKEIN_API_KEY: KEY },
      ) as JobRunOptions;
      /** the same command run again: its exit code and what it printed on standard output and standard error */
      const run = async () => {
        const said = { out: '', err: '' };
        const code = await runJob(
          options,
          (l) => (said.out += `${l}\n`),
          (l) => (said.err += `${l}\n`),
        );
        return { code, ...said };
      };
      const collections = () => {
        const db = new DatabaseSync(project, { readOnly: true });
        const ids = (db.prepare('SELECT rowid FROM collections ORDER BY rowid').all() as Array<{ rowid: number }>).map(
          (c) =>
            db
              .prepare(
                'SELECT i.id AS id FROM collection_items c JOIN items i ON i.rowid = c.item WHERE c.collection = ? ORDER BY c.position',
              )
              .all(c.rowid)
              .map((r) => (r as { id: string }).id),
        );
        db.close();
        return ids;
      };

      refuseCollections(true);
      await resetLedger();
      const first = await run();
      expect(first.code, first.out + first.err).toBe(0);
      const file = join(dir, 'out', 'read-back.jsonl');
      const written = idsIn(file);
      expect(written).toEqual(asked.slice(0, 2));
      expect(first.err).toMatch(
        /The file is written, but the project could not keep this export as a collection: .*Run the same command again once the project can take it/,
      );
      expect((await ledgerLines()).length).toBeGreaterThan(0);
      expect(collections()).toEqual([]);

      // rights back: the same command keeps the written file as the project's collection, buying nothing
      refuseCollections(false);
      await resetLedger();
      const kept = await run();
      expect(kept.code, kept.out + kept.err).toBe(0);
      expect(kept.err).toBe('');
      expect(kept.out).toMatch(/wrote its file last run, but the project did not keep it .*: keeping it now \(no call/);
      expect(kept.out).toMatch(/Done: 2 items in .*read-back\.jsonl/);
      expect(await ledgerLines()).toEqual([]);
      expect(idsIn(file)).toEqual(written);
      expect(collections()).toEqual([written]);

      // kept once: the next run is a new run of the job (the file made again), not a second keeping
      expect((await run()).out).toMatch(/Starting job/);
      expect(collections()).toHaveLength(2);

      // refused again, and what the run collected then deleted from its folder: the next run cannot keep it, so it
      // runs the job anew (its file and its collection made again) instead of stopping there at every run after
      refuseCollections(true);
      expect((await run()).code).toBe(0);
      const [jobDir] = readdirSync(join(dir, 'runner', 'exports'));
      rmSync(join(dir, 'runner', 'exports', jobDir ?? '', 'journal.log'));
      refuseCollections(false);
      expect((await run()).out).toMatch(/Starting job/);
      expect(collections()).toHaveLength(3);
    },
  );

  it('refuses a job file a newer Skein wrote, before opening anything', async () => {
    const dir = tempDir();
    const jobFile = join(dir, 'job.json');
    writeFileSync(jobFile, JSON.stringify({ skein_job: 99, kind: 'export' }));
    const lines: string[] = [];
    const options = parseRunnerArgs(['run', jobFile, '--project', join(dir, 'p.skein'), '--demo'], {}) as JobRunOptions;
    expect(
      await runJob(
        options,
        (l) => lines.push(l),
        (l) => lines.push(l),
      ),
    ).toBe(2);
    expect(lines.join('\n')).toContain('made by a newer Skein (job format 99); this Skein reads up to 2');
  });

  it(
    'keeps what a newer Skein did on the project: its run listed as written, its progress refused in words, no call',
    { timeout: 60_000 },
    async () => {
      const dir = tempDir();
      const save = { next: join(dir, 'thread.skein-job.json') };
      const gui = app(dir, join(dir, 'gui.skein'), save);
      const { file } = await gui.core.handlers.jobs.save({ kind: 'export', start: bigThread(1) }, ctx);
      await gui.core.dispose();
      const project = join(dir, 'headless.skein');
      await newProject(dir, project);
      // a newer Skein's run on the same (team's) project: a status this Skein has no word for
      const theirs = {
        jobId: 'theirs-1',
        name: 'Their thread',
        kind: 'export',
        status: 'verifying',
        host: 'lab-server',
        startedAt: 1_764_000_000_000,
        finishedAt: null,
      };
      const db = new DatabaseSync(project);
      db.prepare("INSERT INTO meta (key, value) VALUES ('headless_jobs', ?)").run(JSON.stringify([theirs]));
      db.close();
      const options = parseRunnerArgs(
        [
          'run',
          file as string,
          '--project',
          project,
          '--data-dir',
          join(dir, 'runner'),
          '--api-base-url',
          sandbox.baseUrl,
        ],
        { SKEIN_API_KEY: KEY },
      ) as JobRunOptions;
      const lines: string[] = [];
      const run = () =>
        runJob(
          options,
          (l) => lines.push(l),
          (l) => lines.push(l),
        );
      expect(await run(), lines.join('\n')).toBe(EXIT_CAP);
      // the app lists both runs: its own, and the newer Skein's as written, whose record is kept as it was
      const later = app(join(dir, 'later'), project, { next: '' });
      const listed = await later.core.handlers.jobs.headless(undefined, ctx);
      await later.core.dispose();
      expect(listed.runs.map((r) => [r.name, r.status])).toEqual([['Big thread', 'partial']]);
      expect(listed.unread).toEqual([
        { name: 'Their thread', kind: 'export', status: 'verifying', host: 'lab-server', at: theirs.startedAt },
      ]);
      const meta = new DatabaseSync(project);
      const kept = meta.prepare("SELECT value FROM meta WHERE key = 'headless_jobs'").get() as { value: string };
      meta.close();
      expect(JSON.parse(kept.value)).toContainEqual(theirs);
      // a newer Skein then ran it on: its record is of a shape this Skein does not know
      const [folder] = readdirSync(join(dir, 'runner', 'exports'));
      const record = join(dir, 'runner', 'exports', folder as string, 'job.json');
      const newer = JSON.stringify({ ...JSON.parse(readFileSync(record, 'utf8')), status: 'verifying' });
      writeFileSync(record, newer);
      await resetLedger();
      lines.length = 0;
      expect(await run()).toBe(2);
      expect(lines.join('\n')).toContain("This job's saved progress was written by a newer Skein, or is damaged");
      expect(lines.join('\n')).toContain('Run the job with the newer Skein');
      expect(await ledgerLines()).toEqual([]);
      expect(readFileSync(record, 'utf8')).toBe(newer);
    },
  );
});
