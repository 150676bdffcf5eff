#!/usr/bin/env node
/**
 * The headless runner: `skein watch --project path/to/project.skein` runs a project's watches on
 * their schedules, on a server, with no window (a team project on PostgreSQL too: `--project` is then its
 * address as Manage projects shows it, the password in SKEIN_PROJECT_PASSWORD) — a third composition root over the same `createCore` as the
 * app and the browser shell, so the caps, the journal and the gaps are the app's own. One line per run on
 * standard output (one per page with `--verbose`); SIGTERM or Ctrl+C ends the run under way cleanly (the
 * page in flight is kept; the rest is a gap the next run fills) and lets go of the project. A project that
 * another runner (this one elsewhere, or Skein itself) already runs is refused, politely, with exit code 3.
 *
 * The API key and a team project's password come from the environment (SKEIN_API_KEY,
 * SKEIN_PROJECT_PASSWORD), never from the command line (a process list shows it): see USAGE.
 */
import { closeSync, existsSync, openSync, readFileSync, readSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { StringDecoder } from 'node:string_decoder';
import { parseArgs } from 'node:util';
import { isMainThread } from 'node:worker_threads';
import type { Core, CoreDeps } from '../../core';
import { isSkeinError } from '../../shared/errors';
import type { ExportJob } from '../../shared/ipc/export';
import type { MediaJob } from '../../shared/ipc/media';
import type { HeadlessRun } from '../../shared/ipc/jobs';
import type { WatchSavedJob } from '../../shared/jobs/saved-job';
import { withFewerArenas } from './arenas';
import { JOB_MEMORY_MB, jobOfThisThread, reportExitCode, runJobInThread, stopFromMain } from './job-thread';

export const USAGE = `Usage: skein watch --project PATH [options]
       skein run JOB.json --project PATH [--demo | --api-base-url URL] [--data-dir DIR] [--rate N] [--researcher NAME] [--memory MB]
  watch: runs the watches of a Skein project on their schedules, until stopped (SIGTERM, Ctrl+C).
  run:   runs a job saved from Skein (Save as job…) on the project: a line per page or batch; run it again
         after a stop or a failure and it goes on where it stopped, without paying for a page twice.
         A watch job switches its watch on in the project (the next run of the file finds it again) and runs
         it alone, a line per run, until its window ends or its total cap is spent.

  --project PATH      the project file (.skein) whose watches run; they are made and switched on in Skein.
                      A team project: its address as Manage projects shows it
                      (postgresql://user@host:5432/database?schema=NAME), the password in SKEIN_PROJECT_PASSWORD
  --researcher NAME   the name this runner's answers are recorded with in a team project
  --api-base-url URL  the API's address (or SKEIN_API_BASE_URL); the key is read from SKEIN_API_KEY
  --demo              run against Skein's built-in demo API instead (no key, no cost)
  --data-dir DIR      where the runner keeps its settings and usage (or SKEIN_USER_DATA_DIR;
                      default ~/.config/Skein/runner)
  --rate N            requests per second (default: the settings' pace, 0.2 out of the box)
  --once              run what is due (and pick up an unfinished run), then exit: for cron (watch, or a watch job)
  --tick SECONDS      how often to look for due watches (default 30; watch, or a watch job)
  --verbose           a line per page, not only per run
  --memory MB         run: the most memory the job's heap may take (default ${JOB_MEMORY_MB}); a job that needs more stops,
                      says so, and goes on where it stopped when run again with more

Exit codes: 0 done (watch: or stopped; a watch job with --once: what was due ran), 1 an error (run: stopped or
failed; run it again to go on), 2 a mistake in the command or the job file, 3 another runner runs this project,
4 (run) the job stopped at one of its caps (a watch job: its total cap).

  skein verify --project PATH re-hashes the project's kept media files and captured pages (skein verify --help).`;

/** the least `--memory` a job may be given: the runner's own modules take ~20 MB of it */
const MIN_JOB_MEMORY_MB = 64;

/**
 * A file's text, read a piece at a time. Read whole, a job file of a million ids is one 23 MB buffer the C library
 * maps and frees, and from then on it keeps that much more freed memory in its threads' arenas instead of returning
 * it (glibc raises its threshold for mapping to the largest block freed). A hydration of a million ids from such a
 * file peaked at 308 / 323 MB read in pieces, 330–379 MB read whole.
 */
export function readInPieces(path: string): string {
  const fd = openSync(path, 'r');
  try {
    const piece = Buffer.allocUnsafe(64 * 1024);
    const decoder = new StringDecoder('utf8');
    let text = '';
    for (let n = readSync(fd, piece); n > 0; n = readSync(fd, piece)) text += decoder.write(piece.subarray(0, n));
    return text + decoder.end();
  } finally {
    closeSync(fd);
  }
}

/** `skein run`'s exit codes beside 0, 1 and 2 (3 is watch's: the project is busy) */
/** Why a job could not run, and what to do about it where Skein knows (a refusal's action). */
function couldNotRun(error: unknown): string {
  const action = isSkeinError(error) ? error.details?.action : undefined;
  return `skein: the job could not run: ${(error as Error).message}${action ? ` ${action}` : ''}`;
}

export const EXIT_CAP = 4;

export interface RunnerOptions {
  command: 'watch';
  /** a project file's path, or a team project's address (no password) */
  project: string;
  researcher: string | undefined;
  apiBaseUrl: string | undefined;
  /** read from the environment (SKEIN_API_KEY), never from the command line */
  apiKey: string | undefined;
  demo: boolean;
  dataDir: string;
  rate: number | undefined;
  once: boolean;
  tickMs: number;
  verbose: boolean;
}

/** a team project's address, not a file */
const TEAM_PROJECT = /^postgres(ql)?:\/\//i;

function passwordIn(address: string): boolean {
  try {
    return new URL(address).password !== '';
  } catch {
    return false;
  }
}

/** no keyring on a server: the key stays in memory, read from the environment */
const NO_KEYRING: CoreDeps['secretStorage'] = {
  isEncryptionAvailable: async () => false,
  backend: () => 'basic_text',
  encryptString: async () => new Uint8Array(),
  decryptString: async () => '',
};

export function defaultDataDir(env = process.env, home = homedir()): string {
  return join(env.XDG_CONFIG_HOME ?? join(home, '.config'), 'Skein', 'runner');
}

/** `skein run JOB.json --project P`: one saved job, then exit */
export interface JobRunOptions extends Omit<RunnerOptions, 'command' | 'tickMs'> {
  command: 'run';
  /** the job file's absolute path */
  jobFile: string;
  /** a watch job: how often to look whether its next run is due (absent: 30 s; an export job takes none) */
  tickMs?: number;
  /** the most the job's heap may take (its thread's old generation), in MB */
  memoryMb: number;
}

export function parseRunnerArgs(
  argv: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): RunnerOptions | JobRunOptions | { help: true } | { error: string } {
  const [command, ...rest] = argv;
  if (command === '--help' || command === '-h' || command === undefined) return { help: true };
  if (command !== 'watch' && command !== 'run')
    return { error: `unknown command “${command}” (the runner has three: watch, run and verify)` };
  let values;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: [...rest],
      allowPositionals: command === 'run',
      options: {
        project: { type: 'string' },
        researcher: { type: 'string' },
        'api-base-url': { type: 'string' },
        demo: { type: 'boolean' },
        'data-dir': { type: 'string' },
        rate: { type: 'string' },
        once: { type: 'boolean' },
        tick: { type: 'string' },
        memory: { type: 'string' },
        verbose: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    }));
  } catch (error) {
    return { error: (error as Error).message };
  }
  if (values.help) return { help: true };
  const [jobFile, ...extra] = positionals;
  if (command === 'run' && jobFile === undefined) return { error: 'which job? skein run JOB.json --project PATH' };
  if (extra.length > 0) return { error: `one job at a time (“${extra.join(' ')}” is one too many)` };
  if (!values.project)
    return {
      error: `--project is required: the project file ${command === 'run' ? 'the job records its work in' : 'whose watches run'}`,
    };
  const team = TEAM_PROJECT.test(values.project);
  if (team && passwordIn(values.project))
    return {
      error:
        'leave the password out of --project (a process list shows the command line): put it in SKEIN_PROJECT_PASSWORD',
    };
  const rate = values.rate === undefined ? undefined : Number(values.rate);
  if (rate !== undefined && !(rate > 0 && rate <= 100))
    return { error: `--rate must be between 0 and 100, not ${values.rate}` };
  const tick = values.tick === undefined ? 30 : Number(values.tick);
  if (!(tick >= 0.05 && tick <= 3600))
    return { error: `--tick must be between 0.05 and 3600 seconds, not ${values.tick}` };
  const memory = values.memory === undefined ? JOB_MEMORY_MB : Number(values.memory);
  if (values.memory !== undefined && command !== 'run') return { error: '--memory is for skein run (a job)' };
  if (!(Number.isInteger(memory) && memory >= MIN_JOB_MEMORY_MB && memory <= 65_536))
    return { error: `--memory must be a whole number of MB from ${MIN_JOB_MEMORY_MB} to 65536, not ${values.memory}` };
  const apiBaseUrl = values['api-base-url'] ?? (env.SKEIN_API_BASE_URL || undefined);
  if (!values.demo && !apiBaseUrl)
    return {
      error: 'give the API’s address (--api-base-url or SKEIN_API_BASE_URL), or --demo for the built-in demo API',
    };
  // refused before anything is opened: a run without a key would only record failures and gaps, and send the
  // service a request it cannot attribute
  if (!values.demo && !env.SKEIN_API_KEY)
    return {
      error: `no API key: put it in SKEIN_API_KEY (never on the command line), or use --demo for the built-in demo API`,
    };
  const common = {
    project: team ? values.project : resolve(values.project),
    researcher: values.researcher,
    apiBaseUrl: values.demo ? undefined : apiBaseUrl,
    apiKey: values.demo ? undefined : env.SKEIN_API_KEY,
    demo: values.demo ?? false,
    dataDir: values['data-dir'] ?? (env.SKEIN_USER_DATA_DIR || defaultDataDir(env)),
    rate,
    verbose: values.verbose ?? false,
  };
  if (command === 'run')
    return {
      command,
      jobFile: resolve(jobFile as string),
      ...common,
      memoryMb: memory,
      once: values.once ?? false,
      ...(values.tick !== undefined ? { tickMs: Math.round(tick * 1000) } : {}),
    };
  return { command, ...common, once: values.once ?? false, tickMs: Math.round(tick * 1000) };
}

