/**
 * Export jobs: start (scope `loaded` or `all`, with caps), progress, cancel,
 * resume and discard. Each job lives in its own folder under `stateDir` (job-store.ts)
 * (`job.json` + the collection journal), so a job stopped by a cap, a cancel,
 * an error or a restart continues from its last cursor and ends with the same
 * items an uninterrupted run would have. The target path comes from the
 * caller (main's save dialog), never from the renderer.
 */
import { randomUUID } from 'node:crypto';
import { access, mkdir, readFile } from 'node:fs/promises';
import { DEFAULT_PRICES } from '../../shared/api/pricing';
import { DEFAULT_ACTIONS, SkeinError, isSkeinError, type SkeinErrorData } from '../../shared/errors';
import {
  type ExportCaps,
  type ExportJob,
  type ExportEstimate,
  type ExportScope,
  type StopReason,
  type UnreadExport,
  type ViewDescriptor,
} from '../../shared/ipc/export';
import { writeFileAtomic } from '../files/atomic-file';
import {
  BUILT_IN_FORMATS,
  cellsFor,
  formatRegistry,
  type ExportManifest,
  type Formats,
  type LiveWriter,
} from '../formats';
import { describeCaps, loosens, progressFraction } from './caps';
import { collect, CollectionState, type CollectOutcome } from './collector';
import { estimateView, planFor } from './hydration-plan';
import { writeWithPolicy } from './item-policy';
import { JobStore } from './job-store';
import { liveInProcess, planData } from './live-thread';
import { buildManifest, manifestPages, type ManifestInput } from './manifest';
import type { ExportServiceDeps, StartExport, WrittenRun } from './service-deps';
import type { ViewPlan } from './views';
import { Journal } from '../walk';

export type { ExportServiceDeps, StartExport } from './service-deps';

/** Stops after which continuing makes sense. */
const RESUMABLE: ReadonlySet<StopReason> = new Set([
  'cap-pages',
  'cap-items',
  'cap-credits',
  'cancelled',
  'error',
  'interrupted',
]);
const PERSIST_EVERY_MS = 2000;
/**
 * a page's progress is told at most this often: a clone of the job and a message to the window per page was
 * a tenth of a fast collection's time, for counts no one reads at 50 a second (waits and status are told at once)
 */
const PROGRESS_EVERY_MS = 100;
/** on quit, a page in flight gets this long to arrive (and be kept) before its request is aborted */
const QUIT_GRACE_MS = 3000;

interface Running {
  /** hard stop of the current phase (quit, discard): collecting, then writing; reaches a request in flight */
  controller: AbortController;
  /** the user's Cancel: ends waits, lets a page in flight arrive and be kept; while writing, the same as `controller` */
  cancel: AbortController;
  done: Promise<ExportJob>;
}

function errorData(error: unknown): SkeinErrorData {
  if (isSkeinError(error)) return error.toData();
  return {
    code: 'internal',
    message: 'Something went wrong inside Skein while exporting.',
    details: { action: DEFAULT_ACTIONS.internal },
  };
}

/**
 * Whether a job's folder outlives its run: one that can go on, or a file the project has not kept yet (its items
 * are kept again from the journal there)
 */
function keepsFolder(job: ExportJob): boolean {
  return job.resumable || job.unrecorded !== undefined;
}

export class ExportService {
  private readonly jobs = new Map<string, ExportJob>();
  private readonly running = new Map<string, Running>();
  /** a written export being kept as the project's collection again (`record`) */
  private readonly recording = new Map<string, Promise<ExportJob>>();
  private runs = 0;
  private quitting = false;
  private loaded: Promise<void> | undefined;
  private unreadJobs: UnreadExport[] = [];

  private readonly store: JobStore;
  private readonly formats: Formats;

  constructor(private readonly deps: ExportServiceDeps) {
    this.store = new JobStore(deps.stateDir);
    this.formats = deps.formats ?? formatRegistry();
  }

  /** Reads the jobs an earlier run left (once); those that were running are `interrupted`. */
  init(): Promise<void> {
    this.loaded ??= this.loadJobs();
    return this.loaded;
  }

  private async loadJobs(): Promise<void> {
    const { jobs, unread } = await this.store.load();
    for (const job of jobs) if (!this.jobs.has(job.id)) this.jobs.set(job.id, job);
    this.unreadJobs = unread.sort((a, b) => (b.startedAt ?? 0) - (a.startedAt ?? 0));
  }

