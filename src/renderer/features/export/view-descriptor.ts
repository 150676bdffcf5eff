/**
 * What a view tells the export feature about itself: which view kind, its
 * params, and how much it has loaded. Views build it with `exportView` and
 * hand it to `<ExportButton view={…} />`.
 */
import { VIEW_OPERATIONS, type ViewDescriptor, type ViewKind } from '../../../shared/ipc/export';

export interface LoadedState {
  /** pages the view holds now (TanStack Query's `data.pages.length`) */
  pages?: number;
  /** items it shows now */
  items?: number;
  /** the list reached its end (no next page) */
  reachedEnd?: boolean;
}

export interface ViewExtras {
  title?: string;
  /** the total the API announces (a post's replyCount or quoteCount, a user's statusesCount) */
  expectedItems?: number | null;
}

type Params = ViewDescriptor['params'];

/** A view descriptor; undefined params are left out, the operation comes from the kind. */
export function exportView(
  kind: ViewKind,
  params: Record<string, string | number | boolean | undefined>,
  loaded: LoadedState = {},
  extras: ViewExtras = {},
): ViewDescriptor {
  const clean: Params = {};
  for (const [k, v] of Object.entries(params)) if (v !== undefined && k !== 'cursor') clean[k] = v;
  const view: ViewDescriptor = { kind, operation: VIEW_OPERATIONS[kind], params: clean };
  if (extras.title) view.title = extras.title.slice(0, 200);
  if (loaded.pages !== undefined) view.loadedPages = Math.max(0, Math.floor(loaded.pages));
  if (loaded.items !== undefined) view.loadedItems = Math.max(0, Math.floor(loaded.items));
  if (loaded.reachedEnd !== undefined) view.reachedEnd = loaded.reachedEnd;
  if (typeof extras.expectedItems === 'number' && Number.isFinite(extras.expectedItems) && extras.expectedItems >= 0) {
    view.expectedItems = Math.floor(extras.expectedItems);
  }
  return view;
}

/** What `pagedExportView` reads of an infinite query. */
export interface PagedQueryState {
  data?: { pages: readonly unknown[] } | undefined;
  hasNextPage: boolean;
}

/**
 * The descriptor of a paged view (an infinite query showing `items` items),
 * or null while its first page is not in (the button stays disabled).
 */
export function pagedExportView(
  kind: ViewKind,
  params: Record<string, string | number | boolean | undefined>,
  query: PagedQueryState,
  items: number,
  extras: ViewExtras = {},
): ViewDescriptor | null {
  if (!query.data) return null;
  return exportView(kind, params, { pages: query.data.pages.length, items, reachedEnd: !query.hasNextPage }, extras);
}
