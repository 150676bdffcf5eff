/**
 * The ids area as the other areas see it: the id lists it reads in batches, and what a hydration did not get.
 * Export takes what it needs from here, never from the files behind it.
 */
export { indexIdFile, type IdList, type MissingList } from './id-list';
export { IdSet } from '../id-table';
export { createIdsFeature, type IdsFeature } from './handlers';
