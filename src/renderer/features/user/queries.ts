/** Server state of people: key factory and query options. */
import { queryOptions } from '@tanstack/react-query';
import { STALE_TIME_MS } from '../../../shared/api/cache-policy';
import type { User } from '../../../shared/api/schemas';
import { SkeinError } from '../../../shared/errors';
import { apiQuery, pagedApiQuery } from '../../lib/api-query';
import { callApi } from '../../lib/bridge';

const userKeys = {
  all: ['user'] as const,
  /** one batch of `usersByIds` (at most 100 ids) */
  byIds: (ids: readonly string[]) => ['user', 'byIds', ids.join(',')] as const,
  byHandle: (handle: string) => ['user', 'byHandle', handle.toLowerCase()] as const,
  timeline: (userId: string, includeReplies: boolean, includeParentTweet: boolean) =>
    ['user', 'timeline', userId, { includeReplies, includeParentTweet }] as const,
  mentions: (userName: string) => ['user', 'mentions', userName.toLowerCase()] as const,
};

export const usersByIdsQuery = (ids: readonly string[]) =>
  apiQuery(userKeys.byIds(ids), 'usersByIds', { userIds: ids.join(',') });

/** What a handle resolves to: the exact match, or the nearest candidates when none matches exactly. */
export type HandleResolution = { user: User; candidates: User[] } | { user: null; candidates: User[] };

/** `@handle` → user, through people search (exact handle match first). */
export const handleQuery = (handle: string) =>
  queryOptions({
    queryKey: userKeys.byHandle(handle),
    staleTime: STALE_TIME_MS.userSearch,
    queryFn: async ({ signal }): Promise<HandleResolution> => {
      const res = await callApi('userSearch', { query: handle }, { signal });
      const wanted = handle.toLowerCase();
      const exact = res.items.find((u) => u.userName.toLowerCase() === wanted) ?? null;
      if (!exact && res.items.length === 0) throw new SkeinError('not-found', `No account matches @${handle}.`);
      return { user: exact, candidates: res.items.filter((u) => u !== exact).slice(0, 10) };
    },
  });

/** The user's posts; both flags are always sent (the live service and the spec disagree on defaults). */
export const timelineQuery = (userId: string, includeReplies: boolean, includeParentTweet: boolean) =>
  pagedApiQuery(userKeys.timeline(userId, includeReplies, includeParentTweet), 'userTimeline', {
    userId,
    includeReplies,
    includeParentTweet,
  });

export const mentionsQuery = (userName: string) =>
  pagedApiQuery(userKeys.mentions(userName), 'userMentions', { userName });
