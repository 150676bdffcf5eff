import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { memo, useCallback, useEffect, useLayoutEffect, useMemo, useRef } from 'react';
import type { QueryType } from '../../../../shared/api/catalog';
import type { CardPost } from '../../../../shared/api/schemas';
import { InfiniteFeed } from '../../../components/InfiniteFeed';
import { SkeletonShapes } from '../../../components/states';
import { allFromCache, type PageParam } from '../../../lib/pages';
import { rowKey, type ThreadRow } from '../../../lib/thread-tree';
import { useCollapsed, useUi } from '../../../state/ui';
import { postKeys, threadQuery } from '../queries';
import { heldPost, useThreadOutline, type OutlinePost } from '../thread-outline';
import { REPLY_NOUN, RepliesToolbar } from './RepliesToolbar';
import { ThreadRowView } from './ThreadRowView';

const MAX_INDENT = 12;
/** pages from an end of the window at which the page beyond it is asked for */
const EDGE_PAGES = 2;

/**
 * Threaded replies: a window of pages (`threadQuery`) over the outline of every reply paged through
 * (thread-outline.ts): rows never move, a row whose page left the window waits for it, and reaching the first
 * or last page of the window brings the one beyond it back (from main's store, no new call).
 */
export function ThreadedReplies({
  postId,
  order,
  label,
}: {
  postId: string;
  order: QueryType;
  label: string | undefined;
}) {
  // the same options object while the view shows the same thread: the observer then finds nothing changed
  const query = useInfiniteQuery(useMemo(() => threadQuery(postId, order), [postId, order]));
  const snapshot = useThreadOutline(useQueryClient(), postKeys.thread(postId, order), postId);
  const { outline } = snapshot;
  const fromCache = useMemo(() => allFromCache(query.data?.pages), [query.data]);
  const params = query.data?.pageParams as PageParam[] | undefined;
  const threadId = `${postId}:${order}`;
  const collapsed = useCollapsed(threadId);
  const collapseBranches = useUi((s) => s.collapseBranches);
  const expandAll = useUi((s) => s.expandAllBranches);
  // the tree of the whole outline and its rows: redone when the outline changes, not when the window moves
  const tree = useMemo(() => snapshot.outline.tree(), [snapshot]);
  const rows = useMemo(() => snapshot.outline.rows(collapsed), [snapshot, collapsed]);
  const focal = heldPost(query.data?.pages, params, postId, outline.focalPage) ?? outline.focal;
  // "Collapse all" needs the heads only when pressed; each page only asks whether there is one
  const hasBranches = useMemo(() => tree.roots.some((n) => n.descendants > 0), [tree]);
  const collapseAll = () => collapseBranches(threadId, tree.roots.filter((n) => n.descendants > 0).map(rowKey));

  // the window: the first and last page it holds; a row within EDGE_PAGES of either end being
  // rendered brings the page beyond it in, early enough that its rows are never seen waiting
  const first = params?.[0]?.index ?? 0;
  const last = params?.[params.length - 1]?.index ?? 0;
  const known = outline.pages;
  const { fetchPreviousPage, fetchNextPage } = query;
  // the pages of the rows on screen (and in the overscan), counted as rows mount and unmount; checked
  // when a row mounts and whenever the window moves, so a reader who stopped over rows still waiting
  // for their page keeps the window coming to them. One callback for the life of the view: a new one
  // per page would render every visible row again each time a page arrives.
  const edges = useRef({ first, last, known, fetchPreviousPage, fetchNextPage });
  const shown = useRef(new Map<number, number>());
  const check = useCallback(() => {
    const w = edges.current;
    if (shown.current.size === 0) return;
    const pages = [...shown.current.keys()];
    if (Math.min(...pages) < w.first + EDGE_PAGES && w.first > 0) void w.fetchPreviousPage({ cancelRefetch: false });
    if (Math.max(...pages) > w.last - EDGE_PAGES && w.last < w.known - 1)
      void w.fetchNextPage({ cancelRefetch: false });
  }, []);
  useLayoutEffect(() => {
    edges.current = { first, last, known, fetchPreviousPage, fetchNextPage };
  });
  useEffect(check, [first, last, known, check]);
  const onShown = useCallback(
    (page: number) => {
      const rows = shown.current;
      rows.set(page, (rows.get(page) ?? 0) + 1);
      check();
      return () => {
        const n = (rows.get(page) ?? 1) - 1;
        if (n > 0) rows.set(page, n);
        else rows.delete(page);
      };
    },
    [check],
  );
  const feedSummary = {
    duplicatesRemoved: outline.duplicatesRemoved,
    dropped: outline.dropped,
    stop: outline.stop,
    fromCache,
    pages: known,
  };

  return (
    <>
      <RepliesToolbar
        postId={postId}
        order={order}
        flat={false}
        focal={focal}
        label={label}
        loaded={query.data ? { pages: known, items: outline.entries.length, reachedEnd: !query.hasNextPage } : null}
      >
        <span className="toolbar__group">
          <button
            type="button"
            className="btn btn--small"
            onClick={() => expandAll(threadId)}
            disabled={collapsed.size === 0}
          >
            Expand all
          </button>
          <button type="button" className="btn btn--small" onClick={collapseAll} disabled={!hasBranches}>
            Collapse all
          </button>
        </span>
      </RepliesToolbar>
      <InfiniteFeed
        query={query}
        summary={feedSummary}
        rows={rows}
        getKey={(r) => r.key}
        renderRow={(r) => (
          <ThreadSlot
            row={r}
            post={
              r.kind === 'post' ? (r.isFocal ? focal : heldPost(query.data?.pages, params, r.key, r.post.page)) : null
            }
            threadId={threadId}
            onShown={onShown}
          />
        )}
        label="Replies"
        noun={REPLY_NOUN}
        loadedCount={tree.size}
        empty="No replies yet."
      />
    </>
  );
}

/** One row of the threaded view: the reply when its page is in the window, a placeholder until it is. */
const ThreadSlot = memo(function ThreadSlot({
  row,
  post,
  threadId,
  onShown,
}: {
  row: ThreadRow<OutlinePost>;
  post: CardPost | null;
  threadId: string;
  /** a row of `page` is mounted; returns its unmount */
  onShown: (page: number) => () => void;
}) {
  const page = row.kind === 'post' ? row.post.page : null;
  useEffect(() => (page !== null ? onShown(page) : undefined), [page, onShown]);
  if (row.kind === 'missing') return <ThreadRowView row={row} threadId={threadId} />;
  if (!post) return <PendingRow depth={row.depth} />;
  return <ThreadRowView row={{ ...row, post }} threadId={threadId} />;
});

function PendingRow({ depth }: { depth: number }) {
  return (
    <div
      className={`thread-row${depth > 0 ? ' thread-row--nested' : ''}`}
      style={{ ['--depth' as string]: Math.min(depth, MAX_INDENT) }}
      aria-busy="true"
    >
      <div className="thread-row__rail" />
      <div className="thread-row__body">
        <div className="skeleton" role="status">
          <span className="visually-hidden">Loading this reply…</span>
          <SkeletonShapes />
        </div>
      </div>
    </div>
  );
}
