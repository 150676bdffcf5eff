/** The embedded sandbox's showcase entities, which the demo Home links to. */
import { queryOptions } from '@tanstack/react-query';
import { skein } from '../../lib/bridge';

const demoKeys = {
  examples: () => ['demo', 'examples'] as const,
};

export const demoExamplesQuery = () =>
  queryOptions({
    queryKey: demoKeys.examples(),
    queryFn: () => skein().demo.examples(),
    staleTime: Number.POSITIVE_INFINITY,
  });