function appVersion(): string {
  for (const candidate of ['../../package.json', '../../../package.json']) {
    try {
      return (JSON.parse(readFileSync(join(import.meta.dirname, candidate), 'utf8')) as { version: string }).version;
    } catch {
      /* next */
    }
  }
  return '0.0.0';
}

export interface RunningRunner {
  core: Core;
  /** resolves when the runner has stopped (after `stop`, or `--once` when done) */
  done: Promise<void>;
  stop: () => Promise<void>;
}

/**
 * The core, loaded where a command runs it: not by the main thread of `skein run`, which only starts the job's
 * thread (loading it there too took ~65 MB of the process's memory for nothing).
 */
const loadCore = () => import('../../core');
/** what a job's run reads its file and bill with (zod's schemas: loaded with the core, where the job runs) */
const loadJobs = async () => ({
  ...(await import('../../shared/jobs/saved-job')),
  ...(await import('../../shared/api/pricing')),
});

/** The core both commands run over: one project, the key from the environment, no window. */
async function runnerCore(
  options: RunnerOptions | JobRunOptions,
  err: (line: string) => void,
  over: Partial<CoreDeps>,
): Promise<Core> {
  const team = TEAM_PROJECT.test(options.project);
  if (!team && !existsSync(options.project))
    throw new Error(
      `there is no project at ${options.project}. Make it in Skein (Archive → New project)${options.command === 'watch' ? ', switch its watches on there,' : ''} and copy the file here.`,
    );
  const { createCore } = await loadCore();
  return createCore({
    userDataDir: options.dataDir,
    secretStorage: NO_KEYRING,
    openExternal: async () => {},
    app: { name: 'Skein runner', version: appVersion(), platform: process.platform },
    apiBaseUrl: options.apiBaseUrl,
    apiKey: options.demo ? undefined : options.apiKey,
    startSandbox: async (o) => (await import('../../sandbox')).startSandbox(o),
    chooseSavePath: async () => null,
    emit: () => {},
    projectPath: options.project,
    ...(team ? { projectPassword: process.env.SKEIN_PROJECT_PASSWORD || null } : {}),
    ...(options.researcher !== undefined ? { researcher: options.researcher } : {}),
    ...(options.rate !== undefined ? { requestsPerSecond: options.rate } : {}),
    workers: { archive: new URL('./archive-worker.js', import.meta.url) },
    log: {
      error: (message, error) => err(`[skein] ${message}${error instanceof Error ? `: ${error.message}` : ''}`),
      warn: (message) => err(`[skein] ${message}`),
    },
    ...over,
  });
}

