/**
 * What an infinite list shows, derived from the pages TanStack Query holds:
 * the items (unique by id across pages), how many repeats were removed, how
 * many items the client could not read, and why paging stopped.
 */
import type { ApiCallOutput } from '../../shared/ipc/api';

type PageLike = Pick<ApiCallOutput, 'paging' | 'report' | 'meta'> & { items: unknown[] };

export interface PagesSummary<T> {
  items: T[];
  /** repeats removed by main across pages, plus any the renderer removed */
  duplicatesRemoved: number;
  /** items that did not match the schema and were skipped */
  dropped: number;
  /** a paging guard stopped the list: why, in plain words */
  stop: string | null;
  /** every page came from a cache, no new call was made */
  fromCache: boolean;
  pages: number;
}

export function summarizePages<T extends { id: string }>(pages: readonly PageLike[] | undefined): PagesSummary<T> {
  const items: T[] = [];
  const seen = new Set<string>();
  let duplicatesRemoved = 0;
  let dropped = 0;
  let stop: string | null = null;
  for (const page of pages ?? []) {
    duplicatesRemoved += page.report.duplicatesRemoved;
    dropped += page.report.dropped.length;
    for (const item of page.items as T[]) {
      if (seen.has(item.id)) {
        duplicatesRemoved++;
        continue;
      }
      seen.add(item.id);
      items.push(item);
    }
    if (page.paging?.stop) stop = page.paging.stop.message;
  }
  return {
    items,
    duplicatesRemoved,
    dropped,
    stop,
    fromCache: (pages?.length ?? 0) > 0 && (pages ?? []).every((p) => p.meta.fromCache),
    pages: pages?.length ?? 0,
  };
}

/** The cursor for the next page, or undefined at the end (TanStack Query's contract). */
export function nextCursor(page: Pick<ApiCallOutput, 'paging'>): string | undefined {
  const p = page.paging;
  if (!p || !p.hasNextPage || p.stop || !p.nextCursor) return undefined;
  return p.nextCursor;
}
