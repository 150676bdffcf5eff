/**
 * The `ids` namespace of the bridge: id lists researchers bring (a dataset shared as ids only) are kept by
 * main as an *import*, and a batch view that names the import (`ViewDescriptor.idsFrom`) hydrates them with
 * the export machinery: batches of 100, journaled, resumable, with a quote before any call.
 *
 * The renderer parses what the person pasted or picked (it never passes a path) and sends the ids in slices;
 * main checks every id again and keeps the list in the user data folder, so a job survives restarts.
 */
import { z } from 'zod';
import { fn } from './define';

export const IdEntity = z.enum(['posts', 'users']);
export type IdEntity = z.infer<typeof IdEntity>;

/** An import's handle: made by main, checked on every call. */
export const ImportId = z.string().regex(/^imp-[0-9a-z]{8,40}$/, 'not an import id');

/** Ids per `ids.add` call (keeps each bridge message well under a megabyte). */
export const MAX_IDS_PER_ADD = 20_000;
/** Ids per import: 5 million (the lists researchers share run to a few million). */
export const MAX_IDS_PER_IMPORT = 5_000_000;

/** An id as the API knows it: digits only (what a spreadsheet or a URL carried was decoded by the parser). */
export const PlainId = z.string().regex(/^\d{1,25}$/, 'an id is digits only');

export const IdImport = z.object({
  importId: ImportId,
  entity: IdEntity,
  /** what the person called it (the file's name, "Pasted ids", "Missing from …") */
  label: z.string().max(200),
  /** distinct ids kept, in the order first seen */
  ids: z.number().int().min(0),
  /** repeated ids dropped while adding */
  repeated: z.number().int().min(0),
  /** all ids added; an open import still takes more */
  sealed: z.boolean(),
  createdAt: z.number(),
});
export type IdImport = z.infer<typeof IdImport>;

/** An id a hydration asked for and did not get, with the reason as far as it is known. */
export const MissingId = z.object({ id: z.string(), reason: z.string() });
export type MissingId = z.infer<typeof MissingId>;

const Ref = z.object({ importId: ImportId });
const JobRef = z.object({ jobId: z.string().min(1).max(100) });

export const idsContract = {
  ids: {
    /** starts an import; ids follow with `add`, then `seal` */
    create: fn(z.object({ entity: IdEntity, label: z.string().min(1).max(200) }), IdImport),
    add: fn(Ref.extend({ ids: z.array(PlainId).max(MAX_IDS_PER_ADD) }), IdImport),
    /** the list is complete: it can be hydrated (and is kept across restarts) */
    seal: fn(Ref, IdImport),
    list: fn(z.undefined(), z.array(IdImport)),
    discard: fn(Ref, z.object({ discarded: z.boolean() })),
    /** the ids a finished (or stopped) hydration asked for and did not get, with why */
    missing: fn(
      JobRef.extend({
        offset: z.number().int().min(0).default(0),
        limit: z.number().int().min(1).max(1000).default(200),
      }),
      z.object({ total: z.number().int(), ids: z.array(MissingId) }),
    ),
    /** a new import of only the ids a hydration did not get ("retry the missing") */
    retryMissing: fn(JobRef, IdImport),
  },
};
