/**
 * Query options for API operations, so every feature's `queries.ts` is a
 * key factory plus one line per query. Paged operations page on the cursor
 * (`getNextPageParam` is undefined at the end); freshness comes from the
 * shared cache policy.
 */
import { infiniteQueryOptions, queryOptions, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { STALE_TIME_MS } from '../../shared/api/cache-policy';
import type { OperationId, PagedOperationId, ParamsOf } from '../../shared/api/catalog';
import type { ApiResult } from '../../shared/ipc/api';
import { callApi } from './bridge';
import { FIRST_PAGE, nextPageParam, previousPageParam, type PageParam } from './pages';

type WithoutCursor<Id extends OperationId> = Omit<ParamsOf<Id>, 'cursor'>;

export interface PagedOptions<Id extends PagedOperationId> {
  /**
   * Keep at most this many pages (TanStack Query's `maxPages`): the list is a
   * window that moves with the reader; the pages it lets go are asked again
   * when the reader comes back, and main's response store answers them.
   */
  maxPages?: number;
  /** told of every page as it arrives, with its place in the list and the query it belongs to */
  onPage?: (page: ApiResult<Id>, param: PageParam, query: { client: QueryClient; queryKey: QueryKey }) => void;
}

/** An infinite list over a paged operation. */
export function pagedApiQuery<Id extends PagedOperationId, K extends QueryKey>(
  key: K,
  operation: Id,
  params: WithoutCursor<Id>,
  options: PagedOptions<Id> = {},
) {
  const { maxPages, onPage } = options;
  return infiniteQueryOptions({
    queryKey: key,
    queryFn: async ({ pageParam, signal, client, queryKey }): Promise<ApiResult<Id>> => {
      const cursor = pageParam.cursor ? { cursor: pageParam.cursor } : {};
      const page = await callApi(operation, { ...params, ...cursor } as ParamsOf<Id>, {
        signal,
        reread: pageParam.reread,
      });
      onPage?.(page, pageParam, { client, queryKey });
      return page;
    },
    initialPageParam: FIRST_PAGE,
    getNextPageParam: (last: ApiResult<Id>, _all: unknown, lastParam: PageParam) => nextPageParam(last, lastParam),
    getPreviousPageParam: (_first: ApiResult<Id>, _all: unknown, firstParam: PageParam) =>
      previousPageParam(firstParam),
    maxPages,
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

/**
 * For an operation the API announces but does not serve yet (HTTP 501, never charged): asked once per
 * session, kept forever, an error included (no retry, no refetch on mount).
 */
export const ONCE_PER_SESSION = {
  staleTime: Number.POSITIVE_INFINITY,
  gcTime: Number.POSITIVE_INFINITY,
  retry: false,
  retryOnMount: false,
  refetchOnMount: false,
  refetchOnWindowFocus: false,
  refetchOnReconnect: false,
} as const;
