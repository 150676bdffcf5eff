import { useInfiniteQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { QueryType } from '../../../../shared/api/catalog';
import type { CardPost } from '../../../../shared/api/schemas';
import { InfiniteFeed } from '../../../components/InfiniteFeed';
import { PostCard } from '../../../components/post/PostCard';
import { summarizePages } from '../../../lib/pages';
import { threadQuery } from '../queries';
import { FLAT_LABEL, flatSort, sortFlat } from '../flat-order';
import { REPLY_NOUN, RepliesToolbar } from './RepliesToolbar';
import { ThreadedReplies } from './ThreadedReplies';

/**
 * Replies v2, in the API's three orders (newest, most relevant or most liked first): threaded (a tree from
 * inReplyToId, `ThreadedReplies`) or flat, in exactly the order its control says (flat-order.ts).
 */
export function RepliesThread({
  postId,
  order,
  flat,
  oldest = false,
  label,
}: {
  postId: string;
  order: QueryType;
  flat: boolean;
  /** flat, oldest first (once every reply is loaded) */
  oldest?: boolean;
  /** the post as export titles name it (author and first words), known before any reply page */
  label?: string;
}) {
  return flat ? (
    <FlatReplies postId={postId} order={order} oldest={oldest} label={label} />
  ) : (
    <ThreadedReplies postId={postId} order={order} label={label} />
  );
}

/**
 * Flat: every reply loaded, the post itself first, sorted as the control says and sorted again as each page
 * arrives (a later page of the depth-first listing can hold newer replies than the ones shown).
 */
function FlatReplies({
  postId,
  order,
  oldest,
  label,
}: {
  postId: string;
  order: QueryType;
  oldest: boolean;
  label: string | undefined;
}) {
  // the same options object while the view shows the same thread: the observer then finds nothing changed
  const query = useInfiniteQuery(useMemo(() => threadQuery(postId, order, true), [postId, order]));
  const summary = useMemo(() => summarizePages<CardPost>(query.data?.pages), [query.data]);
  const complete = query.data !== undefined && !query.hasNextPage;
  // oldest first is only true with every reply: until then the list keeps the order's own sort, and says so
  const sort = flatSort(order, oldest && complete);
  const focal = summary.items.find((p) => p.id === postId) ?? null;
  const rows = useMemo(() => {
    const replies = sortFlat(
      summary.items.filter((p) => p.id !== postId),
      sort,
    );
    return (focal ? [focal, ...replies] : replies).map((post) => ({ key: post.id, post }));
  }, [summary.items, sort, postId, focal]);
  // every reply loaded, once each (the summary holds each id once); the focal post is not a reply
  const replies = focal ? summary.items.length - 1 : summary.items.length;
  return (
    <>
      <RepliesToolbar
        postId={postId}
        order={order}
        flat
        oldest={sort === 'oldest'}
        oldestAvailable={complete}
        focal={focal}
        label={label}
        loaded={
          query.data ? { pages: summary.pages, items: summary.items.length, reachedEnd: !query.hasNextPage } : null
        }
      />
      {oldest && sort !== 'oldest' ? (
        <p className="muted" role="status">
          Oldest first needs every reply loaded (the listing pages back in time): showing {FLAT_LABEL[sort]} until the
          last page is in.
        </p>
      ) : null}
      <InfiniteFeed
        query={query}
        summary={summary}
        rows={rows}
        getKey={(r) => r.key}
        renderRow={(r) => <PostCard post={r.post} />}
        label="Replies"
        noun={REPLY_NOUN}
        loadedCount={replies}
        empty="No replies yet."
      />
    </>
  );
}
