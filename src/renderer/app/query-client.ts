/**
 * The one QueryClient. Main's client already retries and paces requests, so
 * TanStack Query does not retry; answers stay fresh per operation
 * (`STALE_TIME_MS`), and settled API queries refresh the usage meter.
 */
import { notifyManager, QueryCache, QueryClient } from '@tanstack/react-query';
import { isSkeinError } from '../../shared/errors';
import { usageKeys } from '../lib/usage/meter';

/** Query keys whose first segment is one of these are not API calls. */
const NOT_API = new Set(['usage', 'app', 'demo', 'settings', 'credentials', 'ids', 'archive', 'projects']);

/**
 * How long after an API query settles the usage meter is asked again. Pages
 * that arrive together (a list loading while the reader scrolls) share one
 * refresh, and the refresh never runs between an answer and its commit.
 */
const USAGE_REFRESH_MS = 150;

/**
 * TanStack Query hands results to React in a batch it schedules with
 * `setTimeout(0)` by default: in a busy page (scrolling) that batch waits
 * behind a whole frame. A microtask still batches every notification of the
 * same task, and the answer reaches the list in the task that received it
 * (the scheduler the library documents for this).
 */
notifyManager.setScheduler(queueMicrotask);

export function createQueryClient(options: { usageRefreshMs?: number } = {}): QueryClient {
  const delay = options.usageRefreshMs ?? USAGE_REFRESH_MS;
  let pending: ReturnType<typeof setTimeout> | null = null;
  const refreshUsage = () => {
    if (pending !== null) return;
    pending = setTimeout(() => {
      pending = null;
      void client.invalidateQueries({ queryKey: usageKeys.all });
    }, delay);
  };
  const client: QueryClient = new QueryClient({
    queryCache: new QueryCache({
      onSettled: (_data, error, query) => {
        if (isSkeinError(error) && error.code === 'cancelled') return;
        if (!NOT_API.has(String(query.queryKey[0]))) refreshUsage();
      },
    }),
    defaultOptions: {
      queries: {
        retry: false,
        refetchOnWindowFocus: false,
        refetchOnReconnect: false,
        gcTime: 10 * 60_000,
      },
    },
  });
  return client;
}