/** Starts the runner; throws `RunnerBusy` when another runner has the project, an Error with a sentence otherwise. */
export async function startRunner(
  options: RunnerOptions,
  out: (line: string) => void = (l) => console.log(l),
  err: (line: string) => void = (l) => console.error(l),
): Promise<RunningRunner> {
  const core = await runnerCore(options, err, {
    watches: { who: 'headless', start: false, tickMs: options.tickMs, progress: out, verbose: options.verbose },
  });
  const { scheduler } = core.watches;
  try {
    await scheduler.claimProject();
  } catch (error) {
    await core.dispose();
    throw error;
  }
  const list = await core.handlers.watch.list(undefined, { senderId: 0 });
  const active = list.watches.filter((w) => w.state === 'active' || w.state === 'waiting');
  out(
    `Skein runner ${appVersion()}: ${options.project} — ${list.watches.length} watch${list.watches.length === 1 ? '' : 'es'} (${active.length} switched on${active.length ? `: ${active.map((w) => `“${w.spec.name}”`).join(', ')}` : ''}), against ${options.demo ? 'the built-in demo API' : options.apiBaseUrl}${options.rate ? `, ${options.rate} requests a second` : ''}. ${options.once ? 'Running what is due, once.' : 'Stop with Ctrl+C or SIGTERM.'}`,
  );
  let stopped = false;
  let finish: () => void = () => {};
  const done = new Promise<void>((r) => (finish = r));
  const stop = async () => {
    if (stopped) return done;
    stopped = true;
    await core.dispose();
    finish();
    return done;
  };
  if (options.once) {
    void scheduler
      .tick()
      .then(() => stop())
      .catch(() => stop());
  } else scheduler.start();
  return { core, done, stop };
}

