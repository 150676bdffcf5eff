/** Server state of posts: key factory and query options (TanStack Query owns it all). */
import type { QueryType } from '../../../shared/api/catalog';
import { pagedApiQuery } from '../../lib/api-query';
import { outlineOf } from './thread-outline';

/**
 * Pages of replies the threaded view keeps (1,000 replies at the sandbox's 20
 * a page, ~1,800 at the live service's): a window that follows the reader.
 * Pages it lets go come back from main's response store, without a new call.
 */
const THREAD_WINDOW_PAGES = 50;

export const postKeys = {
  all: ['post'] as const,
  // ['post', 'byIds', …] is lib/lookups.ts's: every view looks posts up by id
  /** replies v2 as the threaded layout keeps them (a window of pages) or the flat one (every page: it sorts them all) */
  thread: (id: string, order: QueryType, flat = false) =>
    ['post', 'thread', id, order, flat ? 'all' : 'window'] as const,
  directReplies: (id: string) => ['post', 'directReplies', id] as const,
  quotes: (id: string) => ['post', 'quotes', id] as const,
};

/**
 * Replies v2. Threaded: a window of pages, with an outline of every reply paged
 * through (thread-outline.ts). Flat (the API's order, pages appended below): every page.
 */
export const threadQuery = (id: string, order: QueryType, flat = false) =>
  pagedApiQuery(
    postKeys.thread(id, order, flat),
    'postRepliesV2',
    { tweetId: id, queryType: order },
    flat
      ? {}
      : {
          maxPages: THREAD_WINDOW_PAGES,
          onPage: (page, param, { client, queryKey }) => outlineOf(client, queryKey, id).place(param.index, page),
        },
  );

export const directRepliesQuery = (id: string) =>
  pagedApiQuery(postKeys.directReplies(id), 'postReplies', { tweetId: id });

export const quotesQuery = (id: string) => pagedApiQuery(postKeys.quotes(id), 'postQuotes', { tweetId: id });
