/**
 * Settings and credentials as server state (they live in main), and what
 * changing them means for cached answers: a new mode or key makes every
 * cached API answer someone else's, so those are dropped, here and in main.
 */
import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { DEFAULT_PRICES, type PriceTable } from '../../shared/api/pricing';
import { appKeys } from './app-info';
import { usageKeys } from './usage/meter';
import { skein } from './bridge';

export const settingsKeys = {
  settings: () => ['settings', 'values'] as const,
  credentials: () => ['credentials', 'status'] as const,
};

export const settingsQuery = () =>
  queryOptions({
    queryKey: settingsKeys.settings(),
    queryFn: () => skein().settings.get(),
    staleTime: Number.POSITIVE_INFINITY,
  });

export const credentialsQuery = () =>
  queryOptions({
    queryKey: settingsKeys.credentials(),
    queryFn: () => skein().credentials.status(),
    staleTime: Number.POSITIVE_INFINITY,
  });

/** The price table in force (the defaults until settings have loaded). */
export function usePrices(): PriceTable {
  const { data } = useQuery(settingsQuery());
  return data?.prices ?? DEFAULT_PRICES;
}

/** First query-key segments that are not API answers. */
const NOT_API_ANSWERS: ReadonlySet<string> = new Set(['settings', 'credentials', 'usage', 'app', 'demo', 'ids']);

/** True for a query key holding an API answer. */
export function isApiAnswerKey(key: readonly unknown[]): boolean {
  return !NOT_API_ANSWERS.has(String(key[0]));
}

/**
 * Drop every cached API answer in the renderer (main's cache is cleared by
 * the caller), and refresh what depends on mode and key: app info (mode),
 * demo examples, usage.
 */
export async function forgetApiAnswers(client: QueryClient): Promise<void> {
  await client.cancelQueries({ predicate: (q) => isApiAnswerKey(q.queryKey) });
  client.removeQueries({ predicate: (q) => isApiAnswerKey(q.queryKey) });
  await Promise.all([
    client.invalidateQueries({ queryKey: appKeys.info() }),
    client.invalidateQueries({ queryKey: ['demo'] }),
    client.invalidateQueries({ queryKey: usageKeys.all }),
  ]);
}
