/**
 * Batch lookups: ids are split into calls of at most 100 (the API's per-call
 * limit). Each batch is its own query, keyed as lib/lookups.ts keys every
 * lookup by id, so a batch looked up here is not asked again from a profile.
 */
import { MAX_IDS_PER_CALL } from '../../../shared/api/catalog';
import { chunk } from '../../lib/id-list';
import { postsByIdsQuery, usersByIdsQuery } from '../../lib/lookups';

export const batchesOf = (ids: readonly string[]) => chunk(ids, MAX_IDS_PER_CALL);

export const postBatchQueries = (ids: readonly string[]) => batchesOf(ids).map((b) => postsByIdsQuery(b));
export const userBatchQueries = (ids: readonly string[]) => batchesOf(ids).map((b) => usersByIdsQuery(b));