const CAP_WORDS: Partial<Record<string, string>> = {
  'cap-pages': 'its page cap',
  'cap-items': 'its item cap',
  'cap-credits': 'its credit cap',
};

/**
 * `skein run JOB.json --project P`: the saved job, through the export service the app's dialog starts, with a
 * line per page (a hydration: per batch) and an exit code that says how it ended. `stop` (SIGTERM, Ctrl+C) ends
 * it as quitting the app does: the page in flight is kept, and the next run goes on from there.
 */
export async function runJob(
  options: JobRunOptions,
  out: (line: string) => void = (l) => console.log(l),
  err: (line: string) => void = (l) => console.error(l),
  stop?: AbortSignal,
  /** what a test replaces (the clock) */
  over: Partial<CoreDeps> = {},
): Promise<number> {
  const { readSavedJob, creditsToUsd } = await loadJobs();
  let read: ReturnType<typeof readSavedJob>;
  try {
    // read and parsed in one step: the text of a file of a million ids is not kept for the whole run
    read = readSavedJob(readInPieces(options.jobFile));
  } catch {
    err(`skein: there is no job file at ${options.jobFile}.`);
    return 2;
  }
  if (!read.ok) {
    err(`skein: ${options.jobFile}: ${read.message}`);
    return 2;
  }
  const file = read.job;
  if (file.kind === 'watch') return runWatchJob(file, options, out, err, stop, over);
  if (options.once || options.tickMs !== undefined) {
    err('skein: --once and --tick are for a watch job: this job runs once, to its end.');
    return 2;
  }
  let jobId: string | null = null;
  let pages = -1;
  let core: Core;
  try {
    core = await runnerCore(options, err, {
      ...over,
      watches: { who: 'headless', start: false },
      emit: (name, payload) => {
        if (name !== 'export') return;
        const job = payload as ExportJob;
        if (job.id !== jobId || job.status !== 'collecting' || job.progress.pages === pages) return;
        pages = job.progress.pages;
        if (pages > 0) out(progressLine(file.kind, job));
      },
    });
  } catch (error) {
    err(`skein: ${(error as Error).message}`);
    return 2;
  }
  let disposed: Promise<void> | undefined;
  const dispose = () => (disposed ??= core.dispose());
  const onStop = () => void dispose();
  stop?.addEventListener('abort', onStop, { once: true });
  try {
    const what =
      file.kind === 'hydrate'
        ? `a hydration of ${file.ids?.list.length ?? 0} ${file.ids?.entity ?? 'ids'}`
        : file.job.scope === 'all'
          ? 'a collection'
          : 'an export';
    out(
      `Skein runner ${appVersion()}: job “${file.name}” (${what}, ${file.job.format}) on ${options.project}, against ${options.demo ? 'the built-in demo API' : options.apiBaseUrl}.`,
    );
    const { job } = await core.jobs.run(
      file,
      { jobFolder: dirname(options.jobFile), project: options.project },
      (id, how) => {
        jobId = id;
        out(
          how === 'keeping'
            ? `Job ${id} wrote its file last run, but the project did not keep it as a collection then: keeping it now (no call, nothing to pay).`
            : how === 'resumed'
              ? `Going on with job ${id} where its last run stopped (pages it paid for are not bought again).`
              : `Starting job ${id}.`,
        );
      },
    );
    // the media of its posts, when the job asked: kept after the file, never failing the job
    if (job.mediaJob) {
      out('Keeping the photos and videos of its posts…');
      const media = await core.mediaJobs.settled(job.mediaJob);
      if (media) out(mediaLine(media));
    }
    // the file is whole; what the project could not do with it is said, never a failure of the job
    if (job.unrecorded)
      err(
        `The file is written, but the project could not keep this export as a collection: ${job.unrecorded.error.message.replace(/\.$/, '')}. Run the same command again once the project can take it: the file is kept as its collection then, with no call.`,
      );
    const prices = core.client.settings().prices;
    const spent = `${job.progress.calls} call${job.progress.calls === 1 ? '' : 's'}, ${job.progress.credits} credits (about $${creditsToUsd(job.progress.credits, prices).toFixed(4)})`;
    const where = job.files.join(', ');
    const cap = job.stopReason ? CAP_WORDS[job.stopReason] : undefined;
    if (job.status === 'complete') {
      out(`Done: ${job.progress.items} items in ${where}; the job has cost ${spent}.`);
      return 0;
    }
    if (job.status === 'partial' && cap) {
      out(
        `Stopped at ${cap}: ${job.progress.items} items in ${where}; the job has cost ${spent}. To collect more, raise the cap in the job file and run it again: it goes on from where it stopped.`,
      );
      return EXIT_CAP;
    }
    if (job.status === 'partial' && !job.resumable) {
      out(
        `Done, as far as the service goes (${job.stopReason ?? 'stopped'}): ${job.progress.items} items in ${where}; the job has cost ${spent}.`,
      );
      return 0;
    }
    const why = (
      job.error?.message ?? (job.status === 'interrupted' ? 'it was stopped' : `it ended ${job.status}`)
    ).replace(/\.$/, '');
    err(
      job.resumable
        ? `Stopped (${why}): ${job.progress.items} items so far. Run the same command again to go on where it stopped (nothing is paid for twice).`
        : `Failed: ${why}.`,
    );
    return 1;
  } catch (error) {
    err(couldNotRun(error));
    // what this Skein cannot read will not run by trying again: like a newer Skein's job file, a 2
    return isSkeinError(error) && error.code === 'unreadable' ? 2 : 1;
  } finally {
    stop?.removeEventListener('abort', onStop);
    await dispose();
  }
}

