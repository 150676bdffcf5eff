/**
 * The `export` namespace of the bridge: any view can be written in any format
 * of main's registry (`export.formats`). The renderer describes the view (what it shows, how much is
 * loaded); main chooses the file through the native dialog (the renderer
 * never passes a path), collects the raw items and writes them atomically.
 */
import { z } from 'zod';
import { OPERATIONS, OperationIdSchema, type ItemKind, type OperationId } from '../api/catalog';
import { SkeinErrorData } from '../errors';
import { PagingStopReason } from './api';
import { fn } from './define';
import { ImportId } from './ids';

/** Every view Skein can export, and the operation behind it. */
export const VIEW_OPERATIONS = {
  thread: 'postRepliesV2',
  directReplies: 'postReplies',
  quotes: 'postQuotes',
  postsByIds: 'postsByIds',
  timeline: 'userTimeline',
  mentions: 'userMentions',
  peopleSearch: 'userSearch',
  usersByIds: 'usersByIds',
  community: 'communityInfo',
  listPosts: 'listTimeline',
  listFollowers: 'listFollowers',
  space: 'spaceDetail',
  trends: 'trends',
} as const satisfies Record<string, OperationId>;

export type ViewKind = keyof typeof VIEW_OPERATIONS;
export const ViewKind = z.enum(Object.keys(VIEW_OPERATIONS) as [ViewKind, ...ViewKind[]]);

/** The longest string param a view descriptor carries (a batch view's id list: about 1,000 ids). */
export const MAX_VIEW_PARAM_CHARS = 20_000;

/**
 * What a view shows, as the renderer knows it. `params` are the operation's
 * typed params without `cursor` (main checks them against the catalog); for
 * the batch views the id list may be longer than one call takes, main splits it.
 */
export const ViewDescriptor = z
  .object({
    kind: ViewKind,
    operation: OperationIdSchema,
    params: z.record(z.string(), z.union([z.string().max(MAX_VIEW_PARAM_CHARS), z.number(), z.boolean()])),
    /** shown in the manifest and used for the suggested file name */
    title: z.string().max(200).optional(),
    /** pages the view has loaded now (paged views); 0 or absent: the first page */
    loadedPages: z.number().int().min(0).max(100_000).optional(),
    /** items the view shows now (for the estimate) */
    loadedItems: z.number().int().min(0).optional(),
    /** the view reached the end of its list (nothing left to fetch) */
    reachedEnd: z.boolean().optional(),
    /** how many items the whole list has, when the view can tell (a post's replyCount, a user's statusesCount) */
    expectedItems: z.number().int().min(0).optional(),
    /** batch views: the ids come from this id import (kept by main), not from `params` — a hydration */
    idsFrom: ImportId.optional(),
    /** a hydration: fetch again the ids the project already holds (fresh counters); default: taken from it, free */
    refetchHeld: z.boolean().optional(),
  })
  .refine((v) => VIEW_OPERATIONS[v.kind] === v.operation, {
    message: 'operation does not match the view kind',
    path: ['operation'],
  })
  .refine((v) => v.idsFrom === undefined || v.kind === 'postsByIds' || v.kind === 'usersByIds', {
    message: 'only a batch lookup takes its ids from an id list',
    path: ['idsFrom'],
  });
export type ViewDescriptor = z.infer<typeof ViewDescriptor>;

/**
 * A format's id, as main's format registry (src/core/formats) lists it: `json`, `jsonl`, `csv`, `parquet`
 * (typed columns), `gexf` and `gephi-csv` (the view as a network), `ids` (dehydrated: an id list), and any
 * format registered beside them. Main refuses an id its registry does not know (`bad-input` on `format`).
 */
export const ExportFormat = z.string().regex(/^[a-z][a-z0-9-]{0,31}$/, 'a format id: lower-case letters, digits, -');
export type ExportFormat = z.infer<typeof ExportFormat>;

