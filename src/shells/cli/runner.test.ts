/**
 * The headless runner as a process: started, killed with SIGKILL in the middle of a run, and
 * started again, it picks the run up from its journal without buying a page twice and without losing the
 * run's record (a watch saved as a job too: the same watch and run, never a second); a second runner (or the app) refuses a project another runner has; SIGTERM stops a run
 * cleanly (a gap, the project let go). The sandbox runs in this process; the runner is `node --import tsx`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore } from '../../core';
import { addressText } from '../../core/db/postgres/connection';
import { skipWithoutPostgres, startTestCluster, type TestCluster } from '../../core/db/testing/postgres';
import { testCoreDeps } from '../../core/testing/core-deps';
import { startSandbox, type LedgerEntry, type RequestLogEntry, type Sandbox } from '../../sandbox';
import { watchJobOf } from '../../shared/jobs/saved-job';
import { parseRunnerArgs } from './skein';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const ENTRY = join(ROOT, 'src', 'shells', 'cli', 'skein.ts');
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

/** a project with one watch of twenty accounts, made as the app makes it (a file, or a team project's address) */
async function projectWithWatch(
  strategy: 'full' | 'probe',
  team?: { address: string; password: string },
): Promise<{ dir: string; project: string; watch: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'skein-runner-'));
  dirs.push(dir);
  const project = team?.address ?? join(dir, 'study.skein');
  const list = await control<{ members: Array<{ id: string }> }>(`/__sandbox/lists/${sandbox.examples.listId}`);
  const core = createCore(
    testCoreDeps(join(dir, 'app'), sandboxes, {
      apiBaseUrl: sandbox.baseUrl,
      apiKey: 'k',
      projectPath: project,
      ...(team ? { projectPassword: team.password } : {}),
      workers: undefined,
      confirm: async () => true,
      watches: { start: false },
    }),
  );
  // this Skein only makes the watch: a watch made kicks the scheduler, which would otherwise run it here first
  await core.watches.scheduler.stop();
  const w = await core.handlers.watch.create(
    {
      name: 'Twenty accounts',
      kind: 'accounts',
      targets: list.members.slice(0, 20).map((m) => m.id),
      handles: {},
      strategy,
      listId: null,
      schedule: { everyMinutes: 60, from: null, until: null },
      caps: { perRun: 20_000, perDay: 100_000, total: 1_000_000 },
      options: { overlap: 3, firstPages: 1, fullEvery: 24, trackDays: 0, trackEvery: 24 },
    },
    { senderId: 0 },
  );
  await core.dispose();
  return { dir, project, watch: w.id };
}

/** the app on a project file, its scheduler not started (it only makes or looks) */
const appOn = (project: string, dir: string) =>
  createCore(
    testCoreDeps(join(dir, 'app'), sandboxes, {
      apiBaseUrl: sandbox.baseUrl,
      apiKey: 'k',
      projectPath: project,
      workers: undefined,
      watches: { start: false },
    }),
  );

interface Runner {
  child: ChildProcess;
  lines: string[];
  /** resolves with the first line matching, once it is printed */
  line: (re: RegExp) => Promise<string>;
  /** resolves once `n` lines matching are printed */
  count: (re: RegExp, n: number) => Promise<void>;
  exit: Promise<number | null>;
}

