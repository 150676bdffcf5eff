/**
 * The `pages` namespace of the bridge: a count, then a job that captures a collection's linked pages while the
 * renderer polls it (core/jobs' `collectionJobs`, as media's keeping: the job's id is its cancel, one job per
 * collection at once, finished jobs kept for a while so a late poll still reads how it ended).
 */
import { collectionJobs } from '../jobs';
import type { HandlersOf } from '../../shared/ipc/define';
import {
  PAGE_LIST_MAX,
  type PageListRow,
  type PagesEstimate,
  type PagesJob,
  type pagesContract,
} from '../../shared/ipc/pages';
import type { CaptureProgress, CaptureResult } from './capture';
import type { SaveProgress } from './save';

export type { PageListRow };
/** a run's progress: the local capture's, and the save service's when it is on */
export type PagesRunProgress = CaptureProgress & { save: SaveProgress | null };
export type PagesRunResult = CaptureResult & { folder: string; save: SaveProgress | null };

export type PagesHandlers = HandlersOf<typeof pagesContract>;

/** What the handlers need of the project in use (fitted by the composition over the archive). */
export interface PagesProjectPort {
  estimate: (collection: number) => Promise<PagesEstimate>;
  capture: (
    collection: number,
    signal?: AbortSignal,
    onProgress?: (p: PagesRunProgress) => void,
  ) => Promise<PagesRunResult>;
  list: (collection: number) => Promise<PageListRow[]>;
}

const FINISHED = 50;

export function createPagesHandlers(port: PagesProjectPort): { handlers: PagesHandlers; dispose: () => void } {
  const jobs = collectionJobs<PagesJob>(FINISHED, 'the pages could not be kept');
  const saveOf = (s: SaveProgress | null) => (s ? { ...s, reasons: s.reasons as Record<string, number> } : null);
  const handlers: PagesHandlers = {
    pages: {
      estimate: ({ collection }) => port.estimate(collection),
      capture: async ({ collection }) =>
        jobs.start(
          collection,
          (base) => ({
            ...base,
            captured: 0,
            bytes: 0,
            failed: 0,
            reasons: {},
            alreadyCaptured: 0,
            wacz: null,
            folder: null,
            save: null,
            timestamp: null,
          }),
          async (signal, update) => {
            const r = await port.capture(collection, signal, (p) =>
              update({ ...p, reasons: p.reasons as Record<string, number>, save: saveOf(p.save) }),
            );
            const t = r.timestamp;
            const timestamp = t
              ? { authority: t.authority, genTime: t.genTime, serial: t.serial, reason: t.reason }
              : null;
            return {
              fields: { ...r, reasons: r.reasons as Record<string, number>, save: saveOf(r.save), timestamp },
              cancelled: r.cancelled,
            };
          },
        ),
      job: async ({ id }) => jobs.get(id),
      list: async ({ collection }) => (await port.list(collection)).slice(0, PAGE_LIST_MAX),
      cancel: async ({ id }) => ({ cancelled: jobs.cancel(id) }),
    },
  };
  return { handlers, dispose: jobs.dispose };
}