  /**
   * Refuses, in words, to start saved job `id` afresh when its folder holds progress this Skein cannot read (a
   * newer Skein's, or damaged): starting over would write over pages paid for.
   */
  async refuseUnread(id: string): Promise<void> {
    if ((await this.store.read(id)).kind !== 'unread') return;
    throw new SkeinError(
      'unreadable',
      `This job's saved progress was written by a newer Skein, or is damaged, so this Skein leaves it as it is (in ${this.store.dir(id)}).`,
      { action: 'Run the job with the newer Skein, or move that folder away to start the job afresh here.' },
    );
  }

  /** The saved exports this Skein cannot read (a newer Skein's, or damaged), and the folder that keeps them. */
  async unread(): Promise<{ folder: string; jobs: UnreadExport[] }> {
    await this.init();
    return { folder: this.deps.stateDir, jobs: this.unreadJobs.map((j) => ({ ...j })) };
  }

  estimate(view: ViewDescriptor, scope: ExportScope): Promise<ExportEstimate> {
    return estimateView(this.deps, view, scope);
  }

  /** The calls a view makes; a hydration's job folder holds its split of the list (`planFor`). */
  plan(view: ViewDescriptor, job?: { dir: string; split: boolean }): Promise<ViewPlan> {
    return planFor(this.deps, view, job);
  }

  async start(input: StartExport): Promise<ExportJob> {
    await this.init();
    const format = this.formats.get(input.format);
    const id = input.id ?? randomUUID();
    if (this.jobs.has(id))
      throw new SkeinError('bad-input', 'This job is already kept: resume it, or discard it first.', {
        action: 'Resume the job.',
      });
    if (input.id !== undefined) await this.refuseUnread(id);
    await mkdir(this.store.dir(id), { recursive: true });
    let plan: ViewPlan;
    try {
      plan = await this.plan(input.view, { dir: this.store.dir(id), split: true });
    } catch (error) {
      await this.store.remove(id);
      throw error;
    }
    const job: ExportJob = {
      id,
      view: input.view,
      format: input.format,
      scope: input.scope,
      caps: input.caps ?? {},
      options: input.options,
      ...(format.textCells ? { csvCells: input.csvCells ?? format.textCells(input.options) } : {}),
      status: 'collecting',
      progress: { pages: 0, items: 0, calls: 0, credits: 0, fraction: null },
      stopReason: null,
      error: null,
      files: format.files(input.targetPath, plan),
      resumable: false,
      startedAt: this.deps.clock.now(),
      finishedAt: null,
      ...(input.keepMedia ? { keepMedia: true } : {}),
    };
    this.jobs.set(id, job);
    await this.store.save(job);
    this.launch(job, plan);
    return structuredClone(job);
  }

  /** `agreed`: looser caps the person already chose outside a window (a job file they edited), not asked again */
  async resume(id: string, caps?: ExportCaps, agreed = false): Promise<ExportJob> {
    await this.init();
    await this.recording.get(id)?.catch(() => undefined);
    const job = this.get(id);
    if (this.running.has(id)) return structuredClone(job);
    if (!job.resumable)
      throw new SkeinError('bad-input', 'This export cannot be resumed.', { action: 'Start a new export.' });
    // the job keeps its caps; looser ones (or none) need the user's own yes, asked in main
    const next = caps ?? job.caps;
    if (loosens(job.caps, next) && !agreed) {
      const asked = await (this.deps.confirm ?? (async () => false))({
        title: 'Resume the export with looser limits?',
        detail: `It would continue with ${describeCaps(next)} (it had ${describeCaps(job.caps)}). Every page it fetches is charged.`,
        confirmLabel: 'Resume',
      });
      if (!asked)
        throw new SkeinError('cancelled', 'The export was not resumed: its new limits were not confirmed.', {
          action: 'Resume with the same limits, or confirm the new ones.',
        });
    }
    this.formats.get(job.format); // a job of a format this Skein does not write cannot go on
    const plan = await this.plan(job.view, { dir: this.store.dir(job.id), split: false });
    job.caps = next;
    job.status = 'collecting';
    job.stopReason = null;
    job.error = null;
    job.finishedAt = null;
    job.resumable = false;
    await this.store.save(job);
    this.launch(job, plan);
    return structuredClone(job);
  }