function runner(
  project: string,
  dataDir: string,
  extra: string[] = [],
  env: NodeJS.ProcessEnv = {},
  command: string[] = ['watch'],
): Runner {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      ENTRY,
      ...command,
      '--project',
      project,
      '--data-dir',
      dataDir,
      '--rate',
      '5',
      '--tick',
      '0.2',
      ...extra,
    ],
    {
      cwd: ROOT,
      env: { ...process.env, SKEIN_API_BASE_URL: sandbox.baseUrl, SKEIN_API_KEY: 'k', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const lines: string[] = [];
  const waiting: Array<{ re: RegExp; n: number; resolve: (l: string) => void }> = [];
  let buffer = '';
  const onData = (chunk: Buffer) => {
    buffer += chunk.toString();
    for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
      const l = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      lines.push(l);
      for (const w of [...waiting])
        if (w.re.test(l) && lines.filter((x) => w.re.test(x)).length >= w.n) {
          waiting.splice(waiting.indexOf(w), 1);
          w.resolve(l);
        }
    }
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const wait = (re: RegExp, n: number): Promise<string> => {
    const hits = lines.filter((l) => re.test(l));
    if (hits.length >= n) return Promise.resolve(hits[n - 1] as string);
    return new Promise((resolve, reject) => {
      waiting.push({ re, n, resolve });
      void exit.then(() => reject(new Error(`the runner exited before printing ${re} (${n}):\n${lines.join('\n')}`)));
    });
  };
  return {
    child,
    lines,
    exit,
    line: (re) => wait(re, 1),
    count: async (re, n) => {
      await wait(re, n);
    },
  };
}

/** `step` within 60 s, or a failure that names it with what the runners printed (never a silent hang). */
async function within<T>(step: string, work: Promise<T>, runners: Runner[]): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new Error(
            `${step}: nothing after 60 s. The runners printed:\n${runners.map((r) => r.lines.join('\n')).join('\n---\n')}`,
          ),
        ),
      60_000,
    );
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

