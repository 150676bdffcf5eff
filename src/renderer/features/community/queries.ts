/**
 * Server state of communities. The members and moderators operations are
 * announced by the API but answer 501 (never charged): they are asked at
 * most once per session — the answer, even the 501, is kept for good and
 * not retried — and only when their tab is opened.
 */
import { infiniteQueryOptions } from '@tanstack/react-query';
import type { ApiResult } from '../../../shared/ipc/api';
import { apiQuery, ONCE_PER_SESSION } from '../../lib/api-query';
import { callApi } from '../../lib/bridge';
import { nextCursor } from '../../lib/pages';

const communityKeys = {
  all: ['community'] as const,
  info: (id: string) => ['community', 'info', id] as const,
  members: (id: string) => ['community', 'members', id] as const,
  moderators: (id: string) => ['community', 'moderators', id] as const,
};

export const communityInfoQuery = (id: string) =>
  apiQuery(communityKeys.info(id), 'communityInfo', { community_id: id });

type Announced = 'communityMembers' | 'communityModerators';

function askedOnce(key: readonly [string, string, string], operation: Announced, id: string) {
  return infiniteQueryOptions({
    queryKey: key,
    queryFn: ({ pageParam, signal }): Promise<ApiResult<Announced>> =>
      callApi(operation, { community_id: id, cursor: pageParam }, { signal }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last: ApiResult<Announced>) => nextCursor(last),
    ...ONCE_PER_SESSION,
  });
}

export const communityMembersQuery = (id: string) => askedOnce(communityKeys.members(id), 'communityMembers', id);
export const communityModeratorsQuery = (id: string) =>
  askedOnce(communityKeys.moderators(id), 'communityModerators', id);