/**
 * A watch job: its watch (made by the first run of the file on the project, found by the next), run on its schedule
 * until its window ends or its total cap is spent, a line per run; `--once` runs what is due and exits (for cron).
 * Stopped, the run under way keeps its page in flight and the next run of the file goes on with the same watch.
 * Only this watch runs: others the project holds are left to whoever runs them.
 */
async function runWatchJob(
  file: WatchSavedJob,
  options: JobRunOptions,
  out: (line: string) => void,
  err: (line: string) => void,
  stop: AbortSignal | undefined,
  over: Partial<CoreDeps>,
): Promise<number> {
  const tickMs = options.tickMs ?? 30_000;
  let core: Core;
  try {
    core = await runnerCore(options, err, {
      ...over,
      // the caps are the person's, written in the file they run: there is no dialog to confirm them in
      confirm: async () => true,
      watches: { who: 'headless', start: false, tickMs, progress: out, verbose: options.verbose },
    });
  } catch (error) {
    err(`skein: ${(error as Error).message}`);
    return 2;
  }
  const now = over.now ?? Date.now;
  let stopped = stop?.aborted ?? false;
  let wake: () => void = () => {};
  let disposed: Promise<void> | undefined;
  const dispose = () => (disposed ??= core.dispose());
  const onStop = () => {
    stopped = true;
    wake();
    void dispose();
  };
  stop?.addEventListener('abort', onStop, { once: true });
  const startedAt = now();
  let record: ((status: HeadlessRun['status']) => Promise<void>) | null = null;
  try {
    try {
      await core.watches.scheduler.claimProject();
    } catch (error) {
      if (error instanceof (await loadCore()).RunnerBusy) {
        err(`skein: ${error.message}`);
        return 3;
      }
      throw error;
    }
    const { jobId, watch, made } = await core.jobs.watchFor(file, options.project);
    const id = watch.id;
    let current = watch;
    record = (status) => core.jobs.recordWatch(file, jobId, current, status, startedAt);
    const until = current.spec.schedule.until ?? null;
    out(
      `Skein runner ${appVersion()}: watch job “${file.name}” (${current.spec.targets.length} target${current.spec.targets.length === 1 ? '' : 's'}, a run every ${current.spec.schedule.everyMinutes} minutes, caps ${current.spec.caps.perRun} a run, ${current.spec.caps.perDay} a day, ${current.spec.caps.total} in all) on ${options.project}, against ${options.demo ? 'the built-in demo API' : options.apiBaseUrl}.`,
    );
    out(
      `${made ? `Switched on watch ${id}` : `Going on with watch ${id}, which this job switched on`}${until === null ? ', with no end' : `, until ${new Date(until).toISOString().slice(0, 16).replace('T', ' ')} UTC`}.`,
    );
    await record('running');
    const read = async () => {
      const w = (await core.handlers.watch.list(undefined, { senderId: 0 })).watches.find((x) => x.id === id);
      if (!w) throw new Error('its watch was removed from the project while it ran');
      return w;
    };
    /** its total cap is spent: the watch ended on it, or what is left cannot buy the page its last run stopped before */
    const atTotalCap = (w: typeof current) =>
      (w.state === 'ended' && !(until !== null && now() > until)) ||
      (w.lastRun?.status === 'capped' && w.spent.total + (w.projection?.pageBound?.credits ?? 0) > w.spec.caps.total);
    for (;;) {
      if (current.state === 'ended' || current.state === 'paused' || atTotalCap(current) || stopped) break;
      await core.watches.scheduler.tick(id);
      if (stopped) break;
      current = await read();
      if (current.state === 'ended' || current.state === 'paused' || atTotalCap(current) || options.once) break;
      const next = current.nextRunAt ?? now() + tickMs;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.max(0, Math.min(tickMs, next - now())));
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
    const { creditsToUsd } = await loadJobs();
    const spent = `${current.runs} run${current.runs === 1 ? '' : 's'}, ${current.kept.posts} posts kept, ${current.spent.total} credits (about $${creditsToUsd(current.spent.total, core.client.settings().prices).toFixed(4)})`;
    if (stopped) {
      err(
        `Stopped: ${spent} so far. Run the same command again to go on with the same watch (nothing is paid for twice).`,
      );
      await record('interrupted').catch(() => undefined);
      return 1;
    }
    if (current.state === 'paused') {
      err(`The watch is paused in Skein: resume it there, or run the job again once it is. So far: ${spent}.`);
      await record('interrupted');
      return 1;
    }
    if (atTotalCap(current)) {
      out(
        `Stopped at its total cap of ${current.spec.caps.total} credits: ${spent}. To go on, raise the cap in the job file and run it again.`,
      );
      await record('partial');
      return EXIT_CAP;
    }
    if (current.state !== 'ended') {
      const at =
        current.nextRunAt === null
          ? ''
          : ` Its next run is due ${new Date(current.nextRunAt).toISOString().slice(0, 16).replace('T', ' ')} UTC:`;
      out(`Ran what was due: ${spent}.${at} run the same command again (from cron, say) to go on.`);
      await record('running');
      return 0;
    }
    out(`Done: its window is over; ${spent}.`);
    await record('complete');
    return 0;
  } catch (error) {
    err(couldNotRun(error));
    await record?.('failed').catch(() => undefined);
    return 1;
  } finally {
    stop?.removeEventListener('abort', onStop);
    await dispose();
  }
}

