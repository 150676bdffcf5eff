/**
 * The one QueryClient. Main's client already retries and paces requests, so
 * TanStack Query does not retry; answers stay fresh per operation
 * (`STALE_TIME_MS`), and every settled API query refreshes the usage meter.
 */
import { QueryCache, QueryClient } from '@tanstack/react-query';
import { isSkeinError } from '../../shared/errors';
import { usageKeys } from './usage-queries';

/** Query keys whose first segment is one of these are not API calls. */
const NOT_API = new Set(['usage', 'app', 'demo', 'settings', 'credentials']);

export function createQueryClient(): QueryClient {
  const client: QueryClient = new QueryClient({
    queryCache: new QueryCache({
      onSettled: (_data, error, query) => {
        if (isSkeinError(error) && error.code === 'cancelled') return;
        if (!NOT_API.has(String(query.queryKey[0]))) void client.invalidateQueries({ queryKey: usageKeys.all });
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
