/**
 * The article operation is announced by the API but answers 501 (never
 * charged): asked only when the user opens the article, and then at most
 * once per session for that post (the answer, a 501 included, is kept).
 */
import { queryOptions, type QueryState } from '@tanstack/react-query';
import type { ApiResult } from '../../../shared/ipc/api';
import { ONCE_PER_SESSION } from '../../lib/api-query';
import { callApi } from '../../lib/bridge';

export const articleKeys = {
  all: ['article'] as const,
  ofPost: (postId: string) => ['article', postId] as const,
};

export const articleQuery = (postId: string, enabled: boolean) =>
  queryOptions({
    queryKey: articleKeys.ofPost(postId),
    queryFn: ({ signal }): Promise<ApiResult<'article'>> => callApi('article', { tweet_id: postId }, { signal }),
    enabled,
    ...ONCE_PER_SESSION,
  });

/**
 * Whether the article was asked for already this session (answered, failed
 * or on its way). A query that merely exists (mounted while disabled) was not.
 */
export function alreadyAsked(
  state: Pick<QueryState, 'dataUpdatedAt' | 'errorUpdatedAt' | 'fetchStatus'> | undefined,
): boolean {
  if (!state) return false;
  return state.dataUpdatedAt > 0 || state.errorUpdatedAt > 0 || state.fetchStatus === 'fetching';
}
