/**
 * Query options for API operations, so every feature's `queries.ts` is a
 * key factory plus one line per query. Paged operations page on the cursor
 * (`getNextPageParam` is undefined at the end); freshness comes from the
 * shared cache policy.
 */
import { infiniteQueryOptions, queryOptions, type QueryKey } from '@tanstack/react-query';
import { STALE_TIME_MS } from '../../shared/api/cache-policy';
import type { OperationId, PagedOperationId, ParamsOf } from '../../shared/api/catalog';
import type { ApiResult } from '../../shared/ipc/api';
import { callApi } from './bridge';
import { nextCursor } from './pages';

type WithoutCursor<Id extends OperationId> = Omit<ParamsOf<Id>, 'cursor'>;

/** An infinite list over a paged operation. */
export function pagedApiQuery<Id extends PagedOperationId, K extends QueryKey>(key: K, operation: Id, params: WithoutCursor<Id>) {
  return infiniteQueryOptions({
    queryKey: key,
    queryFn: ({ pageParam, signal }): Promise<ApiResult<Id>> =>
      callApi(operation, { ...params, ...(pageParam ? { cursor: pageParam } : {}) } as ParamsOf<Id>, { signal }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last: ApiResult<Id>) => nextCursor(last),
    staleTime: STALE_TIME_MS[operation],
    // pages never change once fetched: deep-comparing thousands of posts per page is wasted work
    structuralSharing: false,
    // A stale list with many pages would refetch every page (and pay for each);
    // refresh only short lists on their own, the rest when the user asks.
    refetchOnMount: (q) => ((q.state.data as { pages?: unknown[] } | undefined)?.pages?.length ?? 0) <= 1,
  });
}

/** One call of a (non-paged or first-page) operation. */
export function apiQuery<Id extends OperationId, K extends QueryKey>(key: K, operation: Id, params: ParamsOf<Id>) {
  return queryOptions({
    queryKey: key,
    queryFn: ({ signal }): Promise<ApiResult<Id>> => callApi(operation, params, { signal }),
    staleTime: STALE_TIME_MS[operation],
  });
}
