/**
 * The `media` namespace of the bridge: keeping the photos and videos of a collection's posts in the project,
 * with an estimate first, then a job to follow (polled: its progress, a cancel), and the files kept.
 */
import { z } from 'zod';
import { fn } from './define';
import { ExportScope, ViewDescriptor } from './export';
import { PagesCheck } from './pages';

const Collection = z.object({ collection: z.number().int().positive() });

export const MediaEstimate = z.object({
  /** files to fetch (not kept yet) */
  files: z.number().int(),
  alreadyKept: z.number().int(),
  /** bytes the posts give (a video's bitrate × duration) */
  knownBytes: z.number(),
  /** bytes guessed for `guessedFiles` files whose size the posts do not give */
  guessedBytes: z.number(),
  guessedFiles: z.number().int(),
  seconds: z.number(),
  /** posts of the collection kept damaged in the project: their media cannot be read, so are not counted (absent: none) */
  damagedPosts: z.number().int().positive().optional(),
});
export type MediaEstimate = z.infer<typeof MediaEstimate>;

/** a keeping run's trusted time: the authority that granted a token over its manifest, or why there is none */
export const MediaTimestamp = z.object({
  /** files its manifest names */
  files: z.number().int(),
  /** the authority's address, its time and the token's serial; null when no token was kept */
  authority: z.string().max(2048).nullable(),
  genTime: z.number().nullable(),
  serial: z.string().max(200).nullable(),
  /** why no token was kept, in plain words */
  reason: z.string().max(4000).nullable(),
});
export type MediaTimestamp = z.infer<typeof MediaTimestamp>;

export const MediaJob = z.object({
  id: z.string(),
  collection: z.number().int(),
  state: z.enum(['running', 'done', 'cancelled', 'failed']),
  total: z.number().int(),
  done: z.number().int(),
  kept: z.number().int(),
  /** bytes new to the project's media folder */
  storedBytes: z.number(),
  failed: z.number().int(),
  /** failures by reason: gone, refused, too-large, timed-out, wrong-type, failed */
  reasons: z.record(z.string(), z.number().int()),
  alreadyKept: z.number().int(),
  /** why the job failed, in plain words */
  message: z.string().nullable(),
  /** the finished run's trusted time; null while running, or when the run kept nothing */
  timestamp: MediaTimestamp.nullable(),
  /** what it would take, worked out as it started (a keeping nobody saw an estimate for: an export's) */
  estimate: MediaEstimate.optional(),
});
export type MediaJob = z.infer<typeof MediaJob>;

const KeptMediaFile = z.object({
  postId: z.string(),
  url: z.string(),
  sha256: z.string(),
  size: z.number(),
  mime: z.string(),
  keptAt: z.number(),
});
export type KeptMediaFile = z.infer<typeof KeptMediaFile>;

/** a kept file for the viewer: its bytes (base64, up to 8 MB) read from the project's folder, not the network */
const KeptMediaBytes = z.object({
  sha256: z.string(),
  mime: z.string(),
  keptAt: z.number(),
  /** null when the file is missing or too large to show here */
  base64: z.string().max(12_000_000).nullable(),
  /** whether the bytes still hash to what was kept */
  intact: z.boolean(),
});
export type KeptMediaBytes = z.infer<typeof KeptMediaBytes>;

/** a kept file that no longer matches: changed (`found` is what its bytes hash to now) or missing (`found` null) */
const MediaMismatch = z.object({
  name: z.string(),
  /** the SHA-256 recorded when it was kept */
  expected: z.string(),
  found: z.string().nullable(),
  size: z.number(),
  keptAt: z.number(),
  /** the posts it was kept for (the first 20) */
  uses: z.array(z.object({ postId: z.string(), mediaKey: z.string(), url: z.string() })).max(20),
});
export type MediaMismatch = z.infer<typeof MediaMismatch>;