/** A job's progress line: its page (a hydration's batch), what it holds and what it has cost so far. */
/** how a keeping of media ended, in one line (a failure is said, never an exit code) */
export function mediaLine(m: MediaJob): string {
  const files = (n: number) => `${n} file${n === 1 ? '' : 's'}`;
  const failed =
    m.failed > 0
      ? ` ${files(m.failed)} not kept (${Object.entries(m.reasons)
          .map(([reason, n]) => `${n} ${reason.replace('-', ' ')}`)
          .join(', ')}); running it again tries them once more.`
      : '';
  const megabytes = (m.storedBytes / 1e6).toFixed(1);
  switch (m.state) {
    case 'done':
      return `Media: kept ${files(m.kept)} (${megabytes} MB new; ${m.alreadyKept} already kept, not fetched again).${failed}`;
    case 'cancelled':
      return `Media: stopped after ${files(m.done)}; running it again goes on where it stopped.${failed}`;
    case 'failed':
      return `Media: not kept (${(m.message ?? 'something went wrong').replace(/\.$/, '')}).`;
    case 'running':
      return `Media: ${m.done} of ${files(m.total)} kept so far.`;
  }
}

function progressLine(kind: 'export' | 'hydrate', job: ExportJob): string {
  const p = job.progress;
  const waiting = p.waitingUntil
    ? `; rate limited, waiting until ${new Date(p.waitingUntil).toISOString().slice(11, 19)} UTC`
    : '';
  const share = p.fraction === null ? '' : ` (${Math.round(p.fraction * 100)}%)`;
  return `${kind === 'hydrate' ? 'batch' : 'page'} ${p.pages}${share} — ${p.items} items, ${p.calls} call${p.calls === 1 ? '' : 's'}, ${p.credits} credits${waiting}`;
}

/**
 * `skein run …`: the job, in a thread whose heap is held to `--memory` (job-thread.ts), then exit with its code;
 * SIGTERM or Ctrl+C stop it so that it can go on.
 */
