/**
 * Server state of audio spaces. A running space is live: its answer is
 * stale at once, and polls ask the API itself (`fresh`), never main's store.
 * An ended or scheduled space does not change quickly, so it stays fresh for
 * minutes and going back to it costs nothing.
 */
import { queryOptions } from '@tanstack/react-query';
import { STALE_TIME_MS } from '../../../shared/api/cache-policy';
import type { ApiResult } from '../../../shared/ipc/api';
import { callApi } from '../../lib/bridge';

const spaceKeys = {
  all: ['space'] as const,
  detail: (id: string) => ['space', 'detail', id] as const,
};

/** Freshness of a space that is not running. */
const SETTLED_SPACE_STALE_MS = 5 * 60_000;

function isRunning(result: ApiResult<'spaceDetail'> | undefined): boolean {
  const data = result?.data as
    { data?: { audio_space_by_rest_id?: { metadata?: { state?: unknown } } } } | null | undefined;
  return data?.data?.audio_space_by_rest_id?.metadata?.state === 'Running';
}

/** `pollMs`: poll every so many ms, or false. */
export const spaceQuery = (id: string, pollMs: number | false) =>
  queryOptions({
    queryKey: spaceKeys.detail(id),
    queryFn: ({ signal }): Promise<ApiResult<'spaceDetail'>> =>
      callApi('spaceDetail', { space_id: id }, { signal, fresh: true }),
    staleTime: (q) =>
      q.state.data === undefined || isRunning(q.state.data) ? STALE_TIME_MS.spaceDetail : SETTLED_SPACE_STALE_MS,
    refetchInterval: pollMs,
    refetchIntervalInBackground: false,
  });
