/**
 * How long an answer stays fresh, per operation. One table for both caches:
 * the renderer's TanStack Query `staleTime` and the main process's response
 * store, so going back and forth between views never pays twice.
 */
import type { OperationId } from './catalog';

const MINUTE = 60_000;

export const STALE_TIME_MS: Record<OperationId, number> = {
  postQuotes: 2 * MINUTE,
  postRepliesV2: 2 * MINUTE,
  postReplies: 2 * MINUTE,
  userMentions: 2 * MINUTE,
  userSearch: 5 * MINUTE,
  postsByIds: 5 * MINUTE,
  communityInfo: 10 * MINUTE,
  listFollowers: 5 * MINUTE,
  userTimeline: 2 * MINUTE,
  communityMembers: 60 * MINUTE,
  spaceDetail: 0,
  usersByIds: 10 * MINUTE,
  trends: 5 * MINUTE,
  listTimeline: 2 * MINUTE,
  communityModerators: 60 * MINUTE,
  article: 60 * MINUTE,
};
