/**
 * A saved job: what an export or hydration dialog would start, or a watch its form would switch on, written to a
 * small JSON file so that `skein run job.json --project P` does the same work on a machine with no display. An
 * export's file names what is collected (the view), from where (the operation and its params), how much (scope,
 * caps), how it is written (format, options) and where to (`destination`, beside the job file unless absolute);
 * a watch's, the watch (targets, strategy, schedule, caps) and its window in days. It never holds the API key, a
 * base URL or a path of the machine that saved it (a hydration's ids are in it, not an import's id).
 *
 * One source of truth: the app builds it (`savedJobOf`), the headless runner reads it (`readSavedJob`), and
 * docs/jobs.md describes it. A file from another Skein is read when its format is one this Skein knows, and
 * refused in plain words otherwise.
 */
import { z } from 'zod';
import { ExportStartInput } from '../ipc/export';
import { IdEntity } from '../ipc/ids';
import { WatchSpec, type WatchSpecInput } from '../ipc/watch';

/**
 * The newest job format this Skein writes; it reads every format up to this one. Format 2 added watch jobs;
 * an export or a hydration is still written as format 1, which every Skein with saved jobs runs.
 */
export const SAVED_JOB_FORMAT = 2;
/** the format of an export or hydration job (unchanged since the first) */
const EXPORT_JOB_FORMAT = 1;
/** the format of a watch job */
const WATCH_JOB_FORMAT = 2;

/** A hydration's id list carried in the file: the ids themselves travel, an import's id would not. */
const MAX_SAVED_JOB_IDS = 1_000_000;

/** A post or user id, as the API gives them (digits), or a handle for user lookups. */
const SavedId = z.string().min(1).max(64);

/**
 * The start request of the dialog, as the export contract reads it (an id import, which only the machine that
 * saved it knows, is refused below)
 */
const SavedStart = ExportStartInput;

export const SavedJobKind = z.enum(['export', 'hydrate', 'watch']);
export type SavedJobKind = z.infer<typeof SavedJobKind>;

const ExportJobFile = z
  .object({
    skein_job: z.union([z.literal(EXPORT_JOB_FORMAT), z.literal(WATCH_JOB_FORMAT)]),
    kind: z.enum(['export', 'hydrate']),
    /** the job's identity: a run of the same file on the same project goes on where the last one stopped */
    id: z.uuid(),
    /** what the person called it (the view's title) */
    name: z.string().min(1).max(200),
    created_by: z.string().max(100),
    created_at: z.string().max(40),
    job: SavedStart,
    /** a hydration's ids, in order (they replace the dialog's id import) */
    ids: z.object({ entity: IdEntity, list: z.array(SavedId).min(1).max(MAX_SAVED_JOB_IDS) }).optional(),
    /** the file (or folder) written: relative to the job file's folder, or absolute */
    destination: z.object({ path: z.string().min(1).max(4096) }),
  })
  .strict()
  .refine((j) => (j.kind === 'hydrate') === (j.ids !== undefined), {
    message: 'a hydration job carries its ids, and only a hydration does',
    path: ['ids'],
  })
  .refine((j) => j.job.view.idsFrom === undefined, {
    message: 'an id list kept on another computer cannot travel: the ids belong in the file',
    path: ['job', 'view', 'idsFrom'],
  });

/**
 * A watch as its form would switch it on: its targets, strategy, schedule, caps and options, with its window as a
 * number of days from its first run headless (a date would be past by the time the file is run).
 */
const WatchJobFile = z
  .object({
    skein_job: z.literal(WATCH_JOB_FORMAT),
    kind: z.literal('watch'),
    id: z.uuid(),
    name: z.string().min(1).max(200),
    created_by: z.string().max(100),
    created_at: z.string().max(40),
    watch: WatchSpec,
    /** how many days it runs from its first run (null: until stopped) */
    days: z.number().positive().max(3_650).nullable(),
  })
  .strict()
  .refine((j) => j.watch.schedule.from === null && j.watch.schedule.until === null, {
    message: 'a watch job’s window is its number of days, not dates',
    path: ['watch', 'schedule'],
  });

export const SavedJob = z.discriminatedUnion('kind', [ExportJobFile, WatchJobFile]);
export type SavedJob = z.infer<typeof SavedJob>;
export type ExportSavedJob = z.infer<typeof ExportJobFile>;
export type WatchSavedJob = z.infer<typeof WatchJobFile>;

export type ReadJob = { ok: true; job: SavedJob } | { ok: false; message: string };

/** Reads a job file's text: the job, or why it cannot be run, in plain words. */
export function readSavedJob(text: string): ReadJob {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, message: 'this is not a Skein job file: it is not JSON.' };
  }
  if (typeof value !== 'object' || value === null || !('skein_job' in value))
    return { ok: false, message: 'this is not a Skein job file: it has no “skein_job” version.' };
  const version = value.skein_job;
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1)
    return { ok: false, message: `this job file’s version (${String(version)}) is not one any Skein wrote.` };
  if (version > SAVED_JOB_FORMAT)
    return {
      ok: false,
      message: `this job was made by a newer Skein (job format ${version}); this Skein reads up to ${SAVED_JOB_FORMAT}. Update Skein to run it.`,
    };
  const parsed = SavedJob.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? issue.path.join('.') : 'the file';
    return { ok: false, message: `this job file is damaged: ${where}: ${issue?.message ?? 'unreadable'}.` };
  }
  return { ok: true, job: parsed.data };
}

export interface SavedJobSource {
  kind: 'export' | 'hydrate';
  start: ExportStartInput;
  /** a hydration's ids, read from its import */
  ids?: { entity: 'posts' | 'users'; list: string[] };
  /** the file the job writes, relative to the job file (its file name) */
  destination: string;
  id: string;
  createdBy: string;
  now: number;
}

/** The job file for a dialog's start request (the import's id dropped: its ids travel instead). */
export function savedJobOf(source: SavedJobSource): ExportSavedJob {
  const { idsFrom: _local, ...view } = source.start.view;
  return ExportJobFile.parse({
    skein_job: EXPORT_JOB_FORMAT,
    kind: source.kind,
    id: source.id,
    name: view.title ?? view.kind,
    created_by: source.createdBy,
    created_at: new Date(source.now).toISOString(),
    job: { ...source.start, view },
    ...(source.ids ? { ids: source.ids } : {}),
    destination: { path: source.destination },
  });
}

export interface WatchJobSource {
  /** the watch as the form would switch it on (its window's dates are dropped: `days` carries it) */
  spec: WatchSpecInput;
  days: number | null;
  id: string;
  createdBy: string;
  now: number;
}

/** The job file for a watch the form describes. */
export function watchJobOf(source: WatchJobSource): WatchSavedJob {
  const spec = WatchSpec.parse(source.spec);
  return WatchJobFile.parse({
    skein_job: WATCH_JOB_FORMAT,
    kind: 'watch',
    id: source.id,
    name: spec.name,
    created_by: source.createdBy,
    created_at: new Date(source.now).toISOString(),
    watch: { ...spec, schedule: { ...spec.schedule, from: null, until: null } },
    days: source.days,
  });
}
