import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { memo, useCallback, useEffect, useMemo } from 'react';
import { QUERY_TYPES, type QueryType } from '../../../../shared/api/catalog';
import type { Post } from '../../../../shared/api/schemas';
import { navigate } from '../../../app/navigation';
import { InfiniteFeed } from '../../../components/InfiniteFeed';
import { PostCard } from '../../../components/post/PostCard';
import { summarizePages, type PageParam } from '../../../lib/pages';
import { routes } from '../../../lib/routes';
import { buildThreadTree, chronological, threadRows, type ThreadPost, type ThreadRow } from '../../../lib/thread-tree';
import { useCollapsed, useUi } from '../../../state/ui';
import { ExportButton, exportView } from '../../export';
import { postKeys, threadQuery } from '../queries';
import { outlineOf, type OutlinePost } from '../thread-outline';
import { ThreadRowView } from './ThreadRowView';

const NOUN = { one: 'reply', many: 'replies' };
const ORDER_LABEL: Record<QueryType, string> = { Relevance: 'Most relevant', Latest: 'Latest', Likes: 'Most liked' };
const MAX_INDENT = 12;
/** pages from an end of the window at which the page beyond it is asked for */
const EDGE_PAGES = 2;

type Row = ThreadRow<ThreadPost> | { kind: 'flat'; key: string; post: Post };

const pageOf = (p: ThreadPost): number | null => (p as Partial<OutlinePost>).page ?? null;

/**
 * Replies v2: threaded (tree rebuilt from inReplyToId) or flat oldest-first, in the API's three orders.
 * Threaded, the replies are a window of pages (`threadQuery`) over the outline of every reply paged
 * through: rows never move, a row whose page left the window waits for it, and reaching the first or
 * last page of the window brings the one beyond it back (from main's store, no new call).
 */
export function RepliesThread({ postId, order, flat }: { postId: string; order: QueryType; flat: boolean }) {
  const query = useInfiniteQuery(threadQuery(postId, order, flat));
  const client = useQueryClient();
  const outline = outlineOf(client, postKeys.thread(postId, order), postId);
  const version = outline.version;
  const summary = useMemo(() => summarizePages<Post>(query.data?.pages), [query.data]);
  const held = useMemo(() => new Map(summary.items.map((p) => [p.id, p])), [summary.items]);
  const threadId = `${postId}:${order}`;
  const collapsed = useCollapsed(threadId);
  const collapseBranches = useUi((s) => s.collapseBranches);
  const expandAll = useUi((s) => s.expandAllBranches);
  // threaded: the tree of the whole outline, rebuilt when it grows (`version`), not when the window moves
  const outlineTree = useMemo(() => (flat || version < 0 ? null : outline.tree()), [flat, outline, version]);
  const flatTree = useMemo(() => (flat ? buildThreadTree<ThreadPost>(postId, summary.items) : null), [flat, postId, summary.items]);
  const tree = outlineTree ?? flatTree ?? buildThreadTree<ThreadPost>(postId, []);
  const focal = (flat ? summary.items.find((p) => p.id === postId) : (held.get(postId) ?? outline.focal)) ?? null;
  const threaded = useMemo(() => (outlineTree ? threadRows(outlineTree, collapsed) : []), [outlineTree, collapsed]);
  const chrono = useMemo(() => (flat ? chronological(summary.items).map((post) => ({ kind: 'flat' as const, key: post.id, post })) : []), [flat, summary.items]);
  const rows: Row[] = flat ? chrono : threaded;
  const branchHeads = useMemo(
    () => tree.roots.filter((n) => n.descendants > 0).map((n) => (n.post ? n.id : `missing:${n.id}`)),
    [tree],
  );

  // the window: the first and last page it holds; a row within EDGE_PAGES of either end being
  // rendered brings the page beyond it in, early enough that its rows are never seen waiting
  const params = query.data?.pageParams as PageParam[] | undefined;
  const first = params?.[0]?.index ?? 0;
  const last = params?.[params.length - 1]?.index ?? 0;
  const known = outline.pages;
  const { fetchPreviousPage, fetchNextPage } = query;
  const onShown = useCallback(
    (page: number) => {
      if (page < first + EDGE_PAGES && first > 0) void fetchPreviousPage({ cancelRefetch: false });
      else if (page > last - EDGE_PAGES && last < known - 1) void fetchNextPage({ cancelRefetch: false });
    },
    [first, last, known, fetchPreviousPage, fetchNextPage],
  );
  const feedSummary = flat
    ? summary
    : { items: summary.items, duplicatesRemoved: outline.duplicatesRemoved, dropped: outline.dropped, stop: outline.stop, fromCache: summary.fromCache, pages: known };

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
                  { pages: feedSummary.pages, items: flat ? summary.items.length : outline.entries.length, reachedEnd: !query.hasNextPage },
                  { title: `Replies to ${postId}`, expectedItems: focal?.replyCount },
                )
              : null
          }
        />
      </div>
      <InfiniteFeed
        query={query}
        summary={feedSummary}
        rows={rows}
        getKey={(r) => r.key}
        renderRow={(r) =>
          r.kind === 'flat' ? (
            <PostCard post={r.post} />
          ) : (
            <ThreadSlot row={r} post={r.kind === 'post' ? ((r.isFocal ? focal : held.get(r.key)) ?? null) : null} threadId={threadId} onShown={onShown} />
          )
        }
        label="Replies"
        noun={NOUN}
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
  row: ThreadRow<ThreadPost>;
  post: Post | null;
  threadId: string;
  onShown: (page: number) => void;
}) {
  const page = row.kind === 'post' ? pageOf(row.post) : null;
  useEffect(() => {
    if (page !== null) onShown(page);
  }, [page, onShown]);
  if (row.kind === 'missing') return <ThreadRowView row={row} threadId={threadId} />;
  if (!post) return <PendingRow depth={row.depth} />;
  return <ThreadRowView row={{ ...row, post }} threadId={threadId} />;
});

function PendingRow({ depth }: { depth: number }) {
  return (
    <div className={`thread-row${depth > 0 ? ' thread-row--nested' : ''}`} style={{ ['--depth' as string]: Math.min(depth, MAX_INDENT) }} aria-busy="true">
      <div className="thread-row__rail" />
      <div className="thread-row__body">
        <div className="skeleton" role="status">
          <span className="visually-hidden">Loading this reply…</span>
          <span className="skeleton__avatar" aria-hidden="true" />
          <span className="skeleton__lines" aria-hidden="true">
            <span className="skeleton__line skeleton__line--short" />
            <span className="skeleton__line" />
            <span className="skeleton__line skeleton__line--mid" />
          </span>
        </div>
      </div>
    </div>
  );
}
