/**
 * A job's caps: in words, whether new caps let it go further (which a resume must confirm in main), and how
 * far a run has come toward them (or toward what the view expects).
 */
import type { ExportCaps, ExportJob } from '../../shared/ipc/export';
import type { CollectionState } from './collector';
import type { ViewPlan } from './views';

/** caps that let a run go further than `before` did (a cap dropped or raised), or none at all */
export function loosens(before: ExportCaps, after: ExportCaps): boolean {
  if (after.maxPages === undefined && after.maxItems === undefined && after.maxCredits === undefined) return true;
  const keys = ['maxPages', 'maxItems', 'maxCredits'] as const;
  return keys.some((k) => before[k] !== undefined && (after[k] === undefined || (after[k] ?? 0) > (before[k] ?? 0)));
}

/** the caps as a person reads them, e.g. "at most 50 pages, at most 1000 credits" */
export function describeCaps(caps: ExportCaps): string {
  const parts = [
    caps.maxPages !== undefined ? `at most ${caps.maxPages} pages` : null,
    caps.maxItems !== undefined ? `at most ${caps.maxItems} items` : null,
    caps.maxCredits !== undefined ? `at most ${caps.maxCredits} credits` : null,
  ].filter((p): p is string => p !== null);
  return parts.length > 0 ? parts.join(', ') : 'no limit';
}

/** the share of the job done, by the nearest of its caps and the view's expected size; null when unknown */
export function progressFraction(job: ExportJob, plan: ViewPlan, state: CollectionState): number | null {
  if (!plan.paged) return plan.requestCount ? Math.min(1, state.pages.length / plan.requestCount) : null;
  if (job.scope === 'loaded') return Math.min(1, state.pages.length / Math.max(1, job.view.loadedPages ?? 1));
  const cap = job.caps.maxPages ? state.pages.length / job.caps.maxPages : 0;
  const capItems = job.caps.maxItems ? state.items / job.caps.maxItems : 0;
  const expected = job.view.expectedItems ? state.items / job.view.expectedItems : 0;
  const f = Math.max(cap, capItems, expected);
  return f > 0 ? Math.min(1, f) : null;
}
