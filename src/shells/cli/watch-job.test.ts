/**
 * A watch saved as a job from the app (`jobs.save`, what the watch form's "Save as job…" calls) and run with
 * `skein run`: the first run of the file switches its watch on in the project, each later run finds the same watch
 * (never a second one) and goes on; the window is the file's days from that first run; the total cap stops it with
 * its own exit code, and a cap raised in the file is the watch's on the next run; a stop says how to go on. The
 * sandbox's ledger is the witness: what it charged is what the watch's runs record.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { movingSandbox } from '../../core/testing/moving-sandbox';
import type { LedgerEntry } from '../../sandbox';
import { EXIT_CAP, runJob, type JobRunOptions } from './skein';

const HOUR = 3_600_000;
const world = movingSandbox({ base: Date.UTC(2026, 10, 22, 6, 0, 0), seed: 5, prefix: 'skein-watch-job-' });
const ctx = { senderId: 1 };
const WIDE = { perRun: 2_000, perDay: 4_000, total: 50_000 };

/** the app saves the watch its form describes as a job file in `dir` */
async function saveWatchJob(
  caps: { perRun: number; perDay: number; total: number },
  days: number,
  options: { keepMedia?: boolean } = {},
) {
  const list = await world.control<{ members: Array<{ id: string }> }>(
    `/__sandbox/lists/${world.sandbox().examples.listId}`,
  );
  const targets = list.members.slice(0, 4).map((m) => m.id);
  let saved = '';
  const { core, project, dir } = world.core({
    chooseSavePath: async (o) => {
      saved = join(dir, o.defaultPath ?? 'job.json');
      return saved;
    },
  });
  try {
    await core.projects.handleFor('current');
    const answer = await core.handlers.jobs.save(
      {
        kind: 'watch',
        watch: {
          name: 'Four accounts',
          kind: 'accounts',
          targets,
          handles: {},
          strategy: 'full',
          listId: null,
          schedule: { everyMinutes: 720, from: null, until: null },
          caps,
          options: { overlap: 3, firstPages: 1, fullEvery: 24, trackDays: 0, trackEvery: 24, ...options },
        },
        days,
      },
      ctx,
    );
    expect(answer.file).toBe(saved);
  } finally {
    await core.dispose();
  }
  return { jobFile: saved, project, dir, targets };
}

function run(jobFile: string, project: string, dir: string, over: Partial<JobRunOptions> = {}) {
  const lines: string[] = [];
  const options: JobRunOptions = {
    command: 'run',
    jobFile,
    project,
    researcher: undefined,
    apiBaseUrl: world.sandbox().baseUrl,
    apiKey: 'k',
    demo: false,
    dataDir: join(dir, 'runner'),
    rate: 100,
    verbose: false,
    once: true,
    memoryMb: 256,
    ...over,
  };
  const exit = (signal?: AbortSignal) =>
    runJob(
      options,
      (l) => lines.push(l),
      (l) => lines.push(l),
      signal,
      { now: world.now },
    );
  return { lines, exit };
}

const ledger = () => world.control<{ calls: LedgerEntry[] }>('/__sandbox/usage');
const credits = async () => (await ledger()).calls.reduce((n, c) => n + c.credits, 0);