  async cancel(id: string): Promise<ExportJob> {
    await this.init();
    const job = this.get(id);
    this.running.get(id)?.cancel.abort(new SkeinError('cancelled', 'The export was cancelled.'));
    return structuredClone(job);
  }

  async discard(id: string): Promise<boolean> {
    await this.init();
    await this.recording.get(id)?.catch(() => undefined);
    if (!this.jobs.has(id)) return false;
    const run = this.running.get(id);
    if (run) {
      const reason = new SkeinError('cancelled', 'The export was discarded.');
      run.cancel.abort(reason);
      run.controller.abort(reason);
      await run.done;
    }
    this.jobs.delete(id);
    await this.store.remove(id);
    return true;
  }

  async status(id: string): Promise<ExportJob> {
    await this.init();
    return structuredClone(this.get(id));
  }

  async list(): Promise<ExportJob[]> {
    await this.init();
    return [...this.jobs.values()].sort((a, b) => b.startedAt - a.startedAt).map((j) => structuredClone(j));
  }

  /** Resolves when the job's current run has ended (tests, notifications). */
  async settled(id: string): Promise<ExportJob> {
    await this.init();
    const run = this.running.get(id);
    return structuredClone(run ? await run.done : this.get(id));
  }

  /**
   * Stops every running job without writing (app quit): they come back `interrupted`, resumable. A page in
   * flight gets `QUIT_GRACE_MS` to arrive and be kept (it is paid for); waits end at once.
   */
  async dispose(): Promise<void> {
    this.quitting = true;
    const runs = [...this.running.values()];
    const reason = new SkeinError('cancelled', 'Skein is quitting.');
    for (const r of runs) r.cancel.abort(reason);
    const stopTimer = this.deps.clock.setTimer(QUIT_GRACE_MS, () => {
      for (const r of runs) r.controller.abort(reason);
    });
    await Promise.allSettled(runs.map((r) => r.done));
    stopTimer();
  }

  /** posts the project holds, for a network's replies to posts outside the export (none without a project) */
  private readonly heldPosts = (ids: string[]) => this.deps.project?.held('post', ids, true) ?? Promise.resolve([]);

  private get(id: string): ExportJob {
    const job = this.jobs.get(id);
    if (!job) throw new SkeinError('not-found', 'No such export.', { action: 'Start a new export.' });
    return job;
  }

  private update(job: ExportJob): void {
    this.deps.onUpdate?.(structuredClone(job));
  }

  private launch(job: ExportJob, plan: ViewPlan): void {
    const running = { controller: new AbortController(), cancel: new AbortController() } as Running;
    running.done = this.run(job, plan, running)
      .catch((error: unknown) => {
        this.deps.onInternalError?.(error);
        job.status = 'failed';
        job.error = errorData(error);
        job.resumable = true;
        job.finishedAt = this.deps.clock.now();
        return this.store.save(job).catch(() => undefined);
      })
      .then(() => {
        this.running.delete(job.id);
        this.update(job);
        return structuredClone(job);
      });
    this.running.set(job.id, running);
    this.update(job);
  }