describe('the headless runner', () => {
  it('reads its command line, and refuses without a project or an API address', () => {
    expect(parseRunnerArgs(['watch', '--project', 'p.skein', '--demo'], {})).toMatchObject({ demo: true, once: false });
    expect(parseRunnerArgs(['watch'], {})).toEqual({ error: expect.stringContaining('--project') });
    expect(parseRunnerArgs(['watch', '--project', 'p.skein'], {})).toEqual({
      error: expect.stringContaining('address'),
    });
    expect(parseRunnerArgs(['serve'], {})).toEqual({ error: expect.stringContaining('unknown command') });
    expect(parseRunnerArgs(['watch', '--project', 'p.skein', '--api-base-url', 'https://api.example'], {})).toEqual({
      error: expect.stringContaining('SKEIN_API_KEY'),
    });
    expect(
      parseRunnerArgs(['watch', '--project', 'p.skein'], {
        SKEIN_API_BASE_URL: 'https://api.example',
        SKEIN_API_KEY: 'k',
      }),
    ).toMatchObject({ apiBaseUrl: 'https://api.example', apiKey: 'k' });
    expect(parseRunnerArgs(['watch', '--project', 'p', '--demo', '--rate', '0'], {})).toEqual({
      error: expect.stringContaining('--rate'),
    });
  });

  it(
    'without a key, against a live address, says so and exits 2 before asking anything',
    { timeout: 60_000 },
    async () => {
      const { dir, project } = await projectWithWatch('full');
      await fetch(`${sandbox.baseUrl}/__sandbox/requests`, { method: 'DELETE' });
      const keyless = runner(project, join(dir, 'runner'), ['--once'], { SKEIN_API_KEY: '' });
      expect(await keyless.exit).toBe(2);
      expect(keyless.lines.join('\n')).toContain('no API key: put it in SKEIN_API_KEY');
      const { requests } = await control<{ requests: unknown[] }>('/__sandbox/requests');
      expect(requests).toEqual([]);
    },
  );

  it(
    'killed with SIGKILL mid-run and started again, picks the run up without buying a page twice',
    { timeout: 180_000 },
    async () => {
      const { dir, project, watch } = await projectWithWatch('full');
      await fetch(`${sandbox.baseUrl}/__sandbox/usage/reset`, { method: 'POST' });
      await fetch(`${sandbox.baseUrl}/__sandbox/requests`, { method: 'DELETE' });
      const first = runner(project, join(dir, 'runner'), ['--verbose']);
      // the seventh page is journaled: kill it in the middle of the run (twenty timelines)
      await first.count(/ tl:\d+ — /, 7);
      const lineCount = first.lines.filter((l) => / tl:\d+ — /.test(l)).length;
      first.child.kill('SIGKILL');
      await first.exit;
      expect(lineCount).toBeGreaterThanOrEqual(7);
      expect(lineCount).toBeLessThan(20);

      // the run's record is there, still running, with what it spent so far
      const mid = new DatabaseSync(project, { readOnly: true });
      const left = mid.prepare('SELECT status, calls, credits FROM watch_runs WHERE watch = ?').all(watch) as Array<{
        status: string;
        calls: number;
      }>;
      mid.close();
      expect(left).toHaveLength(1);
      expect(left[0]).toMatchObject({ status: 'running' });
      expect(left[0]?.calls).toBeGreaterThanOrEqual(lineCount);

      const second = runner(project, join(dir, 'runner'), ['--once']);
      await second.line(/picking up run 1/);
      await second.line(/run 1 \(picked up again\) done/);
      expect(await second.exit).toBe(0);

      // every page of the run bought once, but for one whose request was in flight at the kill: the service
      // charged it and this runner never had its answer, so it is asked again (and its first purchase counted)
      const { requests } = await control<{ requests: RequestLogEntry[] }>('/__sandbox/requests');
      const urls = requests.map((r) => r.url);
      expect(new Set(urls).size).toBe(20);
      expect(urls.length - new Set(urls).size).toBeLessThanOrEqual(1);
      const ledger = await control<{ calls: LedgerEntry[]; totals: { calls: number; credits: number } }>(
        '/__sandbox/usage',
      );
      expect(ledger.totals.calls).toBe(urls.length);
      const db = new DatabaseSync(project, { readOnly: true });
      const runs = db
        .prepare('SELECT status, resumed, calls, credits, new_items FROM watch_runs WHERE watch = ?')
        .all(watch);
      const held = db
        .prepare("SELECT count(*) AS n FROM watch_presence WHERE watch = ? AND kind = 'post'")
        .get(watch) as { n: number };
      const lock = db.prepare('SELECT count(*) AS n FROM watch_runner').get() as { n: number };
      db.close();
      // the records say what the ledger says, the purchase lost in flight included
      expect(runs).toEqual([
        { status: 'done', resumed: 1, calls: ledger.totals.calls, credits: ledger.totals.credits, new_items: 0 },
      ]);
      expect(held.n).toBeGreaterThan(200);
      expect(lock.n).toBe(0);
      // its journal is gone once the run is settled
      expect(existsSync(`${project}-watch`) ? readdirSync(`${project}-watch`) : []).toEqual([]);
    },
  );

  it(
    'a watch saved as a job, killed with SIGKILL mid-run and run again, goes on with its watch and run',
    { timeout: 180_000 },
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'skein-runner-'));
      dirs.push(dir);
      const project = join(dir, 'study.skein');
      const maker = appOn(project, dir);
      await maker.projects.handleFor('current');
      await maker.dispose();
      const list = await control<{ members: Array<{ id: string }> }>(`/__sandbox/lists/${sandbox.examples.listId}`);
      const jobFile = join(dir, 'twenty.skein-job.json');
      writeFileSync(
        jobFile,
        JSON.stringify(
          watchJobOf({
            spec: {
              name: 'Twenty accounts',
              kind: 'accounts',
              targets: list.members.slice(0, 20).map((m) => m.id),
              handles: {},
              strategy: 'full',
              listId: null,
              schedule: { everyMinutes: 60, from: null, until: null },
              caps: { perRun: 20_000, perDay: 100_000, total: 1_000_000 },
              options: { overlap: 3, firstPages: 1, fullEvery: 24, trackDays: 0, trackEvery: 24 },
            },
            days: 7,
            id: randomUUID(),
            createdBy: 'Skein test',
            now: Date.now(),
          }),
        ),
      );
      await fetch(`${sandbox.baseUrl}/__sandbox/usage/reset`, { method: 'POST' });
      await fetch(`${sandbox.baseUrl}/__sandbox/requests`, { method: 'DELETE' });

      // the job's first run switches its watch on and is killed at its seventh page of twenty
      const first = runner(project, join(dir, 'runner'), ['--verbose'], {}, ['run', jobFile]);
      await first.count(/ tl:\d+ — /, 7);
      first.child.kill('SIGKILL');
      await first.exit;
      const id = /Switched on watch (\d+)/.exec(first.lines.join('\n'))?.[1];
      expect(id, first.lines.join('\n')).toBeDefined();

      // the same command again: the same watch, its run picked up where the kill left it
      const second = runner(project, join(dir, 'runner'), ['--once'], {}, ['run', jobFile]);
      expect(await second.exit, second.lines.join('\n')).toBe(0);
      expect(second.lines.join('\n')).toContain(`Going on with watch ${id}, which this job switched on`);
      expect(second.lines.join('\n')).toMatch(/picking up run 1/);

      // every timeline bought once, but for a page in flight at the kill (charged, its answer never read)
      const { requests } = await control<{ requests: RequestLogEntry[] }>('/__sandbox/requests');
      const urls = requests.map((r) => r.url);
      expect(new Set(urls).size).toBe(20);
      expect(urls.length - new Set(urls).size).toBeLessThanOrEqual(1);
      const ledger = await control<{ totals: { calls: number; credits: number } }>('/__sandbox/usage');
      expect(ledger.totals.calls).toBe(urls.length);
      const db = new DatabaseSync(project, { readOnly: true });
      const watches = db.prepare('SELECT rowid AS id FROM watches').all() as Array<{ id: number }>;
      const runs = db.prepare('SELECT status, resumed, calls, credits FROM watch_runs').all();
      db.close();
      // one watch, never a second; one run, whose record says what the ledger says
      expect(watches.map((w) => String(w.id))).toEqual([id]);
      expect(runs).toEqual([
        { status: 'done', resumed: 1, calls: ledger.totals.calls, credits: ledger.totals.credits },
      ]);
    },
  );

  it(
    'refuses a project another runner (or the app) has, and stops cleanly on SIGTERM',
    { timeout: 180_000 },
    async () => {
      const { dir, project, watch } = await projectWithWatch('full');
      // paced so that its run is still under way when SIGTERM comes, however slow this machine is meanwhile
      const first = runner(project, join(dir, 'runner-a'), ['--verbose', '--rate', '0.5']);
      await first.line(/ tl:\d+ — /);

      // a second runner on the same project: a polite refusal, nothing done
      const second = runner(project, join(dir, 'runner-b'));
      expect(await second.exit).toBe(3);
      expect(second.lines.join('\n')).toMatch(/already run by the headless runner on .* \(process \d+/);

      // the app on the same project stays out too
      const app = appOn(project, dir);
      await app.watches.scheduler.tick();
      expect(app.watches.scheduler.state()).toMatchObject({ holder: 'other', who: 'headless' });
      const listed = await app.handlers.watch.list(undefined, { senderId: 0 });
      expect(listed.runner).toMatchObject({ holder: 'other', who: 'headless' });
      await app.dispose();

      // SIGTERM: the run under way stops after its page in flight, its record says so, and a gap is left
      first.child.kill('SIGTERM');
      expect(await first.exit).toBe(0);
      expect(first.lines.join('\n')).toMatch(/run 1 stopped/);
      const db = new DatabaseSync(project, { readOnly: true });
      const runs = db.prepare('SELECT status, message FROM watch_runs WHERE watch = ?').all(watch) as Array<{
        status: string;
      }>;
      const gaps = db.prepare('SELECT reason, pending FROM watch_gaps WHERE watch = ?').all(watch) as Array<{
        reason: string;
        pending: string;
      }>;
      const lock = db.prepare('SELECT count(*) AS n FROM watch_runner').get() as { n: number };
      db.close();
      expect(runs.map((r) => r.status)).toEqual(['stopped']);
      expect(gaps.map((g) => g.reason)).toEqual(['stopped']);
      expect((JSON.parse(gaps[0]?.pending ?? '[]') as string[]).length).toBeGreaterThan(0);
      expect(lock.n).toBe(0);
    },
  );
});

