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
});
export type PagesEstimate = z.infer<typeof PagesEstimate>;

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
});
export type PagesJob = z.infer<typeof PagesJob>;

export const pagesContract = {
  pages: {
    estimate: fn(Collection, PagesEstimate),
    /** starts capturing a collection's linked pages (one job per collection at once) */
    capture: fn(Collection, PagesJob),
    job: fn(z.object({ id: z.string().min(1).max(64) }), PagesJob.nullable()),
    cancel: fn(z.object({ id: z.string().min(1).max(64) }), z.object({ cancelled: z.boolean() })),
  },
};
