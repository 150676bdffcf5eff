/** A job's caps in words, and whether new caps let it go further (which a resume must confirm in main). */
import type { ExportCaps } from '../../../shared/ipc/export';

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
