/**
 * Saved jobs (shared/jobs): running one without a window, and writing one for the app's "Save as job…". A
 * run is the very export job the dialog would start (export's service: its caps, journal, manifest, the
 * project's collection), under an id derived from the file's id and the project, so that running the same
 * file on the same project again resumes the job where it stopped and buys no page twice.
 */
import { createHash, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { basename, dirname, extname, isAbsolute, resolve } from 'node:path';
import { SkeinError, isSkeinError } from '../../shared/errors';
import type { HandlersOf } from '../../shared/ipc/define';
import type { ExportJob, ExportStartInput } from '../../shared/ipc/export';
import { HeadlessRun, type UnreadRun, type jobsContract } from '../../shared/ipc/jobs';
import type { watchContract, WatchSpec } from '../../shared/ipc/watch';
import { savedJobOf, watchJobOf, type ExportSavedJob, type WatchSavedJob } from '../../shared/jobs/saved-job';
import type { ExportService } from '../export';
import { writeFileAtomic } from '../files/atomic-file';
import { recordFields, textField, timeField } from '../files/unread-record';
import type { Formats } from '../formats';
import type { IdsFeature } from '../ids';
import type { ChooseSavePath, ShowInFolder } from '../ports';

/** what a job file's name ends with, as the save dialog suggests it */
const JOB_SUFFIX = '.skein-job.json';

export interface SavedJobRun {
  /** the job as it ended (or stopped) */
  job: ExportJob;
  /** an earlier run of this file on this project had stopped, or its file was not kept yet: this one went on */
  resumed: boolean;
}

/** how a run of a job file begins: a new job, one that had stopped going on, or a written file kept in the project */
export type RunStart = 'new' | 'resumed' | 'keeping';

export interface SavedJobs {
  /**
   * Runs a job file on the core's project until it ends, stops at a cap or fails; `jobFolder` resolves a
   * relative destination, `project` names the project for the job's identity, `onStart` gets the job's id.
   * A hydration's ids are taken out of the file (`file.ids.list` is empty once it runs) into an id list of the core's.
   */
  run: (
    file: ExportSavedJob,
    where: { jobFolder: string; project: string },
    onStart?: (jobId: string, how: RunStart) => void,
  ) => Promise<SavedJobRun>;
  /**
   * The project's watch for a watch job: the one an earlier run of this file on this project made (its caps
   * brought to the file's, where the person changed them there), else a new one switched on now, its window
   * ending the file's number of days from now. `made`: it is new.
   */
  watchFor: (file: WatchSavedJob, project: string) => Promise<{ jobId: string; watch: WatchSummary; made: boolean }>;
  /** records how a watch job's run ended, beside the export and hydration jobs run headless */
  recordWatch: (
    file: WatchSavedJob,
    jobId: string,
    watch: WatchSummary,
    status: HeadlessRun['status'],
    startedAt: number,
  ) => Promise<void>;
  /** `jobs.save`: asks where (main's save dialog) and writes the job file of a dialog's start request */
  handlers: HandlersOf<typeof jobsContract>;
}

/** The id of a job file's run on one project: the same for every run of it there, a UUID's shape. */
function jobIdFor(fileId: string, project: string): string {
  const h = createHash('sha256').update(`${fileId}\n${project}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

export interface SavedJobsDeps {
  service: ExportService;
  ids: IdsFeature;
  formats: Formats;
  chooseSavePath: ChooseSavePath;
  /** "Skein 1.2.3", written into the file */
  createdBy: string;
  now: () => number;
  suggestedFileName: (start: ExportStartInput, extension: string) => string;
  /** the open project's key-value records (its `meta` table), where headless runs are listed */
  records: { read: (key: string) => Promise<string | null>; write: (key: string, value: string) => Promise<void> };
  /** this computer's name, recorded with a run (its files are there) */
  host: string;
  /** reveals a file in the file manager (absent: a browser, the runner) */
  showInFolder?: ShowInFolder;
  /** the watches of the project of the mode in use (a watch job makes and finds its watch there) */
  watch: () => WatchHandlers;
}

/** which watch each watch job made on the project (job id → watch id) */
const WATCH_JOBS_KEY = 'watch_jobs';
const DAY_MS = 86_400_000;
/** a watch job's calls to the watch handlers: main's own, no page behind them */
const MAIN = { senderId: 0 };

/** the watches watch jobs made (`made`), and the record as written: entries a newer Skein wrote are kept by writers */
async function readWatchJobs(
  deps: SavedJobsDeps,
): Promise<{ made: Record<string, number>; written: Record<string, unknown> }> {
  try {
    const value: unknown = JSON.parse((await deps.records.read(WATCH_JOBS_KEY)) ?? '{}');
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return { made: {}, written: {} };
    const written = value as Record<string, unknown>;
    const made = Object.fromEntries(
      Object.entries(written).filter((e): e is [string, number] => Number.isSafeInteger(e[1]) && (e[1] as number) > 0),
    );
    return { made, written };
  } catch {
    return { made: {}, written: {} };
  }
}

/** the `watch` namespace's handlers, as the core gives them */
type WatchHandlers = HandlersOf<typeof watchContract>['watch'];
/** a watch as the watch handlers answer it */
type WatchSummary = Awaited<ReturnType<WatchHandlers['create']>>;

const sameCaps = (a: WatchSpec['caps'], b: WatchSpec['caps']) =>
  a.perRun === b.perRun && a.perDay === b.perDay && a.total === b.total;

/** the project's record of its headless runs, latest first */
const RUNS_KEY = 'headless_jobs';
/** runs a project remembers (older ones drop off; their collections stay) */
const RUNS_KEPT = 100;

/** A run record as the project keeps it: read (null: one this Skein cannot read, a newer Skein's), and as written. */
interface KeptRun {
  run: HeadlessRun | null;
  written: unknown;
}

async function readRuns(deps: SavedJobsDeps): Promise<KeptRun[]> {
  let value: unknown;
  try {
    value = JSON.parse((await deps.records.read(RUNS_KEY)) ?? '[]');
  } catch {
    return [];
  }
  if (!Array.isArray(value)) return [];
  return (value as unknown[]).map((written) => {
    const read = HeadlessRun.safeParse(written);
    return { run: read.success ? read.data : null, written };
  });
}

const readable = (kept: readonly KeptRun[]): HeadlessRun[] => kept.flatMap((k) => (k.run ? [k.run] : []));

/** What can still be told of a run record this Skein cannot read (a newer Skein's status or kind of job). */
function unreadRun(written: unknown): UnreadRun {
  const r = recordFields(written);
  return {
    name: textField(r.name, 200),
    kind: textField(r.kind, 100),
    status: textField(r.status, 100),
    host: textField(r.host, 200),
    at: timeField(r.finishedAt) ?? timeField(r.startedAt),
  };
}

/** Records (or updates) a run in the project: the app lists it and can open what it wrote. */
async function recordRun(deps: SavedJobsDeps, file: ExportSavedJob, job: ExportJob): Promise<void> {
  await keepRun(deps, {
    jobId: job.id,
    name: file.name,
    kind: file.kind,
    status: job.status === 'collecting' || job.status === 'writing' ? 'running' : job.status,
    stopReason: job.stopReason,
    items: job.progress.items,
    calls: job.progress.calls,
    credits: job.progress.credits,
    files: job.files.slice(0, 20),
    host: deps.host,
    startedAt: job.startedAt,
    finishedAt: job.finishedAt,
  });
}

async function keepRun(deps: SavedJobsDeps, run: HeadlessRun): Promise<void> {
  // a record this Skein cannot read (a newer Skein's run on a team's project) is kept where it was, as written
  const others = (await readRuns(deps)).filter((k) => k.run?.jobId !== run.jobId).map((k) => k.written);
  await deps.records.write(RUNS_KEY, JSON.stringify([run, ...others].slice(0, RUNS_KEPT)));
}

async function showResult(deps: SavedJobsDeps, jobId: string): Promise<{ shown: boolean; note: string }> {
  const run = readable(await readRuns(deps)).find((r) => r.jobId === jobId);
  const file = run?.files[0];
  if (!run || !file) return { shown: false, note: 'This run wrote no file.' };
  // only a path the project records its runner wrote, and only while it is there: never one the page names
  if (run.host !== deps.host || !existsSync(file))
    return { shown: false, note: `It was written on ${run.host}, as ${file}; it is not on this computer.` };
  if (!deps.showInFolder) return { shown: false, note: `This window cannot open a folder. The file is ${file}` };
  await deps.showInFolder(file);
  return { shown: true, note: 'Shown in your file manager.' };
}

export function savedJobs(deps: SavedJobsDeps): SavedJobs {
  const { service } = deps;
  return {
    handlers: {
      jobs: {
        save: (input) =>
          input.kind === 'watch' ? saveWatch(deps, input.watch, input.days) : save(deps, input.kind, input.start),
        headless: async () => {
          const kept = await readRuns(deps);
          return {
            runs: readable(kept).sort((a, b) => b.startedAt - a.startedAt),
            unread: kept.flatMap((k) => (k.run ? [] : [unreadRun(k.written)])),
          };
        },
        showResult: ({ jobId }) => showResult(deps, jobId),
      },
    },
    async run(file, where, onStart) {
      const format = deps.formats.get(file.job.format);
      const jobId = jobIdFor(file.id, where.project);
      const settled = async () => {
        const job = await service.settled(jobId);
        // stopped by a signal, the project may already be let go: the record then says it is still running
        await recordRun(deps, file, job).catch(() => undefined);
        // the id list this runner made of the file's ids is needed only while the job can go on
        if (file.ids && !job.resumable && job.view.idsFrom !== undefined)
          await deps.ids.store.discard(job.view.idsFrom).catch(() => undefined);
        return job;
      };
      await service.init();
      const kept = (await service.list()).find((j) => j.id === jobId);
      if (!kept) await service.refuseUnread(jobId);
      // a hydration's ids leave the file: only a new job needs them (for its id list), and a million of them need
      // not stay in memory for the whole run: they are let go as soon as the run knows which it is
      const held = { ids: file.ids?.list.splice(0) ?? [] };
      if (kept?.resumable) {
        held.ids = [];
        onStart?.(jobId, 'resumed');
        // the file's caps: looser ones than the job stopped at were written there by the person who runs it
        await recordRun(deps, file, await service.resume(jobId, file.job.caps ?? {}, true));
        return { job: await settled(), resumed: true };
      }
      // its file is written but the project did not keep it as a collection: keep it now, from the job's journal
      // (no call); buying it all again would pay twice for the same file
      if (kept?.unrecorded) {
        onStart?.(jobId, 'keeping');
        const job = await service.record(jobId).catch((error: unknown) => {
          // what it collected is gone from the job's folder: only a new run can make the file and its collection
          if (isSkeinError(error) && error.code === 'not-found') return null;
          throw error;
        });
        if (job) {
          held.ids = [];
          await recordRun(deps, file, job).catch(() => undefined);
          return { job, resumed: true };
        }
      }
      if (kept) await service.discard(jobId);
      let view = file.job.view;
      if (file.ids) {
        const list = await deps.ids.store.createFrom(file.ids.entity, file.name, held.ids);
        held.ids = [];
        view = { ...view, idsFrom: list.importId };
      }
      const target = isAbsolute(file.destination.path)
        ? file.destination.path
        : resolve(where.jobFolder, file.destination.path);
      onStart?.(jobId, 'new');
      // no dialog made the folder: the destination's is made here (`out/thread.jsonl` beside the job file)
      await mkdir(dirname(target), { recursive: true });
      const started = await service.start({
        ...file.job,
        view,
        id: jobId,
        targetPath: extname(target) ? target : `${target}.${format.extension}`,
      });
      await recordRun(deps, file, started);
      return { job: await settled(), resumed: false };
    },
    async watchFor(file, project) {
      const jobId = jobIdFor(file.id, project);
      const handlers = deps.watch();
      const { made, written } = await readWatchJobs(deps);
      const known = made[jobId];
      const existing = (await handlers.list(undefined, MAIN)).watches.find((w) => w.id === known);
      if (existing) {
        // the file's caps: ones changed there were written by the person who runs it, as an export's are
        const watch = sameCaps(existing.spec.caps, file.watch.caps)
          ? existing
          : await handlers.update({ id: existing.id, patch: { caps: file.watch.caps } }, MAIN);
        return { jobId, watch, made: false };
      }
      const until = file.days === null ? null : deps.now() + file.days * DAY_MS;
      const watch = await handlers.create({ ...file.watch, schedule: { ...file.watch.schedule, until } }, MAIN);
      await deps.records.write(WATCH_JOBS_KEY, JSON.stringify({ ...written, [jobId]: watch.id }));
      return { jobId, watch, made: true };
    },
    async recordWatch(file, jobId, watch, status, startedAt) {
      await keepRun(deps, {
        jobId,
        name: file.name,
        kind: 'watch',
        status,
        stopReason: null,
        items: watch.kept.posts,
        calls: watch.runs,
        credits: watch.spent.total,
        files: [],
        host: deps.host,
        startedAt,
        finishedAt: status === 'running' ? null : deps.now(),
      });
    },
  };
}

/** Writes a watch job: the watch its form describes, its window as a number of days from its first run. */
async function saveWatch(deps: SavedJobsDeps, watch: WatchSpec, days: number | null): Promise<{ file: string | null }> {
  const stem =
    watch.name
      .replace(/[^\p{L}\p{N}]+/gu, '-')
      .replace(/^-|-$/g, '')
      .slice(0, 60) || 'watch';
  const chosen = await deps.chooseSavePath({
    title: 'Save as job',
    defaultPath: `${stem}${JOB_SUFFIX}`,
    filters: [{ name: 'Skein job', extensions: ['json'] }],
  });
  if (chosen === null) return { file: null };
  const path = extname(chosen) ? chosen : `${chosen}.json`;
  const job = watchJobOf({ spec: watch, days, id: randomUUID(), createdBy: deps.createdBy, now: deps.now() });
  await writeFileAtomic(path, async (sink) => sink.write(`${JSON.stringify(job, null, 2)}\n`));
  return { file: path };
}

async function save(
  deps: SavedJobsDeps,
  kind: 'export' | 'hydrate',
  start: ExportStartInput,
): Promise<{ file: string | null }> {
  const { service } = deps;
  const format = deps.formats.get(start.format);
  await service.plan(start.view); // refuse a view main cannot collect before asking where
  const suggested = deps.suggestedFileName(start, format.extension).replace(/\.[^.]+$/, '');
  const chosen = await deps.chooseSavePath({
    title: 'Save as job',
    defaultPath: `${suggested}${JOB_SUFFIX}`,
    filters: [{ name: 'Skein job', extensions: ['json'] }],
  });
  if (chosen === null) return { file: null };
  const path = extname(chosen) ? chosen : `${chosen}.json`;
  // the job writes beside itself, under its own name: `thread.skein-job.json` writes `thread.jsonl`
  const stem = basename(path).replace(/(\.skein-job)?\.json$/, '');
  const destination = `${stem || suggested}.${format.extension}`;
  let ids: { entity: 'posts' | 'users'; list: string[] } | undefined;
  if (kind === 'hydrate') {
    const importId = start.view.idsFrom;
    const meta = importId === undefined ? null : await deps.ids.store.meta(importId);
    if (!importId || !meta)
      throw new SkeinError('bad-input', 'A hydration job needs its list of ids: choose one first.');
    const list = await deps.ids.store.idList(importId, 10_000);
    const all: string[] = [];
    for (let i = 0; i < list.batches; i++) all.push(...(await list.batch(i)));
    ids = { entity: meta.entity, list: all };
  }
  const job = savedJobOf({
    kind,
    id: randomUUID(),
    start,
    ...(ids ? { ids } : {}),
    // the written file lands beside the job file, wherever it is run
    destination,
    createdBy: deps.createdBy,
    now: deps.now(),
  });
  await writeFileAtomic(path, async (sink) => sink.write(`${JSON.stringify(job, null, 2)}\n`));
  return { file: path };
}
