import { useInfiniteQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { QueryType } from '../../../../shared/api/catalog';
import type { CardPost } from '../../../../shared/api/schemas';
import { InfiniteFeed } from '../../../components/InfiniteFeed';
import { PostCard } from '../../../components/post/PostCard';
import { summarizePages } from '../../../lib/pages';
import { threadQuery } from '../queries';
import { REPLY_NOUN, RepliesToolbar } from './RepliesToolbar';
import { ThreadedReplies } from './ThreadedReplies';

/**
 * Replies v2, in the API's three orders (newest, most relevant or most liked first): threaded (a tree from
 * inReplyToId, `ThreadedReplies`) or flat, in the API's own order.
 */
export function RepliesThread({
  postId,
  order,
  flat,
  label,
}: {
  postId: string;
  order: QueryType;
  flat: boolean;
  /** the post as export titles name it (author and first words), known before any reply page */
  label?: string;
}) {
  return flat ? (
    <FlatReplies postId={postId} order={order} label={label} />
  ) : (
    <ThreadedReplies postId={postId} order={order} label={label} />
  );
}

/** Flat: every page, in the order the API sent them, pages appended below: loading more never moves what is read. */
function FlatReplies({ postId, order, label }: { postId: string; order: QueryType; label: string | undefined }) {
  // the same options object while the view shows the same thread: the observer then finds nothing changed
  const query = useInfiniteQuery(useMemo(() => threadQuery(postId, order, true), [postId, order]));
  const summary = useMemo(() => summarizePages<CardPost>(query.data?.pages), [query.data]);
  const rows = useMemo(() => summary.items.map((post) => ({ key: post.id, post })), [summary.items]);
  const focal = summary.items.find((p) => p.id === postId) ?? null;
  // every reply loaded, once each (the summary holds each id once); the focal post is not a reply
  const replies = focal ? summary.items.length - 1 : summary.items.length;
  return (
    <>
      <RepliesToolbar
        postId={postId}
        order={order}
        flat
        focal={focal}
        label={label}
        loaded={
          query.data ? { pages: summary.pages, items: summary.items.length, reachedEnd: !query.hasNextPage } : null
        }
      />
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
