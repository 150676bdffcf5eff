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

/** Characters per `ids.append` call (a UTF-8 body stays under the web shell's 1 MiB limit). */
export const MAX_APPEND_CHARS = 256 * 1024;
/** Ids per import: 5 million (the lists researchers share run to a few million). */
export const MAX_IDS_PER_IMPORT = 5_000_000;

/** Handles a list keeps for resolving (each costs a people search: more belong in a list of ids). */
export const MAX_KEPT_HANDLES = 1000;

/** How the file is read: one id per line, pasted text, a CSV/TSV column, or a JSONL field path. */
export const IdSource = z.discriminatedUnion('format', [
  z.object({ format: z.literal('txt') }),
  z.object({ format: z.literal('paste') }),
  z.object({
    format: z.literal('csv'),
    /** a header name, or a 0-based position */
    column: z.union([z.string().min(1).max(200), z.number().int().min(0).max(10_000)]),
    header: z.boolean(),
    delimiter: z.enum([',', '\t', ';']).optional(),
  }),
  z.object({ format: z.literal('jsonl'), path: z.string().max(200) }),
]);
export type IdSource = z.infer<typeof IdSource>;

/** A token refused before anything is spent, with its line and why. */
const RefusedId = z.object({ line: z.number().int(), token: z.string(), why: z.string() });

/** What reading the list found, beside the ids it kept. */
export const ImportReport = z.object({
  lines: z.number().int(),
  duplicates: z.number().int(),
  blank: z.number().int(),
  /** users: @handles and profile URLs found (hydrated once resolved: one people search each) */
  handles: z.number().int(),
  /** the handles themselves, in file order (the first `MAX_KEPT_HANDLES`) */
  handleList: z.array(z.string()).default([]),
  damaged: z.array(RefusedId),
  invalid: z.array(RefusedId),
  damagedTotal: z.number().int(),
  invalidTotal: z.number().int(),
});
export type ImportReport = z.infer<typeof ImportReport>;

/** The first rows of a CSV/TSV, for the column picker. */
export const IdFilePreview = z.object({
  delimiter: z.enum([',', '\t', ';']),
  columns: z.array(z.string()),
  rows: z.array(z.array(z.string())),
  suggested: z.number().int().nullable(),
});
export type IdFilePreview = z.infer<typeof IdFilePreview>;

export const IdImport = z.object({
  importId: ImportId,
  entity: IdEntity,
  /** what the person called it (the file's name, "Pasted ids", "Missing from …") */
  label: z.string().max(200),
  /** distinct ids kept, in the order first seen */
  ids: z.number().int().min(0),
  /** all text read and the list kept; an open import still takes more (a list with no ids is not kept) */
  sealed: z.boolean(),
  createdAt: z.number(),
  /** what reading found (refused ids with their line and why, repeats); absent while open */
  report: ImportReport.optional(),
});
export type IdImport = z.infer<typeof IdImport>;

/**
 * An id list kept on this computer this Skein cannot read (a newer Skein's, after going back to this one, or
 * damaged): its label and when it was read, where readable. Its files are left as they are.
 */
export const UnreadIdList = z.object({
  importId: ImportId,
  label: z.string().max(200).nullable(),
  createdAt: z.number().nullable(),
});
export type UnreadIdList = z.infer<typeof UnreadIdList>;

/** An id a hydration asked for and did not get, with the reason as far as it is known. */
export const MissingId = z.object({ id: z.string(), reason: z.string() });
export type MissingId = z.infer<typeof MissingId>;

/** A hydration of an import that has stopped, and how many of its ids did not come back. */
export const Hydration = z.object({
  jobId: z.string(),
  missing: z.number().int(),
  /** of `missing`: ids that look rounded by a spreadsheet (15 significant digits, then zeros): maybe damaged, not deleted */
  possiblyRounded: z.number().int(),
  at: z.number(),
});
export type Hydration = z.infer<typeof Hydration>;

const Ref = z.object({ importId: ImportId });
const JobRef = z.object({ jobId: z.string().min(1).max(100) });

export const idsContract = {
  ids: {
    /** the column picker of a CSV/TSV: its first rows (the start of the file, as text) */
    preview: fn(z.object({ entity: IdEntity, head: z.string().max(64 * 1024) }), IdFilePreview),
    /** starts an import; the file's text follows with `append`, then `seal` */
    create: fn(z.object({ entity: IdEntity, label: z.string().min(1).max(200), source: IdSource }), IdImport),
    /** a new list starting with a kept list's ids, to add the ids its @handles resolved to (`append`, `seal`) */
    extend: fn(Ref.extend({ label: z.string().min(1).max(200) }), IdImport),
    append: fn(Ref.extend({ text: z.string().max(MAX_APPEND_CHARS) }), IdImport),
    /** the text is complete: the list is kept (across restarts) and can be hydrated; the report says what was refused */
    seal: fn(Ref, IdImport),
    list: fn(z.undefined(), z.array(IdImport)),
    /** the kept id lists this Skein cannot read, and the folder that keeps them */
    unread: fn(z.undefined(), z.object({ folder: z.string(), lists: z.array(UnreadIdList) })),
    discard: fn(Ref, z.object({ discarded: z.boolean() })),
    /** the hydrations of a list that have stopped (running ones are export jobs) */
    hydrations: fn(Ref, z.array(Hydration)),
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
