import { useInfiniteQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { QUERY_TYPES, type QueryType } from '../../../../shared/api/catalog';
import type { Post } from '../../../../shared/api/schemas';
import { navigate } from '../../../app/navigation';
import { InfiniteFeed } from '../../../components/InfiniteFeed';
import { PostCard } from '../../../components/post/PostCard';
import { summarizePages } from '../../../lib/pages';
import { routes } from '../../../lib/routes';
import { buildThreadTree, chronological, threadRows, type ThreadRow } from '../../../lib/thread-tree';
import { useCollapsed, useUi } from '../../../state/ui';
import { ExportButton, exportView } from '../../export';
import { threadQuery } from '../queries';
import { ThreadRowView } from './ThreadRowView';

const NOUN = { one: 'reply', many: 'replies' };
const ORDER_LABEL: Record<QueryType, string> = { Relevance: 'Most relevant', Latest: 'Latest', Likes: 'Most liked' };

type Row = ThreadRow<Post> | { kind: 'flat'; key: string; post: Post };

/** Replies v2: threaded (tree rebuilt from inReplyToId) or flat oldest-first, in the API's three orders. */
export function RepliesThread({ postId, order, flat }: { postId: string; order: QueryType; flat: boolean }) {
  const query = useInfiniteQuery(threadQuery(postId, order));
  const summary = useMemo(() => summarizePages<Post>(query.data?.pages), [query.data]);
  const threadId = `${postId}:${order}`;
  const collapsed = useCollapsed(threadId);
  const collapseBranches = useUi((s) => s.collapseBranches);
  const expandAll = useUi((s) => s.expandAllBranches);
  const tree = useMemo(() => buildThreadTree(postId, summary.items), [postId, summary.items]);
  const rows: Row[] = useMemo(
    () => (flat ? chronological(summary.items).map((post) => ({ kind: 'flat' as const, key: post.id, post })) : threadRows(tree, collapsed)),
    [flat, summary.items, tree, collapsed],
  );
  const branchHeads = useMemo(
    () => tree.roots.filter((n) => n.descendants > 0).map((n) => (n.post ? n.id : `missing:${n.id}`)),
    [tree],
  );

  return (
    <>
      <div className="toolbar" role="group" aria-label="Reply options">
        <label>
          Order
          <select
            className="select"
            value={order}
            onChange={(e) => navigate(routes.post(postId, 'replies', e.target.value as QueryType, flat), { replace: true })}
          >
            {QUERY_TYPES.map((q) => (
              <option key={q} value={q}>
                {ORDER_LABEL[q]}
              </option>
            ))}
          </select>
        </label>
        <fieldset className="segmented">
          <legend className="visually-hidden">Layout</legend>
          <label>
            <input type="radio" name={`layout-${postId}`} checked={!flat} onChange={() => navigate(routes.post(postId, 'replies', order, false), { replace: true })} />
            Threaded
          </label>
          <label>
            <input type="radio" name={`layout-${postId}`} checked={flat} onChange={() => navigate(routes.post(postId, 'replies', order, true), { replace: true })} />
            Flat, oldest first
          </label>
        </fieldset>
        {!flat ? (
          <span className="toolbar__group">
            <button type="button" className="btn btn--small" onClick={() => expandAll(threadId)} disabled={collapsed.size === 0}>
              Expand all
            </button>
            <button type="button" className="btn btn--small" onClick={() => collapseBranches(threadId, branchHeads)} disabled={branchHeads.length === 0}>
              Collapse all
            </button>
          </span>
        ) : null}
        <ExportButton
          view={
            query.data
              ? exportView(
                  'thread',
                  { tweetId: postId, queryType: order },
                  { pages: query.data.pages.length, items: summary.items.length, reachedEnd: !query.hasNextPage },
                  { title: `Replies to ${postId}`, expectedItems: tree.focal?.replyCount },
                )
              : null
          }
        />
      </div>
      <InfiniteFeed
        query={query}
        summary={summary}
        rows={rows}
        getKey={(r) => r.key}
        renderRow={(r) => (r.kind === 'flat' ? <PostCard post={r.post} /> : <ThreadRowView row={r} threadId={threadId} />)}
        label="Replies"
        noun={NOUN}
        loadedCount={tree.size}
        empty="No replies yet."
      />
    </>
  );
}
