import type { InfiniteData, UseInfiniteQueryResult } from '@tanstack/react-query';
import { useMemo, type ReactNode } from 'react';
import type { CardPost } from '../../shared/api/schemas';
import type { ApiCallOutput } from '../../shared/ipc/api';
import { summarizePages, type PagesSummary } from '../lib/pages';
import { InfiniteFeed, type Noun } from './InfiniteFeed';
import { PostCard } from './post/PostCard';

/** A page of any post-returning paged operation. */
export type PostPage = Omit<ApiCallOutput, 'items' | 'operation'> & { items: CardPost[] };

const POSTS: Noun = { one: 'post', many: 'posts' };

interface Props {
  query: UseInfiniteQueryResult<InfiniteData<PostPage, unknown>>;
  label: string;
  noun?: Noun;
  empty: ReactNode;
  /** the pages summarized already (a view that also needs the count, e.g. for export); computed here otherwise */
  summary?: PagesSummary<CardPost>;
  /** the post a Quotes list is about: its copy inside each quote collapses to one line */
  collapseQuoteOf?: string;
}

/** An infinite, virtualized list of post cards with all list states. */
export function PostFeed({ query, label, noun = POSTS, empty, summary: given, collapseQuoteOf }: Props) {
  const summary = useMemo(() => given ?? summarizePages<CardPost>(query.data?.pages), [given, query.data]);
  return (
    <InfiniteFeed
      query={query}
      summary={summary}
      rows={summary.items}
      getKey={(p) => p.id}
      renderRow={(p) => <PostCard post={p} collapseQuoteOf={collapseQuoteOf} />}
      label={label}
      noun={noun}
      empty={empty}
    />
  );
}
