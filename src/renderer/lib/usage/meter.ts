/**
 * This session's usage (calls, credits, cost) as main's meter counts it: read
 * by the shell's status bar and the usage view, refreshed after API
 * queries, dropped when the mode or key changes.
 */
import { queryOptions } from '@tanstack/react-query';
import { skein } from '../bridge';

export const usageKeys = {
  all: ['usage'] as const,
  snapshot: () => ['usage', 'snapshot'] as const,
};

export const usageQuery = () =>
  queryOptions({ queryKey: usageKeys.snapshot(), queryFn: () => skein().usage.get(), staleTime: 0 });
