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
    fromCache: allFromCache(pages),
    pages: pages?.length ?? 0,
  };
}

/** Every page came from main's store (no new call), and there is at least one. */
export function allFromCache(pages: readonly Pick<PageLike, 'meta'>[] | undefined): boolean {
  return (pages?.length ?? 0) > 0 && (pages ?? []).every((p) => p.meta.fromCache);
}

const pageIndexes = new WeakMap<object, Map<string, unknown>>();

/** A page's items by id (the first of a repeated id), built once per page object. */
export function itemsById<T extends { id: string }>(page: { readonly items: readonly T[] }): ReadonlyMap<string, T> {
  let index = pageIndexes.get(page) as Map<string, T> | undefined;
  if (!index) {
    index = new Map();
    for (const item of page.items) if (!index.has(item.id)) index.set(item.id, item);
    pageIndexes.set(page, index);
  }
  return index;
}

/** The cursor for the next page, or undefined at the end (TanStack Query's contract). */
export function nextCursor(page: Pick<ApiCallOutput, 'paging'>): string | undefined {
  const p = page.paging;
  if (!p || !p.hasNextPage || p.stop || !p.nextCursor) return undefined;
  return p.nextCursor;
}

/**
 * Where a page sits in its list: the cursor that asks for it (null for the
 * first page), its position, and the page before it. A windowed list
 * (TanStack Query's `maxPages`) lets pages go; the chain remembers how to ask
 * for each again (main's response store answers: no new call). Only these
 * small objects are kept, never the pages.
 */
export interface PageParam {
  readonly cursor: string | null;
  readonly index: number;
  readonly prev: PageParam | null;
  /** asked again after the list let it go (main's store answers, whatever the page's age) */
  readonly reread?: boolean;
}

export const FIRST_PAGE: PageParam = Object.freeze({ cursor: null, index: 0, prev: null });

/** The page after `page` (asked with `param`), or undefined at the end. */
export function nextPageParam(page: Pick<ApiCallOutput, 'paging'>, param: PageParam): PageParam | undefined {
  const cursor = nextCursor(page);
  return cursor === undefined ? undefined : { cursor, index: param.index + 1, prev: param };
}

/** The page before the one asked with `param` (one the list had and let go), or undefined for the first page. */
export function previousPageParam(param: PageParam): PageParam | undefined {
  return param.prev ? { ...param.prev, reread: true } : undefined;
}
