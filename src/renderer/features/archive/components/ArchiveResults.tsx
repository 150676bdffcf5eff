import { useInfiniteQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { CardPost, User } from '../../../../shared/api/schemas';
import type { ArchiveHit, ArchiveQuery } from '../../../../shared/ipc/archive';
import { InfiniteFeed } from '../../../components/InfiniteFeed';
import { PostCard } from '../../../components/post/PostCard';
import { UserCard } from '../../../components/UserCard';
import { formatRoute, routes } from '../../../lib/routes';
import { stamp } from '../../../lib/time';
import { archiveSearchQuery } from '../queries';

/** One kept item: its card, and where it came from (first and last seen, how many answers returned it). */
function HitRow({ hit }: { hit: ArchiveHit }) {
  return (
    <div className="archive-hit">
      {hit.unread ? (
        <p className="note" role="note">
          The kept copy of {hit.kind === 'post' ? 'post' : 'account'} {hit.id} cannot be read: it is damaged in the
          project file. Where it came from is below.
        </p>
      ) : hit.kind === 'post' ? (
        <PostCard post={hit.item as CardPost} />
      ) : (
        <UserCard user={hit.item as User} />
      )}
      <p className="archive-hit__provenance">
        Returned by {hit.requests} {hit.requests === 1 ? 'request' : 'requests'} · first seen {stamp(hit.firstSeen)}
        {hit.lastSeen !== hit.firstSeen ? ` · last seen ${stamp(hit.lastSeen)}` : ''} ·{' '}
        <a href={formatRoute(routes.counters(hit.kind, hit.id))}>Counters over time</a>
      </p>
    </div>
  );
}

/** The search's results in the same virtualized list as every other view; pages come from the project, not the API. */
export function ArchiveResults({ query }: { query: ArchiveQuery }) {
  const result = useInfiniteQuery(archiveSearchQuery(query));
  const rows = useMemo(() => result.data?.pages.flatMap((p) => p.hits) ?? [], [result.data]);
  const tookMs = result.data?.pages[0]?.tookMs;
  const noun = query.kind === 'user' ? { one: 'person', many: 'people' } : { one: 'post', many: 'posts' };
  return (
    <>
      <p className="archive-status" role="status">
        {result.status === 'success'
          ? `${rows.length}${result.hasNextPage ? '+' : ''} ${rows.length === 1 ? noun.one : noun.many} found in this project, offline: no API call${tookMs !== undefined ? ` (${Math.round(tookMs)} ms)` : ''}.`
          : 'Searching this project…'}
      </p>
      <InfiniteFeed
        query={result}
        summary={{
          items: rows,
          duplicatesRemoved: 0,
          dropped: 0,
          stop: null,
          fromCache: false,
          pages: result.data?.pages.length ?? 0,
        }}
        rows={rows}
        getKey={(h) => `${h.kind}:${h.id}`}
        renderRow={(h) => <HitRow hit={h} />}
        label="Archive results"
        noun={noun}
        empty="Nothing in this project matches. Items are kept here as you browse."
      />
    </>
  );
}
