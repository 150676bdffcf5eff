/**
 * The archive's bridge contract (the store of record on disk): the current research project, and offline search,
 * activity and provenance over everything it holds. No function here makes an API call, and no
 * input names a file path: project files are chosen in main's own dialogs or from main's list.
 */
import { z } from 'zod';
import { fn } from './define';
import { ExportFormat, ExportOptions } from './export';

/** Who recorded answers into a project: a name per Skein (null: answers recorded before names were asked). */
export const ResearcherActivity = z.object({
  name: z.string().nullable(),
  answers: z.number().int(),
  /** epoch ms of their latest answer */
  lastAt: z.number(),
});
export type ResearcherActivity = z.infer<typeof ResearcherActivity>;

/** Where a project lives: a SQLite file (one person), or a schema of a team's PostgreSQL database. */
const ProjectStoreKind = z.enum(['sqlite', 'postgres']);

/**
 * What the archive met when no call waited for it, in plain words: answers a team's server could not take (kept,
 * written once it can, or given up), and the project's upkeep that failed. Main pushes each as it happens.
 */
export const ArchiveNotice = z.object({ text: z.string().max(2_000), at: z.number() });
export type ArchiveNotice = z.infer<typeof ArchiveNotice>;

export const ProjectInfo = z.object({
  /** main's handle for the project (the page never sees or names a path or a password) */
  id: z.string(),
  name: z.string(),
  /** where it lives, for the user to read: a file's path, or the server, database and schema (no password) */
  location: z.string(),
  store: ProjectStoreKind,
  /** a PostgreSQL project's connection: TLS with the server's certificate checked, TLS unchecked, or none */
  tls: z.enum(['verified', 'unverified', 'off']).nullable(),
  kind: z.enum(['live', 'demo']),
  items: z.number().int(),
  requests: z.number().int(),
  /** who recorded answers into it, latest first */
  researchers: z.array(ResearcherActivity),
  /** why this Skein may not write to it, in plain words (read rights only); null: it may */
  readOnly: z.string().nullable(),
});
export type ProjectInfo = z.infer<typeof ProjectInfo>;

export const ProjectsState = z.object({
  /** the project live answers go to */
  current: ProjectInfo.nullable(),
  /** demo answers go here, never to a live project */
  demo: ProjectInfo.nullable(),
  /** projects Skein knows of, to switch to */
  known: z.array(z.object({ id: z.string(), name: z.string(), location: z.string(), store: ProjectStoreKind })),
  /** a project that could not be opened, in plain words */
  problem: z.string().nullable(),
  /** the name this Skein records with every answer it collects (a team project says who collected what) */
  researcher: z.string(),
});
export type ProjectsState = z.infer<typeof ProjectsState>;

const ProjectName = z.string().trim().min(1).max(120);
const ResearcherName = z.string().trim().min(1).max(80);

/** A PostgreSQL schema Skein keeps a project in: a plain lower-case name, never quoted SQL. */
const SchemaName = z
  .string()
  .trim()
  .regex(/^[a-z_][a-z0-9_]{0,62}$/, 'lower-case letters, digits and _, starting with a letter or _ (at most 63)');

/** How a team project is reached: the connection string as PostgreSQL's own tools take it, and the schema. */
export const ConnectInput = z.object({
  /** `postgresql://user@host:5432/database?sslmode=verify-full`; a password in it is taken out and kept by main */
  connection: z.string().trim().min(1).max(2000),
  /** the password, when not in the connection string; main keeps it in the OS key store, never the page */
  password: z.string().max(1000).optional(),
  schema: SchemaName.default('skein'),
  /** who this Skein records as collecting (stored for every project) */
  researcher: ResearcherName,
  /** the new project's name, if its schema holds none yet */
  name: ProjectName.optional(),
  /** move the current project there: connect, copy it in (every count checked), then work there, in one */
  move: z.boolean().optional(),
});
export type ConnectInput = z.input<typeof ConnectInput>;

/** A project's copy into another: every table counted in both, the copy kept only when they match. */
export const CopyResult = z.object({
  /** the project copied into (it becomes known; current only when the copy was a move) */
  to: z.object({ id: z.string(), name: z.string(), location: z.string(), store: ProjectStoreKind }),
  tables: z.array(z.object({ name: z.string(), source: z.number().int(), copied: z.number().int() })),
  tookMs: z.number(),
});
export type CopyResult = z.infer<typeof CopyResult>;

/**
 * What each table a project's copy carries holds, in plain words, for the copy's report. Every table of the archive
 * and of every part the project hosts has an entry (a test in core/compose checks it against the tables themselves).
 */
