/**
 * Valid sample queries for every operation, built from the showcase ids, for
 * the contract and determinism tests. Typed as a complete record: a new
 * catalog operation does not compile until it has samples.
 */
import type { OperationId } from '../shared/api';
import type { DemoExamples } from '../shared/ipc/app';

export type SampleQuery = Record<string, string>;

export const SAMPLE_QUERIES: Record<OperationId, (ex: DemoExamples) => SampleQuery[]> = {
  postQuotes: (ex) => [{ tweetId: ex.muchQuotedPostId }, { tweetId: ex.bigThreadPostId }],
  postRepliesV2: (ex): SampleQuery[] => [
    { tweetId: ex.bigThreadPostId },
    { tweetId: ex.bigThreadPostId, queryType: 'Latest' },
    { tweetId: ex.bigThreadPostId, queryType: 'Likes' },
    { tweetId: ex.mediaPostId, queryType: 'Relevance' },
  ],
  postReplies: (ex) => [{ tweetId: ex.bigThreadPostId }, { tweetId: ex.muchQuotedPostId }],
  userMentions: (ex) => [{ userName: ex.profile.userName }],
  userSearch: (ex) => [{ query: ex.profile.userName.slice(0, 3) }, { query: 'a' }, { query: 'zzzzqqq' }],
  postsByIds: (ex) => [{ tweet_ids: [ex.bigThreadPostId, ex.mediaPostId, ex.muchQuotedPostId].join(',') }],
  communityInfo: (ex) => [{ community_id: ex.communityId }],
  listFollowers: (ex) => [{ list_id: ex.listId }],
  userTimeline: (ex): SampleQuery[] => [
    { userId: ex.profile.id },
    { userId: ex.profile.id, includeReplies: 'false' },
    { userId: ex.profile.id, includeReplies: 'true', includeParentTweet: 'true' },
  ],
  communityMembers: (ex) => [{ community_id: ex.communityId }],
  spaceDetail: (ex) => [{ space_id: ex.runningSpaceId }, { space_id: ex.endedSpaceId }],
  usersByIds: (ex) => [{ userIds: ex.profile.id }],
  trends: (): SampleQuery[] => [{}, { woeid: '23424977', count: '50' }, { woeid: '44418', count: '1' }],
  listTimeline: (ex) => [{ listId: ex.listId }],
  communityModerators: (ex) => [{ community_id: ex.communityId }],
  article: (ex) => [{ tweet_id: ex.mediaPostId }],
};
