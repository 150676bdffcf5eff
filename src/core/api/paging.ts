/**
 * Paging guards and de-duplication per view (a view = one operation + its
 * params without cursor). The live service sometimes promises pages it does
 * not have: stop, and say why, on a repeated cursor, `has_next_page` without
 * a cursor, or two pages in a row that bring nothing new. Items already seen
 * on another page of the same view are removed and counted.
 *
 * Re-reading a page (same cursor, e.g. from the response store) gives the
 * same answer again: ids and cursors are remembered with the page that
 * brought them, so a page is never a duplicate of itself.
 *
 * A view whose caller de-duplicates the items itself (an export's walk keeps
 * every id it collected, for its resume) is applied without its ids: it
 * guards the cursors only, and a page "brings nothing" when it has no items;
 * the caller guards against pages of nothing new. The walk's ids are then
 * held once, not twice (a million: 38 MB).
 */
import { LRUCache } from 'lru-cache';
import type { PagingStopReason } from '../../shared/ipc/api';
import { pagingGuard } from '../../shared/api/paging-guard';
import { IdMap } from '../id-table';

export interface Paging {
  hasNextPage: boolean;
  /** null at the end, or when a guard stopped paging */
  nextCursor: string | null;
  stop: { reason: PagingStopReason; message: string } | null;
}

export interface PageFacts {
  /** the cursor the page was asked with; null for a first page */
  cursor: string | null;
  /** ids of the page's items in order (undefined for an item without id) */
  ids: ReadonlyArray<string | undefined>;
  hasNextPage: boolean;
  nextCursor: string;
}

export interface ApplyOptions {
  /** false: the caller de-duplicates; every item is kept and no id is held (default true) */
  ids?: boolean;
}

export interface ViewDecision {
  /** per item: keep it (false = a duplicate) */
  keep: boolean[];
  duplicatesRemoved: number;
  paging: Paging;
}

interface ViewState {
  /**
   * id → the number of the page that first brought it (`pageNumbers`). Held outside V8's heap: an export's walk
   * is a view too, and its million ids as a `Map` of strings held 80 MB of main's heap through the export.
   * Made at the first id it holds (never for a view applied without its ids).
   */
  seen: IdMap | null;
  /** page key → its number, in the order the pages first came */
  pageNumbers: Map<string, number>;
  /** next cursor → key of the page that gave it */
  parentOf: Map<string, string>;
  /** pages that brought nothing new */
  empty: Set<string>;
}

const FIRST = '\u0000first';

export class PagingViews {
  private readonly views: LRUCache<string, ViewState>;

  constructor(maxViews = 500) {
    // a view let go (evicted, started afresh, cleared) gives its ids' tables back at once
    this.views = new LRUCache({ max: maxViews, dispose: (view) => view.seen?.release() });
  }

  /** forget every view */
  clear(): void {
    this.views.clear();
  }

  /** forget one view: its memory goes now; a page of it asked again starts it afresh */
  forget(viewKey: string): void {
    this.views.delete(viewKey);
  }

  /** Apply one page to its view; a page without cursor starts the view afresh. */
  apply(viewKey: string, page: PageFacts, options: ApplyOptions = {}): ViewDecision {
    const pageKey = page.cursor ?? FIRST;
    let view = this.views.get(viewKey);
    if (!view || page.cursor === null) {
      view = { seen: null, pageNumbers: new Map(), parentOf: new Map(), empty: new Set() };
      this.views.set(viewKey, view);
    }
    let pageNumber = view.pageNumbers.get(pageKey);
    if (pageNumber === undefined) view.pageNumbers.set(pageKey, (pageNumber = view.pageNumbers.size));

    const keep = options.ids === false ? page.ids.map(() => true) : this.claim(view, pageNumber, page.ids);
    const fresh = keep.filter(Boolean).length;
    if (fresh === 0) view.empty.add(pageKey);
    else view.empty.delete(pageKey);

    return { keep, duplicatesRemoved: keep.length - fresh, paging: this.decide(view, pageKey, page, fresh) };
  }

  /** per id: new to the view, or already brought by another page (or earlier in this one) */
  private claim(view: ViewState, pageNumber: number, ids: PageFacts['ids']): boolean[] {
    const local = new Set<string>();
    const seen = (view.seen ??= new IdMap());
    return ids.map((id) => {
      if (id === undefined) return true;
      if (local.has(id)) return false;
      // the page that first brought it: this one (now, or when it was read before) or another
      const owner = seen.claim(id, pageNumber);
      if (owner !== undefined && owner !== pageNumber) return false;
      local.add(id);
      return true;
    });
  }

  private decide(view: ViewState, pageKey: string, page: PageFacts, fresh: number): Paging {
    const next = page.nextCursor;
    const givenBy = page.hasNextPage && next !== '' ? view.parentOf.get(next) : undefined;
    const parent = page.cursor === null ? undefined : view.parentOf.get(page.cursor);
    const stop = pagingGuard({
      cursor: page.cursor,
      hasNextPage: page.hasNextPage,
      nextCursor: next,
      broughtNothing: fresh === 0,
      cursorSeenBefore: givenBy !== undefined && givenBy !== pageKey,
      previousBroughtNothing: parent !== undefined && view.empty.has(parent),
    });
    // a cursor is remembered with the page that gave it first (also when two empty pages stop the walk)
    if (page.hasNextPage && next !== '' && next !== page.cursor && givenBy === undefined)
      view.parentOf.set(next, pageKey);
    if (stop) return { hasNextPage: false, nextCursor: null, stop };
    if (!page.hasNextPage) return { hasNextPage: false, nextCursor: null, stop: null };
    return { hasNextPage: true, nextCursor: next, stop: null };
  }
}
