/**
 * The `pages` namespace of the bridge: keeping the web pages a collection's posts link to, as WARC records in a
 * WACZ in the project's pages folder, with a count first, then a job to follow (polled: its progress, a
 * cancel), and how it ended: captured, failed with reasons, and where the WACZ is.
 */
import { z } from 'zod';
import { fn } from './define';

const Collection = z.object({ collection: z.number().int().positive() });

export const PagesEstimate = z.object({
  /** distinct linked pages not captured yet */
  urls: z.number().int(),
  alreadyCaptured: z.number().int(),
  /** posts of the collection that link to a page */
  posts: z.number().int(),
  /** when the web archive save service is on: the pages not saved there yet, and the seconds between requests */
  save: z.object({ urls: z.number().int(), paceSeconds: z.number() }).nullable(),
  /** posts of the collection kept damaged in the project: their links cannot be read, so are not counted (absent: none) */
  damagedPosts: z.number().int().positive().optional(),
});
export type PagesEstimate = z.infer<typeof PagesEstimate>;

/** a run's sending of the linked pages to a web archive's save service */
const PagesSaveProgress = z.object({
  /** URLs to send this time (those saved before are not sent again) */
  total: z.number().int(),
  done: z.number().int(),
  saved: z.number().int(),
  failed: z.number().int(),
  /** failures by reason: refused, rate-limited, timed-out, failed */
  reasons: z.record(z.string(), z.number().int()),
  alreadySaved: z.number().int(),
});
export type PagesSaveProgress = z.infer<typeof PagesSaveProgress>;

/** a capture run's trusted time: the authority that granted a token over its WACZ's manifest, or why there is none */
export const PagesTimestamp = z.object({
  /** the authority's address, its time and the token's serial; null when no token was kept */
  authority: z.string().max(2048).nullable(),
  genTime: z.number().nullable(),
  serial: z.string().max(200).nullable(),
  /** why no token was kept, in plain words */
  reason: z.string().max(4000).nullable(),
});
export type PagesTimestamp = z.infer<typeof PagesTimestamp>;

export const PagesJob = z.object({
  id: z.string(),
  collection: z.number().int(),
  state: z.enum(['running', 'done', 'cancelled', 'failed']),
  total: z.number().int(),
  done: z.number().int(),
  captured: z.number().int(),
  /** bytes of the pages captured this time */
  bytes: z.number(),
  failed: z.number().int(),
  /** failures by reason: gone, refused, too-large, timed-out, wrong-type, failed */
  reasons: z.record(z.string(), z.number().int()),
  alreadyCaptured: z.number().int(),
  /** the WACZ this capture wrote (its path on this computer), or null when it captured nothing */
  wacz: z.string().max(4096).nullable(),
  /** the project's pages folder, once known */
  folder: z.string().max(4096).nullable(),
  /** why the job failed, in plain words */
  message: z.string().nullable(),
  /** the save service's part of the run, when the service is on */
  save: PagesSaveProgress.nullable(),
  /** the trusted time of the WACZ the run wrote; null while running, or when it wrote none */
  timestamp: PagesTimestamp.nullable(),
});
export type PagesJob = z.infer<typeof PagesJob>;

/** One linked URL of a collection that was tried: kept or why not, and what a save service answered for it. */
export const PageListRow = z.object({
  url: z.string().max(8192),
  state: z.enum(['captured', 'failed']),
  at: z.number(),
  reason: z.string().max(64).nullable(),
  message: z.string().max(2000).nullable(),
  save: z
    .object({
      state: z.enum(['saved', 'failed']),
      at: z.number(),
      /** the capture's address at the web archive (never fetched by Skein) */
      captureUrl: z.string().max(8192).nullable(),
      reason: z.string().max(64).nullable(),
      message: z.string().max(2000).nullable(),
    })
    .nullable(),
});
export type PageListRow = z.infer<typeof PageListRow>;

/** A file of captured pages (WACZ) that is no longer as it was written, in plain words. */
export const WaczProblem = z.object({
  /** its name in the project's pages folder */
  name: z.string().max(512),
  /** changed: its bytes are not what was written; missing: it is gone from the folder */
  state: z.enum(['changed', 'missing']),
  /** the SHA-256 recorded when it was written (null: written before Skein recorded one) */
  expected: z.string().nullable(),
  /** what its bytes hash to now (null: missing, or not hashed whole because no hash was recorded) */
  found: z.string().nullable(),
  /** what is wrong, in plain words */
  problem: z.string().max(2000),
  /** the captured pages it holds, and the first 20 of their addresses */
  pages: z.number().int(),
  urls: z.array(z.string().max(8192)).max(20),
});
export type WaczProblem = z.infer<typeof WaczProblem>;

/** every file of captured pages (WACZ) of the project re-hashed from its pages folder (nothing fetched) */
export const PagesCheck = z.object({
  checked: z.number().int(),
  matched: z.number().int(),
  /**
   * of those checked, the files written before Skein recorded a file's hash: each checked against the hashes
   * listed inside it instead (its archived pages, index and page list)
   */
  unrecorded: z.number().int(),
  /** the files that changed or went missing (the first 500; `checked - matched` says how many in all) */
  problems: z.array(WaczProblem).max(500),
  /** the capture runs' timestamp tokens checked, and those that no longer prove their WACZ (the first 500) */
  tokens: z.number().int(),
  tokenProblems: z
    .array(
      z.object({
        /** the manifest's and the token's paths inside the pages folder */
        manifest: z.string().max(4096),
        token: z.string().max(4096),
        authority: z.string().max(2048),
        genTime: z.number(),
        /** what is wrong, in plain words */
        problem: z.string().max(2000),
      }),
    )
    .max(500),
  /** the project's pages folder */
  folder: z.string().max(4096),
});
export type PagesCheck = z.infer<typeof PagesCheck>;

/** the most URLs a collection's list shows */
export const PAGE_LIST_MAX = 2000;

export const pagesContract = {
  pages: {
    estimate: fn(Collection, PagesEstimate),
    /** starts capturing a collection's linked pages (one job per collection at once) */
    capture: fn(Collection, PagesJob),
    job: fn(z.object({ id: z.string().min(1).max(64) }), PagesJob.nullable()),
    /** each linked URL of a collection that was tried, with its outcome and its save (the first PAGE_LIST_MAX) */
    list: fn(Collection, z.array(PageListRow).max(PAGE_LIST_MAX)),
    cancel: fn(z.object({ id: z.string().min(1).max(64) }), z.object({ cancelled: z.boolean() })),
  },
};