export const COPY_TABLE_WORDS: Readonly<Record<string, string>> = Object.freeze({
  meta: 'project facts',
  items: 'posts and people',
  item_versions: 'earlier versions of posts and people',
  requests: 'answers from the API',
  request_items: 'posts and people in each answer',
  collections: 'collections',
  collection_items: 'posts and people in collections',
  activity_counts: 'posts and people counted per quarter hour',
  watches: 'watches',
  watch_runs: 'watch runs',
  watch_gaps: 'gaps in what watches saw',
  watch_presence: 'posts’ and people’s presence at each watch run',
  watch_counters: 'counts recorded by watches over time',
  media_files: 'kept media files',
  media_fetches: 'media downloads tried',
  media_timestamps: 'trusted timestamps of kept media',
  codebooks: 'codebooks',
  codebook_versions: 'codebook versions',
  coders: 'coders',
  codings: 'codes given',
  adjudications: 'decisions between coders',
  samples: 'samples',
  sample_items: 'posts in samples',
  assignments: 'posts assigned to coders',
  opt_outs: 'people who opted out',
  coder_switches: 'switches between coders',
  page_captures: 'linked pages captured',
  page_links: 'links from posts to pages',
  page_saves: 'linked pages sent to a web archive',
  page_waczs: 'web archive files of captured pages',
  page_timestamps: 'trusted timestamps of captured pages',
});

const ArchiveKind = z.enum(['post', 'user']);
export type ArchiveKind = z.infer<typeof ArchiveKind>;
const ArchiveSort = z.enum(['time', 'engagement']);
const Tri = z.boolean().optional();

export const ArchiveQuery = z.object({
  /** which project: the one live answers go to, or the demo one */
  project: z.enum(['current', 'demo']).default('current'),
  text: z.string().max(500).default(''),
  kind: ArchiveKind.default('post'),
  /** created at, epoch ms, inclusive from / exclusive to */
  from: z.number().int().optional(),
  to: z.number().int().optional(),
  author: z.string().max(64).optional(),
  lang: z.string().max(16).optional(),
  collection: z.number().int().positive().optional(),
  media: Tri,
  reply: Tri,
  quote: Tri,
  retweet: Tri,
  sort: ArchiveSort.default('time'),
});
export type ArchiveQuery = z.input<typeof ArchiveQuery>;
export type ArchiveQueryParsed = z.output<typeof ArchiveQuery>;

const ArchiveSearchInput = ArchiveQuery.extend({
  offset: z.number().int().min(0).max(1_000_000).default(0),
  limit: z.number().int().min(1).max(200).default(50),
});
export type ArchiveSearchInput = z.input<typeof ArchiveSearchInput>;

export const ArchiveHit = z.object({
  kind: ArchiveKind,
  id: z.string(),
  /** the canonical item read again from the raw JSON kept (posts as cards) */
  item: z.unknown(),
  firstSeen: z.number(),
  lastSeen: z.number(),
  /** how many answers returned it */
  requests: z.number().int(),
  /** its kept JSON could not be read (damaged in the project): `item` is null, its provenance still shown */
  unread: z.literal(true).optional(),
});
export type ArchiveHit = z.infer<typeof ArchiveHit>;

export const ArchiveSearchResult = z.object({
  hits: z.array(ArchiveHit),
  nextOffset: z.number().int().nullable(),
  tookMs: z.number(),
});
export type ArchiveSearchResult = z.infer<typeof ArchiveSearchResult>;

export const ActivityBucket = z.enum(['hour', 'day', 'week']);
export type ActivityBucket = z.infer<typeof ActivityBucket>;
export const ArchiveActivityInput = ArchiveQuery.extend({
  bucket: ActivityBucket.default('day'),
  /** minutes east of UTC to bucket in (0: UTC; the renderer passes its own for local time) */
  utcOffsetMinutes: z.number().int().min(-840).max(840).default(0),
});
export type ArchiveActivityInput = z.input<typeof ArchiveActivityInput>;
export const ArchiveActivity = z.object({
  /** bucket starts (epoch ms, UTC instants) and counts, zero-filled, oldest first; capped at 2,000 buckets */
  buckets: z.array(z.object({ start: z.number(), count: z.number().int() })),
  total: z.number().int(),
  /** posts whose creation time is missing or implausible (before 2006 or in the future) */
  undated: z.number().int(),
  truncated: z.boolean(),
});
export type ArchiveActivity = z.infer<typeof ArchiveActivity>;

const ProvenanceRequest = z.object({
  operation: z.string(),
  params: z.string(),
  cursor: z.string().nullable(),
  pageIndex: z.number().int(),
  at: z.number(),
  baseUrl: z.string(),
  /** who collected it (null: recorded before names were asked) */
  researcher: z.string().nullable(),
});
export const ArchiveProvenance = z.object({
  firstSeen: z.number(),
  lastSeen: z.number(),
  versions: z.array(z.object({ seenFrom: z.number(), seenTo: z.number() })),
  requests: z.array(ProvenanceRequest),
});
export type ArchiveProvenance = z.infer<typeof ArchiveProvenance>;

