/** Server state of people: key factory and query options. */
import { pagedApiQuery } from '../../lib/api-query';

const userKeys = {
  all: ['user'] as const,
  // ['user', 'byIds', …] and ['user', 'byHandle', …] are lib/lookups.ts's: other views look accounts up too
  timeline: (userId: string, includeReplies: boolean, includeParentTweet: boolean) =>
    ['user', 'timeline', userId, { includeReplies, includeParentTweet }] as const,
  mentions: (userName: string) => ['user', 'mentions', userName.toLowerCase()] as const,
};

/** The user's posts; both flags are always sent (the live service and the spec disagree on defaults). */
export const timelineQuery = (userId: string, includeReplies: boolean, includeParentTweet: boolean) =>
  pagedApiQuery(userKeys.timeline(userId, includeReplies, includeParentTweet), 'userTimeline', {
    userId,
    includeReplies,
    includeParentTweet,
  });

export const mentionsQuery = (userName: string) =>
  pagedApiQuery(userKeys.mentions(userName), 'userMentions', { userName });
