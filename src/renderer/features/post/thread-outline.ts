/**
 * The outline of a thread the reader has paged through: for every reply
 * loaded so far, in the order the API sent them, only what the tree needs
 * (id, parent, time) and the page it came on. The threaded view keeps a
 * window of pages (TanStack Query's `maxPages`) and builds its rows from this
 * outline, so rows stay put as pages leave and come back: a row whose page is
 * out of the window shows a placeholder until main's response store gives the
 * page again. A few hundred bytes per reply instead of the whole post.
 *
 * One outline per thread query, fed by its queryFn as pages arrive (`place`) and gone when the query leaves
 * the cache. It is an external store: the view reads it with `useSyncExternalStore` (`useThreadOutline`),
 * so a change re-renders what derives from it, whatever else changed or not.
 */
import { hashKey, notifyManager, type QueryCache, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import type { CardPost } from '../../../shared/api/schemas';
import type { ApiResult } from '../../../shared/ipc/api';
import { itemsById, type PageParam } from '../../lib/pages';
import type { ThreadPost, ThreadRow, ThreadTree } from '../../lib/thread-tree';
import { IncrementalThreadTree } from '../../lib/thread-tree-incremental';

export interface OutlinePost extends ThreadPost {
  /** the page it came on (0 = the first) */
  page: number;
}

export class ThreadOutline {
  /** every reply placed so far, in arrival order (the focal post too when the API sends it) */
  entries: OutlinePost[] = [];
  /** the focal post itself, kept whole: the view shows it whatever the window */
  focal: CardPost | null = null;
  /** the page the focal post last came on */
  focalPage: number | null = null;
  /** why paging stopped, from the last page placed */
  stop: string | null = null;
  private starts: number[] = [];
  private counts: Array<{ duplicatesRemoved: number; dropped: number }> = [];
  private built: IncrementalThreadTree<OutlinePost>;
  private published: OutlineSnapshot = { outline: this, version: 0 };
  /** changes placed so far (published or not) */
  private changes = 0;
  private readonly listeners = new Set<() => void>();

  constructor(readonly postId: string) {
    this.built = new IncrementalThreadTree(postId);
  }

  /** The reply tree of every reply placed so far (grown page by page, not rebuilt). */
  tree(): ThreadTree<OutlinePost> {
    return this.built.tree();
  }

  /** The rows of that tree (`threadRows`), redone from the last rows and what was placed since. */
  rows(collapsed: ReadonlySet<string>): ThreadRow<OutlinePost>[] {
    return this.built.rows(collapsed);
  }

  /** The outline as last published: a new object per publish (what `useSyncExternalStore` compares). */
  readonly getSnapshot = (): OutlineSnapshot => this.published;

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** pages placed so far */
  get pages(): number {
    return this.starts.length;
  }

  get duplicatesRemoved(): number {
    return this.counts.reduce((n, c) => n + c.duplicatesRemoved, 0);
  }

  get dropped(): number {
    return this.counts.reduce((n, c) => n + c.dropped, 0);
  }

  /**
   * Page `index` arrived. The next page is appended; a page seen before
   * (asked again for the window) changes nothing, unless it now says
   * something else (a refetch with new replies): then the outline restarts
   * from that page.
   */
  place(index: number, page: Pick<ApiResult<'postRepliesV2'>, 'items' | 'report' | 'paging'>): void {
    if (index > this.pages) return;
    if (index < this.pages) {
      if (this.holds(index, page.items)) return;
      this.entries = this.entries.slice(0, this.starts[index]);
      this.starts = this.starts.slice(0, index);
      this.counts = this.counts.slice(0, index);
      this.built = new IncrementalThreadTree(this.postId);
      for (const e of this.entries) this.built.add(e);
    }
    this.starts.push(this.entries.length);
    for (const p of page.items) {
      if (p.id === this.postId) {
        this.focal = p;
        this.focalPage = index;
      }
      const entry: OutlinePost = { id: p.id, inReplyToId: p.inReplyToId ?? null, createdAt: p.createdAt, page: index };
      this.entries.push(entry);
      this.built.add(entry);
    }
    this.counts.push({ duplicatesRemoved: page.report.duplicatesRemoved, dropped: page.report.dropped.length });
    this.stop = page.paging?.stop?.message ?? null;
    this.changes++;
  }

  /** Tells the subscribers of what was placed since the last publish (nothing when nothing changed). */
  publish(): void {
    if (this.published.version === this.changes) return;
    this.published = { outline: this, version: this.changes };
    for (const listener of this.listeners) listener();
  }

  private holds(index: number, items: readonly CardPost[]): boolean {
    const from = this.starts[index] ?? 0;
    const to = this.starts[index + 1] ?? this.entries.length;
    if (to - from !== items.length) return false;
    return items.every((p, i) => this.entries[from + i]?.id === p.id);
  }
}

/** What the view derives from: the outline as of one change (a new object per change). */
export interface OutlineSnapshot {
  readonly outline: ThreadOutline;
  /** how many changes the outline had when published */
  readonly version: number;
}

/** The outlines of one client's thread queries, by query hash; an outline goes when its query leaves the cache. */
class OutlineRegistry {
  private readonly byHash = new Map<string, ThreadOutline>();

  constructor(private readonly cache: QueryCache) {
    cache.subscribe((event) => {
      const outline = this.byHash.get(event.query.queryHash);
      if (!outline) return;
      if (event.type === 'removed') this.byHash.delete(event.query.queryHash);
      // with the query's data, in the batch its observers are told in: one render shows both
      else if (event.type === 'updated') notifyManager.schedule(() => outline.publish());
    });
  }

  get(queryKey: QueryKey, postId: string): ThreadOutline {
    // by hash (one Map lookup): `find` matches the key against every query in the cache
    const query = this.cache.get(hashKey(queryKey));
    if (!query) return new ThreadOutline(postId);
    let outline = this.byHash.get(query.queryHash);
    if (!outline) this.byHash.set(query.queryHash, (outline = new ThreadOutline(postId)));
    return outline;
  }
}

const registries = new WeakMap<QueryClient, OutlineRegistry>();

/**
 * The outline of the thread query under `queryKey`: it lives as long as that query lives in TanStack Query's
 * cache (a throwaway one when there is no such query).
 */
export function outlineOf(client: QueryClient, queryKey: QueryKey, postId: string): ThreadOutline {
  let registry = registries.get(client);
  if (!registry) registries.set(client, (registry = new OutlineRegistry(client.getQueryCache())));
  return registry.get(queryKey, postId);
}

/** The outline of a thread query, subscribed: the component renders again whenever a page changes it. */
export function useThreadOutline(client: QueryClient, queryKey: QueryKey, postId: string): OutlineSnapshot {
  const outline = outlineOf(client, queryKey, postId);
  return useSyncExternalStore(outline.subscribe, outline.getSnapshot);
}

/**
 * The post `id` of outline page `page` when that page is in the window
 * (the thread query's `pages` and their `params`), else null (its row waits for it). One
 * lookup in that page's index: nothing is rebuilt over the whole window when
 * a page arrives.
 */
export function heldPost(
  pages: readonly { readonly items: readonly CardPost[] }[] | undefined,
  params: readonly PageParam[] | undefined,
  id: string,
  page: number | null,
): CardPost | null {
  if (!pages || !params || page === null) return null;
  const slot = page - (params[0]?.index ?? 0);
  const held = params[slot]?.index === page ? pages[slot] : undefined;
  return held ? (itemsById(held).get(id) ?? null) : null;
}
