/**
 * The `jobs` namespace of the bridge: saved jobs (shared/jobs). The renderer sends the start request its dialog
 * would send; main asks where to save and writes the file (the renderer never writes files, and a hydration's ids
 * are read from its import in main).
 */
import { z } from 'zod';
import { SavedJobKind } from '../jobs/saved-job';
import { fn } from './define';
import { ExportStartInput } from './export';

export const jobsContract = {
  jobs: {
    /** `file` is null when the person closed the save dialog */
    save: fn(z.object({ kind: SavedJobKind, start: ExportStartInput }), z.object({ file: z.string().nullable() })),
  },
};