/**
 * The two CSVs: `spreadsheet` (UTF-8 BOM; numeric ids as `="…"` so Excel keeps
 * them as text) and `analysis` (no BOM, plain ids: pandas, R, DuckDB).
 */
export const CsvFlavour = z.enum(['spreadsheet', 'analysis']);
export type CsvFlavour = z.infer<typeof CsvFlavour>;

/**
 * The CSV's columns: Skein's own, twarc-csv's (dotted JSON paths, `__twarc.*` provenance) or 4CAT's import
 * columns (`id, thread_id, author, body, timestamp` and its X-item columns). Views of other kinds than posts
 * (and users, for twarc) always get Skein's own.
 */
export const CsvColumns = z.enum(['skein', 'twarc', '4cat']);
export type CsvColumns = z.infer<typeof CsvColumns>;

/** A dehydrated export's ids: the view's posts, or its users (a post view's authors). */
export const IdsOf = z.enum(['posts', 'users']);
export type IdsOf = z.infer<typeof IdsOf>;

/**
 * A GEXF network's version: `1.2draft` (the default: networkx and Gephi both read it) or `1.3` (Gephi's own
 * features: the edge `kind`, a time zone, timestamps; networkx cannot read it).
 */
export const GexfVersion = z.enum(['1.2draft', '1.3']);
export type GexfVersion = z.infer<typeof GexfVersion>;

/** How a file is written (CSV, id lists, GEXF; JSON and JSONL always keep one item per line). */
export const ExportOptions = z.object({
  idsOf: IdsOf.optional(),
  gexfVersion: GexfVersion.optional(),
  csvFlavour: CsvFlavour.optional(),
  csvColumns: CsvColumns.optional(),
  /** CSV: line breaks inside text cells written as the two characters `\n` (twarc's way): one physical line per row */
  oneLinePerRow: z.boolean().optional(),
  /**
   * Parquet: one file (a folder by collection date above a million items), or always a dataset folder
   * partitioned by the UTC date each item was collected (`collected_date=YYYY-MM-DD/`, Hive style)
   */
  parquetLayout: z.enum(['file', 'dataset']).optional(),
});
export type ExportOptions = z.infer<typeof ExportOptions>;

/** `loaded`: what the view holds now (served from main's store); `all`: every remaining page. */
export const ExportScope = z.enum(['loaded', 'all']);
export type ExportScope = z.infer<typeof ExportScope>;

/** Limits of a fetch-everything run, checked between pages. */
export const ExportCaps = z.object({
  maxPages: z.number().int().positive().optional(),
  maxItems: z.number().int().positive().optional(),
  maxCredits: z.number().positive().optional(),
});
export type ExportCaps = z.infer<typeof ExportCaps>;

export const ExportEstimate = z.object({
  paged: z.boolean(),
  /** pages still to fetch; null when the API gives no way to know */
  remainingPages: z.number().int().nullable(),
  /** calls the export will make (0 when everything comes from main's store) */
  calls: z.number().int().nullable(),
  credits: z.number().nullable(),
  /** the figures are lower bounds (the announced total counts only part of the walk) */
  atLeast: z.boolean().optional(),
  /** a hydration: ids of the list the current project already holds, taken from it at no cost */
  alreadyInProject: z.number().int().optional(),
  /**
   * where the true figures should lie (`calls` and `credits` are then the middle): a thread, whose post counts
   * only its direct replies, estimated from the pages of its conversation the project holds
   */
  range: z
    .object({
      calls: z.tuple([z.number().int(), z.number().int()]),
      credits: z.tuple([z.number(), z.number()]),
    })
    .optional(),
  /** how the numbers were worked out, in plain words */
  basis: z.string(),
});
export type ExportEstimate = z.infer<typeof ExportEstimate>;

const ExportStatus = z.enum([
  /** fetching pages */
  'collecting',
  /** writing the file(s) */
  'writing',
  /** written; the collection reached the end */
  'complete',
  /** written; the collection stopped early (cap, cancel, error, paging guard): see stopReason */
  'partial',
  /** stopped before anything was written */
  'cancelled',
  /** failed (nothing half-written at the target); see error */
  'failed',
  /** found on disk after a restart: Skein quit while it ran */
  'interrupted',
]);
type ExportStatus = z.infer<typeof ExportStatus>;

