/**
 * A collection's long job as the bridge follows it: started (or joined, when one for that collection is under
 * way), polled by its id (an AbortSignal cannot cross the bridge: the id is its cancel), its progress folded in
 * as it comes, and how it ended kept for a while so a late poll still reads it. Keeping media and capturing
 * linked pages are both this; each area says only how its job starts, runs and reads.
 */
import { randomUUID } from 'node:crypto';

export type JobState = 'running' | 'done' | 'cancelled' | 'failed';

/** what every such job carries across the bridge */
export interface CollectionJob {
  id: string;
  collection: number;
  state: JobState;
  /** what there is to do, and how much of it is done */
  total: number;
  done: number;
  /** why the job failed, in plain words */
  message: string | null;
}

/** how a run ended: what to fold into the job, and whether it stopped on a cancel */
export interface RunEnd<J> {
  fields: Partial<J>;
  cancelled: boolean;
}

export interface CollectionJobs<J extends CollectionJob> {
  /**
   * starts a job for a collection, or returns the one under way for it. `fresh` is the job before anything ran,
   * made from what every job starts with (its id, its collection, running, nothing done); `run` does the work, folding progress in through `update`, and says how it ended.
   */
  start: (
    collection: number,
    fresh: (base: CollectionJob & { state: 'running'; total: 0; done: 0; message: null }) => J,
    run: (signal: AbortSignal, update: (fields: Partial<J>) => void) => Promise<RunEnd<J>>,
  ) => J;
  /** the job as it stands (null: no such job, or finished too long ago) */
  get: (id: string) => J | null;
  /** stops a job under way; false when none runs under that id */
  cancel: (id: string) => boolean;
  /** how a job ended, once it has (null: no such job) */
  settled: (id: string) => Promise<J | null>;
  /** stops every job under way */
  dispose: () => void;
}

interface Entry<J> {
  job: J;
  abort: AbortController;
  /** how it ended (never rejects) */
  ended: Promise<J>;
}

/**
 * The jobs of one kind. `keepFinished`: how many ended jobs stay readable; `failure`: the words for a job that
 * failed with no message of its own.
 */
export function collectionJobs<J extends CollectionJob>(keepFinished: number, failure: string): CollectionJobs<J> {
  const jobs = new Map<string, Entry<J>>();
  const finished: string[] = [];
  return {
    start: (collection, fresh, run) => {
      const running = [...jobs.values()].find((j) => j.job.collection === collection && j.job.state === 'running');
      if (running) return running.job;
      const id = randomUUID();
      const abort = new AbortController();
      const job = fresh({ id, collection, state: 'running', total: 0, done: 0, message: null });
      const entry: Entry<J> = { job, abort, ended: Promise.resolve(job) };
      jobs.set(id, entry);
      const update = (fields: Partial<J>) => (entry.job = { ...entry.job, ...fields });
      entry.ended = Promise.resolve()
        .then(() => run(abort.signal, update))
        .then((end) => update({ ...end.fields, state: end.cancelled ? 'cancelled' : 'done' }))
        .catch((e: unknown) =>
          update({ state: 'failed', message: e instanceof Error ? e.message : failure } as Partial<J>),
        )
        .finally(() => {
          finished.push(id);
          while (finished.length > keepFinished) jobs.delete(finished.shift() as string);
        });
      return entry.job;
    },
    get: (id) => jobs.get(id)?.job ?? null,
    cancel: (id) => {
      const entry = jobs.get(id);
      if (!entry || entry.job.state !== 'running') return false;
      entry.abort.abort();
      return true;
    },
    settled: async (id) => (await jobs.get(id)?.ended) ?? null,
    dispose: () => {
      for (const { abort } of jobs.values()) abort.abort();
    },
  };
}
