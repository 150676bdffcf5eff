/**
 * The `pages` namespace of the bridge: a count, then a job that captures a collection's linked pages while the
 * renderer polls it (an AbortSignal cannot cross the bridge: the job's id is its cancel). One job per
 * collection at once; finished jobs are kept for a while so a late poll still reads how it ended.
 */
import { randomUUID } from 'node:crypto';
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
  const jobs = new Map<string, { job: PagesJob; abort: AbortController }>();
  const finished: string[] = [];
  const handlers: PagesHandlers = {
    pages: {
      estimate: ({ collection }) => port.estimate(collection),
      capture: async ({ collection }) => {
        const running = [...jobs.values()].find((j) => j.job.collection === collection && j.job.state === 'running');
        if (running) return running.job;
        const id = randomUUID();
        const abort = new AbortController();
        const job: PagesJob = {
          id,
          collection,
          state: 'running',
          total: 0,
          done: 0,
          captured: 0,
          bytes: 0,
          failed: 0,
          reasons: {},
          alreadyCaptured: 0,
          wacz: null,
          folder: null,
          message: null,
          save: null,
        };
        const entry = { job, abort };
        jobs.set(id, entry);
        const update = (p: Partial<PagesJob>) => (entry.job = { ...entry.job, ...p });
        const saveOf = (s: SaveProgress | null) => (s ? { ...s, reasons: s.reasons as Record<string, number> } : null);
        void port
          .capture(collection, abort.signal, (p) =>
            update({ ...p, reasons: p.reasons as Record<string, number>, save: saveOf(p.save) }),
          )
          .then((r) =>
            update({
              ...r,
              reasons: r.reasons as Record<string, number>,
              save: saveOf(r.save),
              state: r.cancelled ? 'cancelled' : 'done',
            }),
          )
          .catch((e: unknown) =>
            update({ state: 'failed', message: e instanceof Error ? e.message : 'the pages could not be kept' }),
          )
          .finally(() => {
            finished.push(id);
            while (finished.length > FINISHED) jobs.delete(finished.shift() as string);
          });
        return entry.job;
      },
      job: async ({ id }) => jobs.get(id)?.job ?? null,
      list: async ({ collection }) => (await port.list(collection)).slice(0, PAGE_LIST_MAX),
      cancel: async ({ id }) => {
        const entry = jobs.get(id);
        if (!entry || entry.job.state !== 'running') return { cancelled: false };
        entry.abort.abort();
        return { cancelled: true };
      },
    },
  };
  return {
    handlers,
    dispose: () => {
      for (const { abort } of jobs.values()) abort.abort();
    },
  };
}
