/**
 * Where export jobs live between runs: one folder per job under `stateDir`, holding `job.json` (the job record)
 * and the collection journal. Writes of one job's record are queued so they never race.
 */
import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { ExportJob, type UnreadExport } from '../../shared/ipc/export';
import { writeFileAtomic } from '../files/atomic-file';
import { recordFields, timeField } from '../files/unread-record';
import type { KeptIn } from './service-deps';

const JOB_FILE = 'job.json';
const JOURNAL_FILE = 'journal.log';
const MISSING_FILE = 'missing.jsonl';
const MANIFEST_FILE = 'manifest.json';
const BEGUN_FILE = 'collection.json';

/** a collection a written export's keeping began, in the project that holds it */
export interface Begun {
  collection: number;
  project: KeptIn;
}

export class JobStore {
  private readonly persisting = new Map<string, Promise<void>>();

  constructor(private readonly stateDir: string) {}

  dir(id: string): string {
    return join(this.stateDir, id);
  }

  journalPath(id: string): string {
    return join(this.dir(id), JOURNAL_FILE);
  }

  /** a hydration's missing ids, written as its batches are recorded */
  missingPath(id: string): string {
    return join(this.dir(id), MISSING_FILE);
  }

  /** a written export's manifest, kept while the project has not kept the export as a collection */
  manifestPath(id: string): string {
    return join(this.dir(id), MANIFEST_FILE);
  }

  /**
   * The project's collection a written file's keeping began, kept from the moment it exists until it is whole, so a
   * Skein killed meanwhile completes that one instead of beginning another; null: none begun.
   */
  async begun(id: string): Promise<Begun | null> {
    try {
      const { collection, project } = JSON.parse(await readFile(join(this.dir(id), BEGUN_FILE), 'utf8')) as {
        collection?: unknown;
        project?: { id?: unknown; name?: unknown };
      };
      if (typeof collection !== 'number' || !Number.isInteger(collection) || collection <= 0) return null;
      if (typeof project?.id !== 'string' || typeof project.name !== 'string') return null;
      return { collection, project: { id: project.id, name: project.name } };
    } catch {
      return null;
    }
  }

  async setBegun(id: string, begun: Begun | null): Promise<void> {
    const path = join(this.dir(id), BEGUN_FILE);
    if (begun === null) await rm(path, { force: true });
    else await writeFileAtomic(path, async (sink) => sink.write(JSON.stringify(begun)));
  }

  /**
   * The jobs an earlier run left; those that were running are `interrupted`. A job record this Skein cannot read
   * (a newer Skein's, or damaged) is listed as such and its folder left as it is: its journal holds pages paid for.
   */
  async load(): Promise<{ jobs: ExportJob[]; unread: UnreadExport[] }> {
    // no folder yet: nothing kept
    const names = await readdir(this.stateDir).catch((): string[] => []);
    const jobs: ExportJob[] = [];
    const unread: UnreadExport[] = [];
    for (const name of names) {
      const record = await this.read(name);
      if (record.kind === 'none') continue;
      if (record.kind === 'unread') {
        unread.push(record.unread);
        continue;
      }
      const job = record.job;
      if (job.status === 'collecting' || job.status === 'writing') {
        job.status = 'interrupted';
        job.stopReason = 'interrupted';
        job.resumable = true;
        job.progress.waitingUntil = null;
      }
      jobs.push(job);
    }
    return { jobs, unread };
  }

  /** The job record in folder `id`: none (not a job's folder), a job, or one this Skein cannot read. */
  async read(
    id: string,
  ): Promise<{ kind: 'none' } | { kind: 'job'; job: ExportJob } | { kind: 'unread'; unread: UnreadExport }> {
    let text: string;
    try {
      text = await readFile(join(this.stateDir, id, JOB_FILE), 'utf8');
    } catch {
      // no record (a folder a job is still being made in, or not a job's folder at all)
      return { kind: 'none' };
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      value = undefined;
    }
    const job = ExportJob.safeParse(value);
    if (job.success) return { kind: 'job', job: job.data };
    return { kind: 'unread', unread: unreadExport(id, value) };
  }

  /** Saves the job record (as it is now), after the job's earlier saves. */
  save(job: ExportJob): Promise<void> {
    const text = JSON.stringify(job);
    const previous = this.persisting.get(job.id) ?? Promise.resolve();
    const next = previous
      .catch(() => undefined)
      .then(() => writeFileAtomic(join(this.dir(job.id), JOB_FILE), async (sink) => sink.write(text)))
      .then(() => undefined);
    this.persisting.set(job.id, next);
    return next;
  }

  /** Deletes the job's folder, once its pending saves are done. */
  async remove(id: string): Promise<void> {
    await this.persisting.get(id)?.catch(() => undefined);
    this.persisting.delete(id);
    await rm(this.dir(id), { recursive: true, force: true });
  }
}

/** What can still be told of a job record this Skein cannot read: its file and when it began, where they are readable. */
function unreadExport(id: string, value: unknown): UnreadExport {
  const record = recordFields(value);
  const files: unknown[] = Array.isArray(record.files) ? record.files : [];
  const file = typeof files[0] === 'string' && files[0].length <= 4096 ? files[0] : null;
  return { id, file, startedAt: timeField(record.startedAt) };
}