/** Why a collection is partial: a cap, the user, an error, a restart, the `loaded` scope, or a paging guard. */
export const StopReason = z.enum([
  'cap-pages',
  'cap-items',
  'cap-credits',
  'cancelled',
  'error',
  'interrupted',
  'loaded-only',
  ...PagingStopReason.options,
]);
export type StopReason = z.infer<typeof StopReason>;

const ExportProgress = z.object({
  pages: z.number().int(),
  items: z.number().int(),
  calls: z.number().int(),
  credits: z.number(),
  /** 0..1, or null when the total is unknown */
  fraction: z.number().min(0).max(1).nullable(),
  /** the service rate limited the job: it waits until then (epoch ms) and goes on by itself */
  waitingUntil: z.number().nullable().optional(),
});
type ExportProgress = z.infer<typeof ExportProgress>;

/** CSV text cells: `neutralised` (default) keeps spreadsheets from running them as formulas; `exact` for pandas and R */
export const CsvCells = z.enum(['neutralised', 'exact']);
export type CsvCells = z.infer<typeof CsvCells>;

export const ExportJob = z.object({
  id: z.string(),
  view: ViewDescriptor,
  format: ExportFormat,
  scope: ExportScope,
  caps: ExportCaps,
  /** absent in jobs saved before options existed: the defaults */
  options: ExportOptions.optional(),
  /** CSV only; absent: neutralised */
  csvCells: CsvCells.optional(),
  status: ExportStatus,
  progress: ExportProgress,
  stopReason: StopReason.nullable(),
  error: SkeinErrorData.nullable(),
  /** the file(s) written (or to be written), absolute paths chosen in main */
  files: z.array(z.string()),
  /** can continue from the last cursor */
  resumable: z.boolean(),
  startedAt: z.number(),
  finishedAt: z.number().nullable(),
  /** a view of posts: once written, main also keeps the media of its posts (photos, videos, GIFs) */
  keepMedia: z.boolean().optional(),
  /** once written: the project's collection of its items (absent until then, or when it could not be made) */
  collection: z.number().int().positive().optional(),
  /** the keeping of that collection's media main started (`media.job` follows it) */
  mediaJob: z.string().max(64).optional(),
  /**
   * the file is written, but the project could not keep it as a collection (its server away, rights taken): why,
   * and the collection it had begun; `export.record` tries again, from the job's saved items, at no cost
   */
  unrecorded: z
    .object({
      error: SkeinErrorData,
      collection: z.number().int().positive().optional(),
      /** the project it goes into: its items are there, and the collection it began */
      project: z.object({ id: z.string().max(200), name: z.string().max(500) }).optional(),
    })
    .optional(),
});
export type ExportJob = z.infer<typeof ExportJob>;

export const ExportStartInput = z
  .object({
    view: ViewDescriptor,
    format: ExportFormat,
    scope: ExportScope,
    caps: ExportCaps.optional(),
    options: ExportOptions.optional(),
    csvCells: CsvCells.optional(),
    /** also keep the media of the posts once the file is written (a view of posts only) */
    keepMedia: z.boolean().optional(),
  })
  .refine((s) => s.keepMedia !== true || OPERATIONS[s.view.operation].itemKind === 'post', {
    message: 'Only the media of posts can be kept: this view does not list posts.',
    path: ['keepMedia'],
  });
export type ExportStartInput = z.infer<typeof ExportStartInput>;

const JobRef = z.object({ jobId: z.string().min(1).max(100) });

/**
 * An export's saved progress this Skein cannot read: a newer Skein's (after going back to an older one), or a
 * damaged record. Its folder is kept as it is (its journal holds pages paid for): never resumed, written over or
 * discarded here.
 */
