/**
 * The `media` namespace of the bridge: an estimate, then a job that keeps a collection's media while the
 * renderer polls it (an AbortSignal cannot cross the bridge: the job's id is its cancel). One job per
 * collection at once; finished jobs are kept for a while so a late poll still reads how it ended. A check of
 * what was kept re-hashes every file of the project (verify.ts, the runner's own check), polled the same way:
 * one at a time, a second click joins it.
 */
import { randomUUID } from 'node:crypto';
import type { HandlersOf } from '../../shared/ipc/define';
import type { PagesCheck } from '../../shared/ipc/pages';
import type { MediaCheck, MediaCheckJob, MediaJob, MediaTimestamp, mediaContract } from '../../shared/ipc/media';
import type { KeepProgress, KeepResult } from './keep';
import type { EvidenceSummary } from './evidence';
import type { Estimate } from './plan';
import type { KeptMedia } from './tables/tables';
import type { TimestampOutcome } from './timestamp';
import type { KeptBytes, VerifyReport } from './verify';

export type MediaHandlers = HandlersOf<typeof mediaContract>;

/** What the handlers need of the project in use (fitted by the composition over the archive). */
export interface MediaProjectPort {
  estimate: (collection: number) => Promise<Estimate>;
  keep: (collection: number, signal?: AbortSignal, onProgress?: (p: KeepProgress) => void) => Promise<KeepResult>;
  keptIn: (collection: number) => Promise<KeptMedia[]>;
  read: (sha256: string) => Promise<KeptBytes | null>;
  /** every kept file re-hashed, and the project's files of captured pages */
  verify: (onProgress?: (checked: number, total: number) => void) => Promise<VerifyReport & { pages: PagesCheck }>;
  evidence: (collection: number) => Promise<EvidenceSummary | null>;
}

const KEEP_FINISHED = 50;
/** files that no longer match named across the bridge, and posts named per file: the counts say the rest */
const MISMATCHES_SHOWN = 500;
const USES_SHOWN = 20;
const CHECKS_FINISHED = 5;

/** a check's report as the bridge carries it: changed and missing files in one bounded list */
function forBridge(r: VerifyReport & { pages: PagesCheck }): MediaCheck {
  const mismatches = [...r.changed, ...r.missing.map((m) => ({ ...m, found: null }))]
    .slice(0, MISMATCHES_SHOWN)
    .map((m) => ({
      name: m.name,
      expected: m.expected,
      found: m.found,
      size: m.size,
      keptAt: m.keptAt,
      uses: m.uses.slice(0, USES_SHOWN),
    }));
  const tokenProblems = r.tokens.problems
    .slice(0, MISMATCHES_SHOWN)
    .map(({ manifest, authority, genTime, problem }) => ({ manifest, authority, genTime, problem }));
  return {
    checked: r.checked,
    bytes: r.bytes,
    matched: r.matched,
    mismatches,
    tokens: r.tokens.checked,
    tokenProblems,
    pages: { ...r.pages, problems: r.pages.problems.slice(0, MISMATCHES_SHOWN) },
  };
}

/** a run's trusted time as the bridge carries it */
function timestampForBridge(t: TimestampOutcome | null): MediaTimestamp | null {
  if (!t) return null;
  return { files: t.files, authority: t.authority, genTime: t.genTime, serial: t.serial, reason: t.reason };
}

interface Entry {
  job: MediaJob;
  abort: AbortController;
  /** how it ended (never rejects) */
  ended: Promise<MediaJob>;
}

export interface MediaJobs {
  handlers: MediaHandlers;
  /**
   * starts keeping a collection's media as a job the page can follow and cancel (joining one under way): the
   * Archive's button, an export that asked for its media, a watch's run
   */
  start: (collection: number, opts?: { estimate?: boolean }) => MediaJob;
  /** stops a job under way; false when none runs under that id */
  cancel: (id: string) => boolean;
  /** how a job ended, once it has (null: no such job) */
  settled: (id: string) => Promise<MediaJob | null>;
  dispose: () => void;
}

