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
