/** Server state of people search. */
import { pagedApiQuery } from '../../lib/api-query';

const peopleKeys = {
  all: ['people'] as const,
  search: (query: string) => ['people', 'search', query] as const,
};

export const peopleSearchQuery = (query: string) => pagedApiQuery(peopleKeys.search(query), 'userSearch', { query });