export const UnreadExport = z.object({
  /** its folder's name */
  id: z.string().max(255),
  /** the file it writes, where that can still be read */
  file: z.string().max(4096).nullable(),
  startedAt: z.number().nullable(),
});
export type UnreadExport = z.infer<typeof UnreadExport>;

const ItemKinds = z.array(
  z.enum(['post', 'user', 'trend', 'listFollower', 'community', 'space', 'article'] as const satisfies ItemKind[]),
);

/** What a format's dialog control sets: one of the export's options, or `csvCells`. */
export const ControlKey = z.enum(['csvCells', 'csvFlavour', 'csvColumns', 'oneLinePerRow', 'idsOf']);
export type ControlKey = z.infer<typeof ControlKey>;
const ControlValue = z.union([z.string(), z.boolean()]);

/**
 * An option control an offer shows under it, as data: a checkbox that sets `key` to `on` when checked (to `off`
 * when not; no `off`: the key is left out), or a select of `choices` (each for the item kinds it names; shown
 * when more than one applies to the view, its first applicable choice chosen at first).
 */
export const FormatControl = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('toggle'),
    key: ControlKey,
    label: z.string(),
    /** said after the label, muted */
    note: z.string().optional(),
    on: ControlValue,
    off: ControlValue.optional(),
  }),
  z.object({
    type: z.literal('select'),
    key: ControlKey,
    label: z.string(),
    choices: z.array(z.object({ value: z.string(), label: z.string(), kinds: ItemKinds.optional() })).min(1),
  }),
]);
export type FormatControl = z.infer<typeof FormatControl>;

/**
 * One choice of the export dialog (and of the Archive view's export), from main's format registry: a format
 * with its options preset (the CSV for spreadsheets and for analysis are two offers of one format), the item
 * kinds it is offered for, and the controls it shows.
 */
export const FormatOffer = z.object({
  /** unique among the offers: `csv-spreadsheet` */
  id: z.string(),
  format: ExportFormat,
  label: z.string(),
  hint: z.string(),
  /** the options this offer starts with (the controls' values are added to them) */
  options: ExportOptions,
  /** the views' item kinds it is offered for; absent: every view */
  kinds: ItemKinds.optional(),
  /** offered in the Archive view for these kinds of item (`first`: listed first, the default there); absent: not offered there */
  archive: z.object({ kinds: z.array(z.enum(['post', 'user'])), first: z.boolean().optional() }).optional(),
  /** offered by a hydration's dialog (the items an id list read back, for analysis); absent: not offered there */
  hydration: z.boolean().optional(),
  controls: z.array(FormatControl),
});
export type FormatOffer = z.infer<typeof FormatOffer>;

export const exportContract = {
  export: {
    estimate: fn(z.object({ view: ViewDescriptor, scope: ExportScope }), ExportEstimate),
    /** opens the save dialog in main; `job` is null when the user closed it */
    start: fn(ExportStartInput, z.object({ job: ExportJob.nullable() })),
    status: fn(JobRef, ExportJob),
    /** every job Skein remembers (running, or resumable from an earlier run) */
    list: fn(z.undefined(), z.array(ExportJob)),
    /** the saved exports this Skein cannot read, and the folder that keeps them */
    unread: fn(z.undefined(), z.object({ folder: z.string(), jobs: z.array(UnreadExport) })),
    cancel: fn(JobRef, ExportJob),
    /** continues from the last cursor; `caps` replace the earlier ones (none: to the end) */
    resume: fn(JobRef.extend({ caps: ExportCaps.optional() }), ExportJob),
    /** keeps a written export as the project's collection again, once it could not (`unrecorded`); no call is made */
    record: fn(JobRef, ExportJob),
    /** forgets a job and its saved progress (never deletes written exports) */
    discard: fn(JobRef, z.object({ discarded: z.boolean() })),
    /** the formats main can write, as the dialogs offer them, in the registry's order */
    formats: fn(z.undefined(), z.array(FormatOffer)),
  },
};