async function mainRun(options: JobRunOptions): Promise<void> {
  const stop = new AbortController();
  const onSignal = (signal: string) => {
    console.log(`Stopping (${signal}): the page in flight is kept; run the same command again to go on.`);
    stop.abort();
  };
  process.once('SIGINT', () => onSignal('SIGINT'));
  process.once('SIGTERM', () => onSignal('SIGTERM'));
  process.exitCode = await runJobInThread(new URL(import.meta.url), options, stop.signal, console.error);
}

/** In the job's thread (this module, started by `mainRun`): the job itself. */
async function jobThread(options: JobRunOptions): Promise<void> {
  reportExitCode(await runJob(options, undefined, undefined, stopFromMain()));
}

/** `skein watch …` until SIGTERM or Ctrl+C (or, with --once, until what is due has run); `skein run …`. */
export const VERIFY_USAGE = `Usage: skein verify --project PATH [--data-dir DIR]
  Re-hashes every media file the project kept and reports each one whose bytes changed or that is missing,
  with the posts it was kept for; checks every timestamp token kept over a run's manifest (the manifest and the
  token unchanged, the token's signature valid, every file it names still kept unchanged). Then re-hashes every
  file of captured pages (WACZ) against the hash recorded when it was written; one written before Skein recorded
  that hash is checked against the hashes listed inside it (its archived pages, index and list of pages), and
  the report says how many were checked that way; and checks every timestamp token kept over a capture run's
  WACZ the same way as the media's.

  --project PATH      the project file (.skein), or a team project's address (the password in SKEIN_PROJECT_PASSWORD)
  --data-dir DIR      where the runner keeps its settings (or SKEIN_USER_DATA_DIR; default ~/.config/Skein/runner)

Exit codes: 0 every file and token as kept, 4 a file (media or captured pages) changed or is missing or a token
no longer proves its manifest, 1 an error, 2 a mistake in the command.`;

/** the exit code of a verify that found a changed or missing file */
export const VERIFY_CHANGED = 4;

/**
 * `skein verify --project P`: every kept media file and every file of captured pages re-hashed; the exit code
 * says whether all are as kept.
 */