  private async run(job: ExportJob, plan: ViewPlan, running: Running): Promise<void> {
    const { clock } = this.deps;
    const signal = running.cancel.signal;
    const abort = running.controller.signal;
    const walkId = `${job.id}:${++this.runs}`;
    const format = this.formats.get(job.format);
    const csvCells = cellsFor(format, job.options, job.csvCells);
    const { state, journal } = await CollectionState.load(
      plan,
      this.store.journalPath(job.id),
      plan.fromList ? this.store.missingPath(job.id) : undefined,
    );
    let outcome: CollectOutcome;
    let live: LiveWriter | null = null;
    const manifestOf = async (stop: ManifestInput['stop']) =>
      buildManifest(
        {
          context: await this.deps.context(),
          now: clock.now(),
          view: job.view,
          plan,
          scope: job.scope,
          caps: job.caps,
          format,
          pages: state.pages,
          notFound: state.notFound,
          failures: state.failures,
          stop,
          files: job.files,
          options: job.options,
          csvCells,
        },
        // a long collection's pages (ten thousand at a million posts) a slice at a time, main let go between
        await manifestPages(state.pages),
      );
    const interrupted = () => {
      job.status = 'interrupted';
      job.stopReason = 'interrupted';
      job.resumable = true;
    };
    try {
      // the project's codes as extra columns, opted-out accounts left out (coding's policy): written at the end, not
      // live; asked inside the try, so that a project that cannot answer (its server gone) still closes the journal
      const policy = (await this.deps.policy?.(plan.itemKind)) ?? null;
      // a run that collects from the first page can have its file written as it collects (CSV)
      if (format.live && !policy && state.pages.length === 0 && state.failures.length === 0) {
        // what the rows say about the export: the manifest's context as it will be (checked again at the end)
        const { app, base_url, view } = await manifestOf(null);
        const context = { app, base_url, view };
        const input = { target: job.files[0] as string, plan, options: job.options, csvCells, context };
        live = await (this.deps.openLive ?? liveInProcess)(format, input).catch(() => null);
      }
      let lastPersist = clock.now();
      let lastTold = -Infinity;
      let waitingUntil: number | null = null;
      const progress = () => {
        job.progress = {
          pages: state.pages.length,
          items: state.items,
          calls: state.calls,
          credits: state.credits,
          fraction: progressFraction(job, plan, state),
          waitingUntil,
        };
      };
      progress();
      outcome = await collect({
        plan,
        source: this.deps.source,
        journal,
        state,
        walkId,
        project: this.deps.project,
        scope: job.scope,
        loadedPages: job.view.loadedPages ?? 1,
        caps: job.caps,
        signal,
        abort,
        clock,
        prices: this.deps.prices?.() ?? DEFAULT_PRICES,
        onKept: live?.add,
        onPage: () => {
          progress();
          if (clock.now() - lastTold >= PROGRESS_EVERY_MS) {
            lastTold = clock.now();
            this.update(job);
          }
          if (clock.now() - lastPersist >= PERSIST_EVERY_MS) {
            lastPersist = clock.now();
            void this.store.save(job).catch(() => undefined);
          }
        },
        onWait: (until) => {
          waitingUntil = until;
          progress();
          this.update(job);
        },
      });
      waitingUntil = null;
      progress();

      const stop = outcome.done ? null : { reason: outcome.reason, message: outcome.message };
      job.stopReason = stop?.reason ?? null;
      job.error = !outcome.done && outcome.error !== undefined ? errorData(outcome.error) : null;
      if (this.quitting) return interrupted();
      if (state.pages.length === 0) {
        // nothing collected: nothing to write, the target keeps what it had
        job.status = stop?.reason === 'cancelled' ? 'cancelled' : 'failed';
        job.resumable = stop !== null && RESUMABLE.has(stop.reason);
        return;
      }

      // a cancel that ended the collection must not stop the writing of what was collected
      running.controller = running.cancel = new AbortController();
      const writing = running.controller.signal;
      job.status = 'writing';
      this.update(job);
      await this.store.save(job);
      const manifest = await manifestOf(stop);
      if (state.missing)
        await this.deps.onMissing?.(job, await state.missing.finish(plan, state.pages, state.failures));
      try {
        if (!(await live?.finish(manifest, state.items, writing))) {
          const target = job.files[0] as string;
          const { writeFromJournal } = this.deps;
          // a built-in format that makes rows (CSV, Parquet) is written in a worker, which knows
          // only those; JSON and JSON Lines copy the journal's bytes (a worker measured slower, and bigger), a network
          // holds its graph and reads the project's posts
          const written =
            writeFromJournal && BUILT_IN_FORMATS.includes(format) && format.live && !format.copiesItems
              ? await writeFromJournal(
                  {
                    format: format.id,
                    target,
                    journal: { path: journal.path, bytes: journal.size },
                    manifest,
                    plan: planData(plan),
                    options: job.options,
                    csvCells,
                    policy,
                  },
                  writing,
                )
              : null;
          if (written) Object.assign(manifest, written);
          else {
            await writeWithPolicy(
              format,
              {
                target,
                items: journal,
                manifest,
                plan,
                options: job.options,
                csvCells,
                signal: writing,
                posts: this.heldPosts,
              },
              policy,
            );
          }
        }
      } catch (error) {
        if (this.quitting) return interrupted();
        const cancelled = writing.aborted;
        job.status = cancelled ? 'cancelled' : 'failed';
        job.stopReason = cancelled ? 'cancelled' : job.stopReason;
        job.error = cancelled ? null : errorData(error);
        job.resumable = true;
        return;
      }
      job.status = stop === null ? 'complete' : 'partial';
      job.resumable = stop !== null && RESUMABLE.has(stop.reason);
      // the file is whole: the person sees it done now, not after the project has kept the collection
      job.finishedAt = clock.now();
      this.update(job);
      await this.keepWritten(job, manifest, () => journal.items());
    } catch (error) {
      if (this.quitting) return interrupted();
      // anything else that failed (the project's server gone, the job's own folder): the journal keeps every page
      // paid for, so the job stays, resumable, and says why
      if (!isSkeinError(error)) this.deps.onInternalError?.(error);
      job.status = 'failed';
      job.error = errorData(error);
      job.resumable = true;
    } finally {
      await live?.discard();
      await journal.close();
      job.finishedAt ??= clock.now();
      if (keepsFolder(job)) await this.store.save(job);
      else await this.store.remove(job.id);
    }
  }

