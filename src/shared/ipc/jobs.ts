/**
 * The `jobs` namespace of the bridge: saved jobs (shared/jobs). The renderer sends the start request its dialog
 * would send (a watch: the spec its form would switch on); main asks where to save and writes the file (the renderer never writes files, and a hydration's ids
 * are read from its import in main).
 */
import { z } from 'zod';
import { SavedJobKind } from '../jobs/saved-job';
import { fn } from './define';
import { ExportStartInput, StopReason } from './export';
import { WatchSpec } from './watch';

/** A saved job's run by the headless runner, as the project records it (the app lists them). */
export const HeadlessRun = z.object({
  /** the run's job id (one per job file and project: a resumed run updates its record) */
  jobId: z.string().max(100),
  name: z.string().max(200),
  kind: SavedJobKind,
  /** `running`: started and not ended (still going, or killed: run the job again to go on) */
  status: z.enum(['running', 'complete', 'partial', 'cancelled', 'failed', 'interrupted']),
  stopReason: StopReason.nullable(),
  items: z.number().int(),
  calls: z.number().int(),
  credits: z.number(),
  /** what it wrote, on the computer it ran on */
  files: z.array(z.string().max(4096)).max(20),
  /** that computer's name */
  host: z.string().max(200),
  startedAt: z.number(),
  finishedAt: z.number().nullable(),
});
export type HeadlessRun = z.infer<typeof HeadlessRun>;

/**
 * A run record on the project this Skein cannot read (a newer Skein's status or kind of job, on a team's project):
 * what can still be told of it, each part null where unreadable. The record is kept as it was.
 */
export const UnreadRun = z.object({
  name: z.string().max(200).nullable(),
  kind: z.string().max(100).nullable(),
  status: z.string().max(100).nullable(),
  host: z.string().max(200).nullable(),
  at: z.number().nullable(),
});
export type UnreadRun = z.infer<typeof UnreadRun>;

export const jobsContract = {
  jobs: {
    /** `file` is null when the person closed the save dialog */
    save: fn(
      z.discriminatedUnion('kind', [
        z.object({ kind: z.enum(['export', 'hydrate']), start: ExportStartInput }),
        /** a watch as its form describes it (its window's end dropped), and how many days it is to run */
        z.object({ kind: z.literal('watch'), watch: WatchSpec, days: z.number().positive().max(3_650).nullable() }),
      ]),
      z.object({ file: z.string().nullable() }),
    ),
    /** the saved jobs the headless runner ran on the open project, latest first */
    headless: fn(z.undefined(), z.object({ runs: z.array(HeadlessRun), unread: z.array(UnreadRun) })),
    /** shows a headless run's result in the file manager, when it is on this computer (else `note` says where) */
    showResult: fn(z.object({ jobId: z.string().min(1).max(100) }), z.object({ shown: z.boolean(), note: z.string() })),
  },
};
