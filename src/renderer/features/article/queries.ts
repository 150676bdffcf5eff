/**
 * The article operation is announced by the API but answers 501 (never
 * charged): asked only when the user opens the article, and then at most
 * once per session for that post (the answer, a 501 included, is kept).
 */
import { queryOptions } from '@tanstack/react-query';
import type { ApiResult } from '../../../shared/ipc/api';
import { callApi } from '../../lib/bridge';
import { ONCE_PER_SESSION } from '../community/queries';

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
