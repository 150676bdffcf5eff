/** App-wide queries: app info (mode), demo examples, this session's usage. */
import { queryOptions } from '@tanstack/react-query';
import { skein } from '../lib/bridge';

export const appKeys = {
  info: () => ['app', 'info'] as const,
};
const demoKeys = {
  examples: () => ['demo', 'examples'] as const,
};
export const usageKeys = {
  all: ['usage'] as const,
  snapshot: () => ['usage', 'snapshot'] as const,
};

export const appInfoQuery = () =>
  queryOptions({ queryKey: appKeys.info(), queryFn: () => skein().app.info(), staleTime: Number.POSITIVE_INFINITY });

export const demoExamplesQuery = () =>
  queryOptions({
    queryKey: demoKeys.examples(),
    queryFn: () => skein().demo.examples(),
    staleTime: Number.POSITIVE_INFINITY,
  });

export const usageQuery = () =>
  queryOptions({ queryKey: usageKeys.snapshot(), queryFn: () => skein().usage.get(), staleTime: 0 });