export const ArchiveCollection = z.object({
  id: z.number().int(),
  name: z.string(),
  kind: z.string(),
  createdAt: z.number(),
  items: z.number().int(),
  /** who made it (null: made before names were asked) */
  researcher: z.string().nullable(),
});
export type ArchiveCollection = z.infer<typeof ArchiveCollection>;

/**
 * Any format of main's registry (data, a network, ids only), with the options of the offer chosen
 * (`export.formats`) beside the query: `csvFlavour`, `idsOf` (post ids, or user ids: a post's author), ….
 */
const ArchiveExportInput = ArchiveQuery.extend({
  format: ExportFormat,
  ...ExportOptions.shape,
  /** what is exported, for the manifest and the file name: a collection, a search, the whole project */
  title: z.string().max(200).optional(),
});
export type ArchiveExportInput = z.input<typeof ArchiveExportInput>;
const ArchiveExportResult = z
  .object({
    file: z.string(),
    items: z.number().int(),
    /** items of the query left out because their kept JSON no longer reads (damaged in the project), named in the manifest */
    damaged: z.number().int().nonnegative().optional(),
  })
  .nullable();

/**
 * What a view's script is written in: Python (pandas), R (DBI) or plain SQL, over the project's own store; or
 * DuckDB's SQL over a Parquet copy of the project, which main makes beside the project when it is asked for.
 */
export const SnippetLanguage = z.enum(['python', 'r', 'sql', 'duckdb']);
export type SnippetLanguage = z.infer<typeof SnippetLanguage>;

export const ArchiveSnippet = z.object({
  language: SnippetLanguage,
  /** the script: a header comment (project, view, date), the connection (never a password), the view's SELECT */
  text: z.string(),
  /** the name a person would save it under */
  fileName: z.string(),
  /** what to know before running it, in plain words (a password to set, a reader too old for words); null: none */
  note: z.string().nullable(),
});
export type ArchiveSnippet = z.infer<typeof ArchiveSnippet>;

export const archiveContract = {
  projects: {
    state: fn(z.undefined(), ProjectsState),
    /** asks where in main's save dialog; the new project becomes current */
    create: fn(z.object({ name: ProjectName }), ProjectsState),
    /** opens a project file the user picks in main's dialog */
    open: fn(z.undefined(), ProjectsState),
    rename: fn(z.object({ name: ProjectName }), ProjectsState),
    /** one of `known`, by main's id */
    switch: fn(z.object({ id: z.string().max(64) }), ProjectsState),
    /** a team project: a schema of a PostgreSQL database (made on first use); it becomes current */
    connect: fn(ConnectInput, ProjectsState),
    /** the name recorded with every answer this Skein collects */
    researcher: fn(z.object({ name: ResearcherName }), ProjectsState),
    /**
     * Copies the current project into another that holds nothing yet: a new project file (main's save dialog) or
     * a known project (a team's schema); every table's rows counted in both. Null when the dialog was closed.
     * `move`: once every count matches, the copy becomes the current project (copy, check, switch in one).
     */
    copy: fn(
      z.object({
        to: z.union([z.object({ file: z.literal(true) }), z.object({ id: z.string().max(64) })]),
        move: z.boolean().optional(),
      }),
      CopyResult.nullable(),
    ),
  },
  archive: {
    search: fn(ArchiveSearchInput, ArchiveSearchResult),
    activity: fn(ArchiveActivityInput, ArchiveActivity),
    provenance: fn(
      z.object({ project: z.enum(['current', 'demo']).default('current'), kind: ArchiveKind, id: z.string().max(32) }),
      ArchiveProvenance.nullable(),
    ),
    collections: fn(z.object({ project: z.enum(['current', 'demo']).default('current') }), z.array(ArchiveCollection)),
    /** keeps a search as a collection of the items it finds now (newest first), to filter on, export or code */
    saveSearch: fn(ArchiveQuery.extend({ name: z.string().trim().min(1).max(120) }), ArchiveCollection),
    /** a saved search takes in what its search finds now and it lacks, after what it holds; no API call */
    refreshSearch: fn(
      z.object({ project: z.enum(['current', 'demo']).default('current'), collection: z.number().int().positive() }),
      z.object({ added: z.number().int(), collection: ArchiveCollection }),
    ),
    /** a script that reads the view's rows from the project itself (Python, R or SQL); nothing is copied by main */
    snippet: fn(ArchiveQuery.extend({ language: SnippetLanguage }), ArchiveSnippet),
    /** writes the query's items (a collection in order, a search, or everything) to a file main asks for; no API call */
    export: fn(ArchiveExportInput, ArchiveExportResult),
  },
};
