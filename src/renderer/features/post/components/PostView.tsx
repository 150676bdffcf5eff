import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { CardPost } from '../../../../shared/api/schemas';
import { navigate } from '../../../lib/navigation';
import { CopyIdButton } from '../../../components/CopyIdButton';
import { ErrorState } from '../../../components/ErrorState';
import { PostCard } from '../../../components/post/PostCard';
import { PostFeed } from '../../../components/PostFeed';
import { EmptyState, SkeletonList } from '../../../components/states';
import { Tabs } from '../../../components/Tabs';
import { compactCount, readCount } from '../../../lib/format';
import { summarizePages } from '../../../lib/pages';
import { routes, type PostTab, type Route } from '../../../lib/routes';
import { postName } from '../../../lib/titles';
import { carriesArticle, OpenArticleButton } from '../../article';
import { ExportButton, pagedExportView } from '../../export';
import { postsByIdsQuery } from '../../../lib/lookups';
import { directRepliesQuery, quotesQuery } from '../queries';
import { RepliesThread } from './RepliesThread';
import './post-view.css';

type PostRoute = Extract<Route, { name: 'post' }>;

/** A post, then its replies (threaded v2), direct replies (v1) and quotes. */
export function PostView({ route }: { route: PostRoute }) {
  const { id, tab, order, flat, oldest } = route;
  const detail = useQuery(postsByIdsQuery([id]));
  const post = detail.data?.items.find((p) => p.id === id) ?? null;

  const tabs = [
    // the API's replyCount counts direct replies; the tab shows the whole conversation
    { id: 'replies' as const, label: 'Replies', count: post ? directCount(post.replyCount) : null },
    { id: 'direct' as const, label: 'Direct replies', count: null },
    { id: 'quotes' as const, label: 'Quotes', count: post ? countOf(post.quoteCount) : null },
  ];

  return (
    <div className="view view--post">
      <header className="view__header">
        <h1 tabIndex={-1}>Post</h1>
        <div className="view__actions">
          <CopyIdButton id={id} what="post" />
        </div>
      </header>
      {detail.status === 'pending' ? (
        <SkeletonList count={1} label="Loading the post…" />
      ) : detail.status === 'error' ? (
        <ErrorState error={detail.error} what="the post" onRetry={() => void detail.refetch()} />
      ) : post ? (
        <>
          <PostCard post={post} variant="focal" />
          {carriesArticle(post) ? <OpenArticleButton postId={post.id} /> : null}
        </>
      ) : (
        <EmptyState title="This post was not found">
          The API did not return post {id}. It may have been deleted or made private, or the id is wrong.
        </EmptyState>
      )}
      {/* a post that failed or does not exist has no replies to ask for: one error, one call */}
      {post ? (
        <Tabs<PostTab>
          label="Post sections"
          manual
          tabs={tabs}
          selected={tab}
          idPrefix={`post-${id}`}
          onSelect={(t) => navigate(routes.post(id, t, order, flat, oldest), { replace: true })}
        >
          {tab === 'replies' ? (
            <RepliesThread postId={id} order={order} flat={flat} oldest={oldest} label={postName(post, id)} />
          ) : tab === 'direct' ? (
            <DirectReplies postId={id} label={postName(post, id)} />
          ) : (
            <Quotes postId={id} label={postName(post, id)} quoteCount={post.quoteCount ?? null} />
          )}
        </Tabs>
      ) : null}
    </div>
  );
}

function countOf(v: unknown): string | null {
  const n = readCount(v);
  return n === null ? null : compactCount(n);
}

function directCount(v: unknown): string | null {
  const n = countOf(v);
  return n === null ? null : `${n} direct`;
}

function DirectReplies({ postId, label }: { postId: string; label: string }) {
  const query = useInfiniteQuery(directRepliesQuery(postId));
  const summary = useMemo(() => summarizePages<CardPost>(query.data?.pages), [query.data]);
  return (
    <>
      <div className="toolbar" role="group" aria-label="Direct reply options">
        <ExportButton
          view={pagedExportView('directReplies', { tweetId: postId }, query, summary.items.length, {
            title: `Direct replies to ${label}`,
          })}
        />
      </div>
      <PostFeed
        query={query}
        summary={summary}
        label="Direct replies"
        noun={{ one: 'direct reply', many: 'direct replies' }}
        empty="No direct replies."
      />
    </>
  );
}

function Quotes({ postId, label, quoteCount }: { postId: string; label: string; quoteCount: number | null }) {
  const query = useInfiniteQuery(quotesQuery(postId));
  const summary = useMemo(() => summarizePages<CardPost>(query.data?.pages), [query.data]);
  return (
    <>
      <div className="toolbar" role="group" aria-label="Quote options">
        <ExportButton
          view={pagedExportView('quotes', { tweetId: postId }, query, summary.items.length, {
            title: `Quotes of ${label}`,
            expectedItems: quoteCount,
          })}
        />
      </div>
      <PostFeed
        query={query}
        summary={summary}
        collapseQuoteOf={postId}
        label="Quotes"
        noun={{ one: 'quote', many: 'quotes' }}
        empty="Nobody has quoted this post yet."
      />
    </>
  );
}