describe('a watch saved as a job, run headless', () => {
  it('keeps its media after the run when asked, and a media failure never fails the run', async () => {
    const { jobFile, project, dir } = await saveWatchJob(WIDE, 2, { keepMedia: true });
    expect(JSON.parse(readFileSync(jobFile, 'utf8'))).toMatchObject({ watch: { options: { keepMedia: true } } });
    const first = run(jobFile, project, dir);
    // live mode against a server on this computer: its media addresses are local, so every file is refused
    expect(await first.exit(), first.lines.join('\n')).toBe(0);
    const out = first.lines.join('\n');
    expect(out).toMatch(/run \d+ media: 0 files kept \(0 for the watch so far\) — \d+ files? w(as|ere) not kept/);
    expect(out).toMatch(/Ran what was due: 1 run, \d+ posts kept/);
  });

  it('switches its watch on once, goes on with it run after run, and ends with its window', async () => {
    const { jobFile, project, dir } = await saveWatchJob(WIDE, 2);
    const text = readFileSync(jobFile, 'utf8');
    expect(JSON.parse(text)).toMatchObject({ skein_job: 2, kind: 'watch', days: 2, name: 'Four accounts' });
    expect(text).not.toMatch(/"until": \d/);
    await world.control('/__sandbox/usage/reset', { method: 'POST' });
    // what a newer Skein's watch job recorded on the same project, in a shape this Skein does not read
    const theirs = { watch: 41, until: null };
    const db = new DatabaseSync(project);
    db.prepare("INSERT INTO meta (key, value) VALUES ('watch_jobs', ?)").run(JSON.stringify({ 'their-job': theirs }));
    db.close();

    const first = run(jobFile, project, dir);
    expect(await first.exit(), first.lines.join('\n')).toBe(0);
    const out = first.lines.join('\n');
    expect(out).toMatch(/Switched on watch (\d+), until /);
    expect(out).toMatch(/Ran what was due: 1 run, \d+ posts kept, \d+ credits/);
    const id = /Switched on watch (\d+)/.exec(out)?.[1];
    const afterFirst = await credits();
    expect(afterFirst).toBeGreaterThan(0);

    // twelve hours on: the same watch, its second run
    world.advance(12 * HOUR + 60_000);
    const second = run(jobFile, project, dir);
    expect(await second.exit(), second.lines.join('\n')).toBe(0);
    expect(second.lines.join('\n')).toContain(`Going on with watch ${id}, which this job switched on`);
    expect(second.lines.join('\n')).toMatch(/Ran what was due: 2 runs/);

    // past its two days: it ends, done
    world.advance(2 * 24 * HOUR);
    const last = run(jobFile, project, dir);
    expect(await last.exit(), last.lines.join('\n')).toBe(0);
    expect(last.lines.join('\n')).toMatch(/Done: its window is over; 2 runs, \d+ posts kept, (\d+) credits/);

    // one watch in the project, its runs' records equal to the ledger; the app lists the job run headless
    const { core } = world.core({ projectPath: project });
    try {
      const { watches } = await core.handlers.watch.list(undefined, ctx);
      expect(watches.map((w) => w.id)).toEqual([Number(id)]);
      const runs = await core.handlers.watch.runs({ id: Number(id), limit: 10 }, ctx);
      expect(runs.reduce((n, r) => n + r.credits, 0)).toBe(await credits());
      const meta = new DatabaseSync(project);
      const made = meta.prepare("SELECT value FROM meta WHERE key = 'watch_jobs'").get() as { value: string };
      meta.close();
      // the job's watch beside what the newer Skein recorded, kept as it was
      const recorded = JSON.parse(made.value) as Record<string, unknown>;
      expect(recorded['their-job']).toEqual(theirs);
      expect(Object.values(recorded)).toEqual([theirs, Number(id)]);
      const headless = await core.handlers.jobs.headless(undefined, ctx);
      expect(headless.runs).toEqual([
        expect.objectContaining({ kind: 'watch', name: 'Four accounts', status: 'complete', credits: await credits() }),
      ]);
    } finally {
      await core.dispose();
    }
  });

  it('stops at its total cap with the cap’s exit code, and goes on when the file’s cap is raised', async () => {
    // a total that buys the first run's first pages, and not the next page
    const { jobFile, project, dir } = await saveWatchJob({ perRun: 1_000, perDay: 1_000, total: 1_000 }, 7);
    await world.control('/__sandbox/usage/reset', { method: 'POST' });
    const capped = run(jobFile, project, dir);
    expect(await capped.exit(), capped.lines.join('\n')).toBe(EXIT_CAP);
    expect(capped.lines.join('\n')).toContain('Stopped at its total cap of 1000 credits: 1 run');
    const spent = await credits();
    expect(spent).toBeGreaterThan(0);
    expect(spent).toBeLessThanOrEqual(1_000);
    // run again as it is: it stays stopped, and asks the service nothing
    world.advance(12 * HOUR + 60_000);
    const still = run(jobFile, project, dir);
    expect(await still.exit(), still.lines.join('\n')).toBe(EXIT_CAP);
    expect(await credits()).toBe(spent);

    // the person raises the caps in the file: the next run takes them and the watch runs again
    const file = JSON.parse(readFileSync(jobFile, 'utf8')) as { watch: { caps: typeof WIDE } };
    file.watch.caps = WIDE;
    writeFileSync(jobFile, JSON.stringify(file));
    const again = run(jobFile, project, dir);
    expect(await again.exit(), again.lines.join('\n')).toBe(0);
    expect(again.lines.join('\n')).toMatch(/caps 2000 a run, 4000 a day, 50000 in all/);
    expect(again.lines.join('\n')).toMatch(/Ran what was due: 2 runs/);
    expect(await credits()).toBeGreaterThan(spent);
  });

  it('stopped while it waits for its next run, says how to go on, and the next run finds the same watch', async () => {
    const { jobFile, project, dir } = await saveWatchJob(WIDE, 7);
    const job = run(jobFile, project, dir, { once: false, tickMs: 60_000 });
    const stop = new AbortController();
    const exit = job.exit(stop.signal);
    // its first run is done when its line is printed; the runner then waits for the next (twelve hours off)
    await expect.poll(() => job.lines.some((l) => /watch \d+ “Four accounts”/.test(l)), { timeout: 60_000 }).toBe(true);
    stop.abort();
    expect(await exit, job.lines.join('\n')).toBe(1);
    expect(job.lines.join('\n')).toMatch(/Stopped: 1 run, .*Run the same command again to go on with the same watch/);
    const id = /Switched on watch (\d+)/.exec(job.lines.join('\n'))?.[1];
    const next = run(jobFile, project, dir);
    expect(await next.exit()).toBe(0);
    expect(next.lines.join('\n')).toContain(`Going on with watch ${id}`);
  });
});