/** every kept file of the project re-hashed from its media folder (nothing fetched) */
export const MediaCheck = z.object({
  checked: z.number().int(),
  /** the size of the files checked, as kept */
  bytes: z.number(),
  matched: z.number().int(),
  /** the files that no longer match (the first 500; `checked - matched` says how many in all) */
  mismatches: z.array(MediaMismatch).max(500),
  /** timestamp tokens checked, and those that no longer prove their manifest (the first 500) */
  tokens: z.number().int(),
  tokenProblems: z
    .array(
      z.object({
        manifest: z.string(),
        authority: z.string(),
        genTime: z.number(),
        /** what is wrong, in plain words */
        problem: z.string(),
      }),
    )
    .max(500),
  /** the project's files of captured pages (WACZ), re-hashed the same way */
  pages: PagesCheck,
});
export type MediaCheck = z.infer<typeof MediaCheck>;

/** a check under way, polled like a keeping: how far it is, then its result */
export const MediaCheckJob = z.object({
  id: z.string(),
  state: z.enum(['running', 'done', 'failed']),
  checked: z.number().int(),
  total: z.number().int(),
  result: MediaCheck.nullable(),
  /** why the check failed, in plain words */
  message: z.string().nullable(),
});
export type MediaCheckJob = z.infer<typeof MediaCheckJob>;

/** An evidence package written: where, what it holds, and its manifest's trusted time (or why there is none). */
export const EvidencePackage = z.object({
  path: z.string(),
  posts: z.number().int(),
  /** the collection's posts left out because their kept copy in the project is damaged (named in the manifest) */
  damaged: z.number().int(),
  /** the posts' media in the manifest, kept or not */
  media: z.number().int(),
  files: z.number().int(),
  bytes: z.number(),
  /** kept files left out because their bytes no longer match their hash */
  changed: z.number().int(),
  tokens: z.number().int(),
  /** distinct pages the posts link to, and those whose captures are in the package */
  pages: z.number().int(),
  pagesCaptured: z.number().int(),
  manifestToken: z.object({ authority: z.string(), genTime: z.number() }).nullable(),
  manifestTokenReason: z.string().nullable(),
});
export type EvidencePackage = z.infer<typeof EvidencePackage>;

/** the media an export of a view would keep, worked out before it starts from the posts the view has loaded */
export const ViewMediaEstimate = MediaEstimate.extend({
  /** the posts the estimate read (those the view has loaded now) */
  posts: z.number().int(),
  /** only part of what the export takes: it fetches more pages, whose media are counted once they are fetched */
  partial: z.boolean(),
});
export type ViewMediaEstimate = z.infer<typeof ViewMediaEstimate>;

export const mediaContract = {
  media: {
    estimate: fn(Collection, MediaEstimate),
    /** what keeping the media of an export of this view would take, before the export starts */
    estimateView: fn(z.object({ view: ViewDescriptor, scope: ExportScope }), ViewMediaEstimate),
    /** starts keeping a collection's media (one job per collection at once) */
    keep: fn(Collection, MediaJob),
    job: fn(z.object({ id: z.string().min(1).max(64) }), MediaJob.nullable()),
    cancel: fn(z.object({ id: z.string().min(1).max(64) }), z.object({ cancelled: z.boolean() })),
    /** the files kept for a collection's posts (its first 500 posts) */
    kept: fn(Collection, z.array(KeptMediaFile).max(5_000)),
    file: fn(z.object({ sha256: z.string().regex(/^[0-9a-f]{64}$/) }), KeptMediaBytes.nullable()),
    /** starts re-hashing every file the project kept (or joins the check under way) */
    verify: fn(z.undefined(), MediaCheckJob),
    /** a check's progress, then which files changed or went missing */
    verifyJob: fn(z.object({ id: z.string().min(1).max(64) }), MediaCheckJob.nullable()),
    /** asks where (main's save dialog), then writes the collection's evidence package there; null: not saved */
    evidence: fn(Collection, EvidencePackage.nullable()),
  },
};
