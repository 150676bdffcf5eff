/**
 * The paging guards of api-field-notes.md, pure: the API client applies them per view (in memory), the export's
 * collector per request (from its journal, so they hold across a resume).
 */
import type { PagingStopReason } from '../ipc/api';

/** The one table of what a paging guard says when it stops (the client's answers, the export's manifest). */
export const PAGING_STOP_MESSAGES: Record<PagingStopReason, string> = {
  'repeated-cursor': 'Paging stopped: the service gave a cursor it had already given, which would loop.',
  'missing-cursor': 'Paging stopped: the service said there are more pages but gave no cursor to reach them.',
  'empty-pages': 'Paging stopped: two pages in a row brought nothing new.',
};

export type PagingStop = { reason: PagingStopReason; message: string };

/** One page's paging answer, and what the caller knows of the pages before it in the same walk. */
export interface GuardFacts {
  /** the cursor the page was asked with; null for a first page */
  cursor: string | null;
  hasNextPage: boolean;
  /** '' (or null) when the service gave none */
  nextCursor: string | null;
  /** the page brought nothing (the caller says what counts: new ids, or items at all) */
  broughtNothing: boolean;
  /** another page of this walk was asked with `nextCursor`, or gave it already */
  cursorSeenBefore: boolean;
  /** the page this one followed brought nothing too, and promised more */
  previousBroughtNothing: boolean;
}

/**
 * The paging guards of api-field-notes.md, used by the client (per view, in memory) and by the export's
 * collector (per request, from its journal, so they hold across a resume): stop on `has_next_page` without a
 * cursor, on a cursor that would loop, and on two pages in a row that bring nothing.
 */
export function pagingGuard(page: GuardFacts): PagingStop | null {
  if (!page.hasNextPage) return null;
  if (!page.nextCursor) return pagingStop('missing-cursor');
  if (page.nextCursor === page.cursor || page.cursorSeenBefore) return pagingStop('repeated-cursor');
  if (page.broughtNothing && page.previousBroughtNothing) return pagingStop('empty-pages');
  return null;
}

function pagingStop(reason: PagingStopReason): PagingStop {
  return { reason, message: PAGING_STOP_MESSAGES[reason] };
}
