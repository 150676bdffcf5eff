/** Server state of posts: key factory and query options (TanStack Query owns it all). */
import type { QueryType } from '../../../shared/api/catalog';
import { apiQuery, pagedApiQuery } from '../../lib/api-query';

export const postKeys = {
  all: ['post'] as const,
  /** one batch of `postsByIds` (at most 100 ids) */
  byIds: (ids: readonly string[]) => ['post', 'byIds', ids.join(',')] as const,
  thread: (id: string, order: QueryType) => ['post', 'thread', id, order] as const,
  directReplies: (id: string) => ['post', 'directReplies', id] as const,
  quotes: (id: string) => ['post', 'quotes', id] as const,
};

export const postsByIdsQuery = (ids: readonly string[]) => apiQuery(postKeys.byIds(ids), 'postsByIds', { tweet_ids: ids.join(',') });

export const threadQuery = (id: string, order: QueryType) =>
  pagedApiQuery(postKeys.thread(id, order), 'postRepliesV2', { tweetId: id, queryType: order });

export const directRepliesQuery = (id: string) => pagedApiQuery(postKeys.directReplies(id), 'postReplies', { tweetId: id });

export const quotesQuery = (id: string) => pagedApiQuery(postKeys.quotes(id), 'postQuotes', { tweetId: id });
