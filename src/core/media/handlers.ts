/**
 * The `media` namespace of the bridge: an estimate, then a job that keeps a collection's media while the
 * renderer polls it (core/jobs' `collectionJobs`: the job's id is its cancel, one job per collection at once,
 * finished jobs kept for a while so a late poll still reads how it ended). A check of
 * what was kept re-hashes every file of the project (verify.ts, the runner's own check), polled the same way:
 * one at a time, a second click joins it.
 */
import { randomUUID } from 'node:crypto';
import { collectionJobs } from '../jobs';
import type { HandlersOf } from '../../shared/ipc/define';
import type { PagesCheck } from '../../shared/ipc/pages';
import type { ExportScope, ViewDescriptor } from '../../shared/ipc/export';
import type {
  MediaCheck,
  MediaCheckJob,
  MediaJob,
  MediaTimestamp,
  ViewMediaEstimate,
  mediaContract,
} from '../../shared/ipc/media';
import type { KeepProgress, KeepResult } from './keep';
import type { EvidenceSummary } from './evidence';
import type { Estimate } from './plan';
import type { KeptMedia } from './tables/tables';
import type { TimestampOutcome } from '../timestamp';
import type { KeptBytes, VerifyReport } from './verify';

export type MediaHandlers = HandlersOf<typeof mediaContract>;

/** What the handlers need of the project in use (fitted by the composition over the archive). */
export interface MediaProjectPort {
  estimate: (collection: number) => Promise<Estimate>;
  /** the media of the posts a view has loaded (all its loaded pages, or with `partial` when more will be fetched) */
  estimateView: (view: ViewDescriptor, scope: ExportScope) => Promise<ViewMediaEstimate>;
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
    pages: {
      ...r.pages,
      problems: r.pages.problems.slice(0, MISMATCHES_SHOWN),
      tokenProblems: r.pages.tokenProblems.slice(0, MISMATCHES_SHOWN),
    },
  };
}

/** a run's trusted time as the bridge carries it */
function timestampForBridge(t: TimestampOutcome | null): MediaTimestamp | null {
  if (!t) return null;
  return { files: t.files, authority: t.authority, genTime: t.genTime, serial: t.serial, reason: t.reason };
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
  const jobs = collectionJobs<MediaJob>(KEEP_FINISHED, 'the media could not be kept');
  const checks = new Map<string, MediaCheckJob>();
  const checksFinished: string[] = [];
  /** starts keeping a collection's media, or joins the keeping of it under way */
  const start = (collection: number, opts: { estimate?: boolean } = {}): MediaJob =>
    jobs.start(
      collection,
      (base) => ({ ...base, kept: 0, storedBytes: 0, failed: 0, reasons: {}, alreadyKept: 0, timestamp: null }),
      async (signal, update) => {
        // the estimate first, when asked (whoever follows this keeping saw none before it began)
        if (opts.estimate) update({ estimate: await port.estimate(collection) });
        const r = await port.keep(collection, signal, (p) =>
          update({ ...p, reasons: p.reasons as Record<string, number> }),
        );
        return {
          fields: { ...r, reasons: r.reasons as Record<string, number>, timestamp: timestampForBridge(r.timestamp) },
          cancelled: r.cancelled,
        };
      },
    );
  const handlers: MediaHandlers = {
    media: {
      estimate: ({ collection }) => port.estimate(collection),
      estimateView: ({ view, scope }) => port.estimateView(view, scope),
      keep: async ({ collection }) => start(collection),
      job: async ({ id }) => jobs.get(id),
      cancel: async ({ id }) => ({ cancelled: jobs.cancel(id) }),
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
  return { handlers, start, cancel: jobs.cancel, settled: jobs.settled, dispose: jobs.dispose };
}