  /**
   * Hands a written file's items to the project (`onWritten`), completing a collection an earlier try began. What it
   * could not do stays on the job, with the manifest beside its journal, for `record` to do again.
   */
  private async keepWritten(job: ExportJob, manifest: ExportManifest, items: WrittenRun['items']): Promise<void> {
    if (!this.deps.onWritten) return;
    const noted = await this.store.begun(job.id);
    let begun = job.unrecorded?.collection ?? noted?.collection;
    let project = job.unrecorded?.project ?? noted?.project;
    try {
      const made = await this.deps.onWritten({
        job: structuredClone(job),
        // as plain data, to cross to the project's thread: its pages were made only as its file was written
        manifest: { ...manifest, pages: [...manifest.pages] },
        items,
        ...(begun !== undefined ? { collection: begun } : {}),
        ...(project ? { project } : {}),
        into: (p) => (project ??= p),
        begun: async (id) => {
          begun = id;
          // named by `into` first, as onWritten must (a collection's number means nothing in another project)
          if (project) await this.store.setBegun(job.id, { collection: id, project });
        },
      });
      // whole: a later write of this job (resumed) is a collection of its own
      await this.store.setBegun(job.id, null).catch(() => undefined);
      delete job.unrecorded;
      if (made) Object.assign(job, made);
    } catch (error) {
      this.deps.onInternalError?.(error);
      job.unrecorded = {
        error: errorData(error),
        ...(begun !== undefined ? { collection: begun } : {}),
        ...(project ? { project } : {}),
      };
      await writeFileAtomic(this.store.manifestPath(job.id), async (sink) => sink.write(JSON.stringify(manifest)));
    }
    this.update(job);
  }

  /**
   * Keeps a written export as the project's collection, once it could not (its server was away): from the job's
   * journal and manifest, with no call. The job is forgotten once kept, unless it can still be resumed.
   */
  record(id: string): Promise<ExportJob> {
    const recording = this.recording.get(id) ?? this.recordOnce(id).finally(() => this.recording.delete(id));
    this.recording.set(id, recording);
    return recording;
  }

  private async recordOnce(id: string): Promise<ExportJob> {
    await this.init();
    const job = this.get(id);
    if (this.running.has(id) || !job.unrecorded) return structuredClone(job);
    let manifest: ExportManifest;
    try {
      await access(this.store.journalPath(id));
      manifest = JSON.parse(await readFile(this.store.manifestPath(id), 'utf8')) as ExportManifest;
      // what the collection is named and filed by; a file that lacks them is not this export's
      if (typeof manifest.mode !== 'string' || typeof manifest.exported_at !== 'string') throw new Error('unreadable');
    } catch {
      throw new SkeinError('not-found', 'What this export collected is no longer kept, so it cannot be kept again.', {
        action: 'Export the view again: what the project holds costs nothing.',
      });
    }
    // the items as written, nothing else: no plan (a hydration's id list may be gone by now)
    const journal = await Journal.open(this.store.journalPath(id));
    try {
      await this.keepWritten(job, manifest, () => journal.items());
    } finally {
      await journal.close();
    }
    if (keepsFolder(job)) await this.store.save(job);
    else {
      this.jobs.delete(id);
      await this.store.remove(id);
    }
    return structuredClone(job);
  }
}