export function createMediaHandlers(port: MediaProjectPort): MediaJobs {
  const jobs = new Map<string, Entry>();
  const checks = new Map<string, MediaCheckJob>();
  const checksFinished: string[] = [];
  const finished: string[] = [];
  /** starts keeping a collection's media, or joins the keeping of it under way */
  const start = (collection: number, opts: { estimate?: boolean } = {}): MediaJob => {
    const running = [...jobs.values()].find((j) => j.job.collection === collection && j.job.state === 'running');
    if (running) return running.job;
    const id = randomUUID();
    const abort = new AbortController();
    const job: MediaJob = {
      id,
      collection,
      state: 'running',
      total: 0,
      done: 0,
      kept: 0,
      storedBytes: 0,
      failed: 0,
      reasons: {},
      alreadyKept: 0,
      message: null,
      timestamp: null,
    };
    const entry: Entry = { job, abort, ended: Promise.resolve(job) };
    jobs.set(id, entry);
    const update = (p: Partial<MediaJob>) => (entry.job = { ...entry.job, ...p });
    // the estimate first, when asked (whoever follows this keeping saw none before it began)
    const estimated = opts.estimate
      ? port.estimate(collection).then((estimate) => void update({ estimate }))
      : Promise.resolve();
    entry.ended = estimated
      .then(() =>
        port.keep(collection, abort.signal, (p) => update({ ...p, reasons: p.reasons as Record<string, number> })),
      )
      .then((r) =>
        update({
          ...r,
          reasons: r.reasons as Record<string, number>,
          state: r.cancelled ? 'cancelled' : 'done',
          timestamp: timestampForBridge(r.timestamp),
        }),
      )
      .catch((e: unknown) =>
        update({ state: 'failed', message: e instanceof Error ? e.message : 'the media could not be kept' }),
      )
      .finally(() => {
        finished.push(id);
        while (finished.length > KEEP_FINISHED) jobs.delete(finished.shift() as string);
      });
    return entry.job;
  };
  const cancel = (id: string): boolean => {
    const entry = jobs.get(id);
    if (!entry || entry.job.state !== 'running') return false;
    entry.abort.abort();
    return true;
  };
  const handlers: MediaHandlers = {
    media: {
      estimate: ({ collection }) => port.estimate(collection),
      keep: async ({ collection }) => start(collection),
      job: async ({ id }) => jobs.get(id)?.job ?? null,
      cancel: async ({ id }) => ({ cancelled: cancel(id) }),
      kept: async ({ collection }) =>
        (await port.keptIn(collection)).map((k) => ({
          postId: k.postId,
          url: k.url,
          sha256: k.sha256,
          size: k.size,
          mime: k.mime,
          keptAt: k.firstKeptAt,
        })),
      file: async ({ sha256 }) => {
        const kept = await port.read(sha256);
        if (!kept) return null;
        const { bytes, ...rest } = kept;
        return { ...rest, base64: bytes ? bytes.toString('base64') : null };
      },
      verify: async () => {
        const running = [...checks.values()].find((c) => c.state === 'running');
        if (running) return running;
        const id = randomUUID();
        checks.set(id, { id, state: 'running', checked: 0, total: 0, result: null, message: null });
        const update = (p: Partial<MediaCheckJob>) => checks.set(id, { ...(checks.get(id) as MediaCheckJob), ...p });
        void port
          .verify((checked, total) => update({ checked, total }))
          .then((r) => update({ state: 'done', result: forBridge(r) }))
          .catch((e: unknown) =>
            update({
              state: 'failed',
              message: e instanceof Error ? e.message : 'the kept files could not be checked',
            }),
          )
          .finally(() => {
            checksFinished.push(id);
            while (checksFinished.length > CHECKS_FINISHED) checks.delete(checksFinished.shift() as string);
          });
        return checks.get(id) as MediaCheckJob;
      },
      verifyJob: async ({ id }) => checks.get(id) ?? null,
      evidence: ({ collection }) => port.evidence(collection),
    },
  };
  return {
    handlers,
    start,
    cancel,
    settled: async (id) => (await jobs.get(id)?.ended) ?? null,
    dispose: () => {
      for (const { abort } of jobs.values()) abort.abort();
    },
  };
}
