import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { memo, useCallback, useEffect, useLayoutEffect, useMemo, useRef } from 'react';
import type { QueryType } from '../../../../shared/api/catalog';
import type { CardPost } from '../../../../shared/api/schemas';
import { InfiniteFeed } from '../../../components/InfiniteFeed';
import { PostCard } from '../../../components/post/PostCard';
import { SkeletonShapes } from '../../../components/states';
import { allFromCache, summarizePages, type PageParam } from '../../../lib/pages';
import { postName } from '../../../lib/titles';
import { buildThreadTree, rowKey, type ThreadPost, type ThreadRow } from '../../../lib/thread-tree';
import { useCollapsed, useUi } from '../../../state/ui';
import { ExportButton, exportView } from '../../export';
import { postKeys, threadQuery } from '../queries';
import { heldPost, outlineOf, type OutlinePost } from '../thread-outline';
import { ReplyControls } from './ReplyControls';
import { ThreadRowView } from './ThreadRowView';

const NOUN = { one: 'reply', many: 'replies' };
const MAX_INDENT = 12;
/** pages from an end of the window at which the page beyond it is asked for */
const EDGE_PAGES = 2;

type Row = ThreadRow<ThreadPost> | { kind: 'flat'; key: string; post: CardPost };

const pageOf = (p: ThreadPost): number | null => (p as Partial<OutlinePost>).page ?? null;

/**
 * Replies v2: threaded (tree rebuilt from inReplyToId) or flat in the API's own order (newest, most relevant
 * or most liked first), in the API's three orders.
 * Threaded, the replies are a window of pages (`threadQuery`) over the outline of every reply paged
 * through: rows never move, a row whose page left the window waits for it, and reaching the first or
 * last page of the window brings the one beyond it back (from main's store, no new call).
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
  // the same options object while the view shows the same thread: the observer then finds nothing changed
  const query = useInfiniteQuery(useMemo(() => threadQuery(postId, order, flat), [postId, order, flat]));
  const client = useQueryClient();
  const outline = outlineOf(client, postKeys.thread(postId, order), postId);
  const version = outline.version;
  // flat: every page summarized (it sorts them all); threaded: rows find their post in their own page
  const summary = useMemo(() => summarizePages<CardPost>(flat ? query.data?.pages : undefined), [flat, query.data]);
  const fromCache = useMemo(() => allFromCache(query.data?.pages), [query.data]);
  const params = query.data?.pageParams as PageParam[] | undefined;
  const threadId = `${postId}:${order}`;
  const collapsed = useCollapsed(threadId);
  const collapseBranches = useUi((s) => s.collapseBranches);
  const expandAll = useUi((s) => s.expandAllBranches);
  // threaded: the tree of the whole outline, rebuilt when it grows (`version`), not when the window moves
  const outlineTree = useMemo(() => (flat || version < 0 ? null : outline.tree()), [flat, outline, version]);
  const flatTree = useMemo(
    () => (flat ? buildThreadTree<ThreadPost>(postId, summary.items) : null),
    [flat, postId, summary.items],
  );
  const tree = outlineTree ?? flatTree ?? buildThreadTree<ThreadPost>(postId, []);
  const focal =
    (flat
      ? summary.items.find((p) => p.id === postId)
      : (heldPost(query.data?.pages, params, postId, outline.focalPage) ?? outline.focal)) ?? null;
  const threaded = useMemo(() => (outlineTree ? outline.rows(collapsed) : []), [outlineTree, outline, collapsed]);
  // flat: in the order the API sent them, pages appended below: loading more never moves what is read
  const chrono = useMemo(
    () => (flat ? summary.items.map((post) => ({ kind: 'flat' as const, key: post.id, post })) : []),
    [flat, summary.items],
  );
  const rows: Row[] = flat ? chrono : threaded;
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
  const feedSummary = flat
    ? summary
    : {
        duplicatesRemoved: outline.duplicatesRemoved,
        dropped: outline.dropped,
        stop: outline.stop,
        fromCache,
        pages: known,
      };

  return (
    <>
      <div className="toolbar" role="group" aria-label="Reply options">
        <ReplyControls postId={postId} order={order} flat={flat} />
        {!flat ? (
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
        ) : null}
        <ExportButton
          view={
            query.data
              ? exportView(
                  'thread',
                  { tweetId: postId, queryType: order },
                  {
                    pages: feedSummary.pages,
                    items: flat ? summary.items.length : outline.entries.length,
                    reachedEnd: !query.hasNextPage,
                  },
                  { title: `Replies to ${label ?? postName(focal, postId)}`, expectedItems: focal?.replyCount },
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
            <ThreadSlot
              row={r}
              post={
                r.kind === 'post'
                  ? r.isFocal
                    ? focal
                    : heldPost(query.data?.pages, params, r.key, pageOf(r.post))
                  : null
              }
              threadId={threadId}
              onShown={onShown}
            />
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
  post: CardPost | null;
  threadId: string;
  /** a row of `page` is mounted; returns its unmount */
  onShown: (page: number) => () => void;
}) {
  const page = row.kind === 'post' ? pageOf(row.post) : null;
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