const noPostgres = skipWithoutPostgres();

describe.skipIf(noPostgres)(`the headless runner on a team project (${noPostgres ?? 'PostgreSQL'})`, () => {
  let cluster: TestCluster;
  beforeAll(async () => {
    cluster = await startTestCluster();
  }, 120_000);
  afterAll(() => cluster?.stop());

  /** the runners' session locks held on the server (a Skein that holds a project's runner row holds one) */
  const locks = () =>
    Number(cluster.psql("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND classid = 7564146").trim());

  it(
    'one runner across two machines: the other refuses while it lives, and after it is killed takes over',
    // should machine A never find the watch due (the service never asked; the server idle), `within` says so in
    // 60 s with the state
    { timeout: 180_000, retry: 1 },
    async () => {
      const address = addressText(cluster.connection('team_watch'));
      const { dir, watch } = await projectWithWatch('full', { address, password: cluster.password });
      const env = { SKEIN_PROJECT_PASSWORD: cluster.password };
      // machine A (its own data folder, where its run's journal is)
      // paced so that its run is still under way when it is killed, however slow this machine is meanwhile
      const a = runner(address, join(dir, 'machine-a'), ['--verbose', '--researcher', 'Server A', '--rate', '1'], env);
      await within('machine A starts its runs', a.count(/ tl:\d+ — /, 3), [a]).catch(async (e: unknown) => {
        const asked = await control<{ requests: unknown[] }>('/__sandbox/requests');
        throw new Error(
          `${String(e)}\nthe service was asked ${asked.requests.length} times\nserver: ${cluster.psql("SELECT pid, state, wait_event_type, wait_event, left(query, 160) FROM pg_stat_activity WHERE backend_type = 'client backend'")}\nlocks: ${cluster.psql("SELECT pid, locktype, classid, objid, granted, mode FROM pg_locks WHERE locktype = 'advisory'")}`,
        );
      });
      expect(locks()).toBe(1);

      // machine B: a polite refusal while A lives, whatever its clock or host name say
      const b = runner(address, join(dir, 'machine-b'), [], env);
      expect(await within('machine B refuses', b.exit, [a, b])).toBe(3);
      expect(b.lines.join('\n')).toMatch(/already run by the headless runner on .* \(process \d+/);

      // A is killed outright: its connection closes, the server lets go of its lock
      a.child.kill('SIGKILL');
      await within('machine A ends once killed', a.exit, [a]);
      await expect.poll(locks, { timeout: 30_000 }).toBe(0);

      // B takes over: A's run is closed (its journal is on A), its period a gap the next run reads back
      const b2 = runner(address, join(dir, 'machine-b'), ['--once', '--researcher', 'Server B'], env);
      expect(await within('machine B takes over and runs once', b2.exit, [b2])).toBe(0);
      const rows = (sql: string) =>
        cluster
          .psql(sql)
          .trim()
          .split('\n')
          .filter((l) => l !== '');
      const runs = rows(
        `SELECT status || '|' || coalesce(message, '') FROM team_watch.watch_runs WHERE watch = ${watch} ORDER BY rowid`,
      );
      expect(runs[0]).toMatch(
        /^interrupted\|Its runner \(the headless runner on .*\) stopped, and its journal is not on this computer/,
      );
      expect(runs.slice(1).every((r) => r.startsWith('done|'))).toBe(true);
      expect(rows(`SELECT reason FROM team_watch.watch_gaps WHERE watch = ${watch}`)).toContain('stopped');
      expect(rows('SELECT count(*) FROM team_watch.watch_runner')).toEqual(['0']);
      expect(rows("SELECT value FROM team_watch.meta WHERE key = 'watch_runner_last'")[0]).toMatch(/"clean":true/);
      // each machine's answers are signed with its researcher's name
      expect(rows('SELECT DISTINCT researcher FROM team_watch.requests ORDER BY 1')).toEqual(['Server A', 'Server B']);
      expect(locks()).toBe(0);
    },
  );

  it('refuses a team project whose password is on the command line', () => {
    expect(
      parseRunnerArgs(['watch', '--project', 'postgresql://ada:secret@db.example/research?schema=s', '--demo'], {}),
    ).toEqual({ error: expect.stringContaining('SKEIN_PROJECT_PASSWORD') });
    expect(
      parseRunnerArgs(['watch', '--project', 'postgresql://ada@db.example/research?schema=s', '--demo'], {}),
    ).toMatchObject({
      project: 'postgresql://ada@db.example/research?schema=s',
    });
  });
});