export async function runVerify(
  argv: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
  out: (line: string) => void = (l) => console.log(l),
  err: (line: string) => void = (l) => console.error(l),
): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: { project: { type: 'string' }, 'data-dir': { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      strict: true,
    }));
  } catch (error) {
    err(`skein: ${(error as Error).message}\n\n${VERIFY_USAGE}`);
    return 2;
  }
  if (values.help) {
    out(VERIFY_USAGE);
    return 0;
  }
  if (!values.project) {
    err(`skein: --project is required: the project whose media are verified\n\n${VERIFY_USAGE}`);
    return 2;
  }
  const team = TEAM_PROJECT.test(values.project);
  if (team && passwordIn(values.project)) {
    err('skein: leave the password out of --project: put it in SKEIN_PROJECT_PASSWORD');
    return 2;
  }
  const project = team ? values.project : resolve(values.project);
  if (!team && !existsSync(project)) {
    err(`skein: there is no project at ${project}.`);
    return 1;
  }
  const { createCore } = await loadCore();
  const core = createCore({
    userDataDir: values['data-dir'] ?? (env.SKEIN_USER_DATA_DIR || defaultDataDir(env)),
    secretStorage: NO_KEYRING,
    openExternal: async () => {},
    app: { name: 'Skein runner', version: appVersion(), platform: process.platform },
    // nothing is asked of an API: the demo's is named so no key is needed, and never started
    apiBaseUrl: undefined,
    startSandbox: async (o) => (await import('../../sandbox')).startSandbox(o),
    chooseSavePath: async () => null,
    emit: () => {},
    projectPath: project,
    ...(team ? { projectPassword: env.SKEIN_PROJECT_PASSWORD || null } : {}),
    workers: { archive: new URL('./archive-worker.js', import.meta.url) },
    watches: { who: 'headless', start: false },
    log: { error: (message) => err(`[skein] ${message}`), warn: (message) => err(`[skein] ${message}`) },
  });
  try {
    const report = await core.media.verify();
    const posts = (p: { uses: readonly { postId: string; url: string }[] }) =>
      p.uses.forEach((u) => out(`  kept for post ${u.postId} from ${u.url}`));
    for (const c of report.changed) {
      out(`changed: ${c.name} (kept as ${c.expected}, now ${c.found})`);
      posts(c);
    }
    for (const m of report.missing) {
      out(`missing: ${m.name}`);
      posts(m);
    }
    for (const t of report.tokens.problems)
      out(`timestamp: ${t.token} (from ${t.authority}, ${new Date(t.genTime).toISOString()}): ${t.problem}`);
    const { checked: tokens, problems } = report.tokens;
    if (tokens > 0)
      out(
        problems.length === 0
          ? `All ${tokens} timestamp token${tokens === 1 ? '' : 's'} still prove${tokens === 1 ? 's' : ''} ${tokens === 1 ? 'its manifest' : 'their manifests'}.`
          : `${problems.length} of ${tokens} timestamp tokens no longer prove their manifests.`,
      );
    const pages = report.pages;
    for (const p of pages.problems) {
      out(`${p.state}: ${p.name}, a file of captured pages: ${p.problem}`);
      if (p.expected && p.found) out(`  written as ${p.expected}, now ${p.found}`);
      p.urls.forEach((u) => out(`  holds the page ${u}`));
      if (p.pages > p.urls.length) out(`  and ${p.pages - p.urls.length} more pages`);
    }
    if (pages.unrecorded > 0)
      out(
        `${pages.unrecorded} file${pages.unrecorded === 1 ? '' : 's'} of captured pages ${pages.unrecorded === 1 ? 'was' : 'were'} written before Skein recorded a whole file's hash: checked against the hashes listed inside ${pages.unrecorded === 1 ? 'it' : 'them'} instead.`,
      );
    for (const t of pages.tokenProblems)
      out(
        `timestamp: ${t.token}, of captured pages (from ${t.authority}, ${new Date(t.genTime).toISOString()}): ${t.problem}`,
      );
    if (pages.tokens > 0)
      out(
        pages.tokenProblems.length === 0
          ? `All ${pages.tokens} timestamp token${pages.tokens === 1 ? '' : 's'} of captured pages still prove${pages.tokens === 1 ? 's its web archive' : ' their web archives'}.`
          : `${pages.tokenProblems.length} of ${pages.tokens} timestamp tokens of captured pages no longer prove their web archives.`,
      );
    const pagesBad = pages.checked - pages.matched + pages.tokenProblems.length;
    if (pages.checked > 0)
      out(
        pages.checked === pages.matched
          ? `All ${pages.checked} file${pages.checked === 1 ? '' : 's'} of captured pages (WACZ) ${pages.checked === 1 ? 'is' : 'are'} as written (${pages.folder}).`
          : `${pages.checked - pages.matched} of ${pages.checked} files of captured pages (WACZ) changed or went missing (${pages.folder}).`,
      );
    const bad = report.changed.length + report.missing.length;
    out(
      bad === 0
        ? `All ${report.checked} kept media file${report.checked === 1 ? ' is' : 's are'} as kept (${report.folder}).`
        : `${bad} of ${report.checked} kept media files changed or went missing (${report.folder}).`,
    );
    return bad === 0 && problems.length === 0 && pagesBad === 0 ? 0 : VERIFY_CHANGED;
  } catch (error) {
    err(`skein: the project's media could not be verified: ${(error as Error).message}`);
    return 1;
  } finally {
    await core.dispose();
  }
}

/** `skein watch …`: until SIGTERM or Ctrl+C (or, with --once, until what is due has run). */
async function main(): Promise<void> {
  if (process.argv[2] === 'verify') {
    process.exitCode = await runVerify(process.argv.slice(3));
    return;
  }
  const parsed = parseRunnerArgs(process.argv.slice(2));
  if ('help' in parsed) {
    console.log(USAGE);
    return;
  }
  if ('error' in parsed) {
    console.error(`skein: ${parsed.error}\n\n${USAGE}`);
    process.exitCode = 2;
    return;
  }
  // a long job holds less of what its threads freed (arenas.ts); the process starts again here, once
  withFewerArenas();
  if (parsed.command === 'run') return mainRun(parsed);
  let running: RunningRunner;
  try {
    running = await startRunner(parsed);
  } catch (error) {
    if (error instanceof (await loadCore()).RunnerBusy) {
      console.error(`skein: ${error.message}`);
      process.exitCode = 3;
      return;
    }
    console.error(`skein: the runner could not start: ${(error as Error).message}`);
    process.exitCode = 1;
    return;
  }
  const onSignal = (signal: string) => {
    console.log(`Stopping (${signal}): the run under way keeps its last page; the next run goes on from there.`);
    void running.stop();
  };
  process.once('SIGINT', () => onSignal('SIGINT'));
  process.once('SIGTERM', () => onSignal('SIGTERM'));
  await running.done;
  console.log('Stopped; the project is free for another runner.');
}

function isEntryPoint(): boolean {
  const entry = process.argv[1];
  if (!entry) return false;
  try {
    return pathToFileURL(realpathSync(entry)).href === import.meta.url;
  } catch {
    return false;
  }
}

const threadJob = jobOfThisThread<JobRunOptions>();
if (threadJob) void jobThread(threadJob);
else if (isMainThread && isEntryPoint()) void main();
