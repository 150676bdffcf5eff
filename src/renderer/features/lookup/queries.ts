/**
 * Batch lookups: ids are split into calls of at most 100 (the API's per-call
 * limit). Each batch is its own query, keyed by the feature that owns the
 * resource, so a batch looked up here is not asked again from a profile.
 */
import { MAX_IDS_PER_CALL } from '../../../shared/api/catalog';
import { chunk } from '../../lib/id-list';
import { postsByIdsQuery } from '../post/queries';
import { usersByIdsQuery } from '../user/queries';

export const batchesOf = (ids: readonly string[]) => chunk(ids, MAX_IDS_PER_CALL);

export const postBatchQueries = (ids: readonly string[]) => batchesOf(ids).map((b) => postsByIdsQuery(b));
export const userBatchQueries = (ids: readonly string[]) => batchesOf(ids).map((b) => usersByIdsQuery(b));
