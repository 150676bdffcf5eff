/**
 * Posts and accounts by id, and an account by handle: the lookups several views share (the Go box, Lookup,
 * Hydrate, a post, a profile and its pinned posts). Each has one key, so what one view looked up is not asked
 * again from another. The keys sit under the `post` and `user` namespaces of those views' own key factories.
 */
import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { STALE_TIME_MS } from '../../shared/api/cache-policy';
import type { User } from '../../shared/api/schemas';
import { SkeinError } from '../../shared/errors';
import { apiQuery } from './api-query';
import { callApi } from './bridge';

const lookupKeys = {
  /** one batch of `postsByIds` (at most 100 ids) */
  postsByIds: (ids: readonly string[]) => ['post', 'byIds', ids.join(',')] as const,
  /** one batch of `usersByIds` (at most 100 ids) */
  usersByIds: (ids: readonly string[]) => ['user', 'byIds', ids.join(',')] as const,
  userByHandle: (handle: string) => ['user', 'byHandle', handle.toLowerCase()] as const,
};

export const postsByIdsQuery = (ids: readonly string[]) =>
  apiQuery(lookupKeys.postsByIds(ids), 'postsByIds', { tweet_ids: ids.join(',') });

export const usersByIdsQuery = (ids: readonly string[]) =>
  apiQuery(lookupKeys.usersByIds(ids), 'usersByIds', { userIds: ids.join(',') });

/** What a handle resolves to: the exact match, or the nearest candidates when none matches exactly. */
export type HandleResolution = { user: User; candidates: User[] } | { user: null; candidates: User[] };

/** `@handle` → user, through people search (exact handle match first). */
export const handleQuery = (handle: string) =>
  queryOptions({
    queryKey: lookupKeys.userByHandle(handle),
    staleTime: STALE_TIME_MS.userSearch,
    queryFn: async ({ signal }): Promise<HandleResolution> => {
      const res = await callApi('userSearch', { query: handle }, { signal });
      const wanted = handle.toLowerCase();
      const exact = res.items.find((u) => u.userName.toLowerCase() === wanted) ?? null;
      if (!exact && res.items.length === 0) throw new SkeinError('not-found', `No account matches @${handle}.`);
      return { user: exact, candidates: res.items.filter((u) => u !== exact).slice(0, 10) };
    },
  });

/** What resolving many handles gave: each handle's account id, or why it has none (in plain words). */
export type HandlesResolved = Array<{ handle: string; id: string } | { handle: string; why: string }>;

/**
 * Many `@handles` → account ids, one people search each (the API has no lookup by handles), in turn; what one
 * view resolved is not asked again (`handleQuery`'s key). `onProgress(i)`: the i-th handle is being asked.
 */
export async function resolveHandles(
  qc: QueryClient,
  handles: readonly string[],
  onProgress: (i: number) => void = () => undefined,
): Promise<HandlesResolved> {
  const out: HandlesResolved = [];
  for (const [i, handle] of handles.entries()) {
    onProgress(i);
    try {
      const found = await qc.fetchQuery(handleQuery(handle));
      out.push(found.user ? { handle, id: found.user.id } : { handle, why: 'no account has exactly this handle' });
    } catch (e) {
      out.push({ handle, why: e instanceof Error ? e.message : 'could not be resolved' });
    }
  }
  return out;
}
