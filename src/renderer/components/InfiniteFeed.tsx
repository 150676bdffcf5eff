import type { InfiniteData, UseInfiniteQueryResult } from '@tanstack/react-query';
import { useCallback, type ReactNode } from 'react';
import { fullCount } from '../lib/format';
import type { PagesSummary } from '../lib/pages';
import { ErrorState } from './ErrorState';
import { EmptyState, Note, SkeletonCards, SkeletonList } from './states';
import { VirtualList } from './VirtualList';

export interface Noun {
  one: string;
  many: string;
}

export interface InfiniteFeedProps<T> {
  query: Pick<
    UseInfiniteQueryResult<InfiniteData<unknown, unknown>>,
    'status' | 'error' | 'refetch' | 'fetchNextPage' | 'hasNextPage' | 'isFetchingNextPage' | 'isFetchNextPageError'
  >;
  /** what the pages say; `items` counts what is loaded unless `loadedCount` does */
  summary: Pick<PagesSummary<unknown>, 'duplicatesRemoved' | 'dropped' | 'stop' | 'fromCache' | 'pages'> & {
    items?: readonly unknown[];
  };
  rows: readonly T[];
  getKey: (row: T, index: number) => string;
  renderRow: (row: T, index: number) => ReactNode;
  /** accessible name of the list ("Replies") */
  label: string;
  noun: Noun;
  empty: ReactNode;
  /** how many of `noun` are loaded, when not every item is one (a thread's first item may be its parent) */
  loadedCount?: number;
}

const plural = (n: number, noun: Noun) => `${fullCount(n)} ${n === 1 ? noun.one : noun.many}`;

/**
 * A cursor-paged list with every state: skeletons while the first page loads,
 * the error with what to do, empty, loading more, a paging-guard stop, the
 * end-of-list marker, and what was removed (repeats, unreadable items).
 */
export function InfiniteFeed<T>({
  query,
  summary,
  rows,
  getKey,
  renderRow,
  label,
  noun,
  empty,
  loadedCount,
}: InfiniteFeedProps<T>) {
  const { status, error, refetch, fetchNextPage, hasNextPage, isFetchingNextPage, isFetchNextPageError } = query;
  const loaded = loadedCount ?? summary.items?.length ?? 0;
  const canLoad = hasNextPage && !isFetchingNextPage && !isFetchNextPageError;
  const loadMore = useCallback(() => {
    if (canLoad) void fetchNextPage({ cancelRefetch: false });
  }, [canLoad, fetchNextPage]);

  if (status === 'pending') return <SkeletonList label={`Loading ${noun.many}…`} />;
  // with pages already shown, a failure (next page, refetch) stays in the list under what is loaded
  if (status === 'error' && summary.pages === 0)
    return <ErrorState error={error} what={noun.many} onRetry={() => void refetch()} />;

  const notes: string[] = [];
  if (summary.duplicatesRemoved > 0)
    notes.push(`${plural(summary.duplicatesRemoved, { one: 'duplicate', many: 'duplicates' })} removed`);
  if (summary.dropped > 0)
    notes.push(`${plural(summary.dropped, { one: 'unreadable item', many: 'unreadable items' })} skipped`);
  if (summary.fromCache) notes.push('served from cache, no new call');

  const footer = (
    <div className="list-footer">
      {notes.length ? <Note>{notes.join(' · ')}</Note> : null}
      {isFetchNextPageError ? (
        <ErrorState
          compact
          error={error}
          what={`more ${noun.many}`}
          onRetry={() => void fetchNextPage({ cancelRefetch: false })}
        />
      ) : status === 'error' ? (
        <ErrorState compact error={error} what={noun.many} onRetry={() => void refetch()} />
      ) : hasNextPage || isFetchingNextPage ? (
        // mounted as long as more can come: while a page loads, placeholders show and the button waits
        // (keeping keyboard focus); when it lands a few attributes change, nothing is rebuilt
        <div className="list-more">
          <div className="list-more__placeholders" hidden={!isFetchingNextPage} aria-hidden="true">
            <SkeletonCards count={2} />
          </div>
          <p className="visually-hidden" role="status">
            {isFetchingNextPage ? `Loading more ${noun.many}…` : ''}
          </p>
          <button type="button" className="btn" onClick={loadMore} aria-disabled={!canLoad || undefined}>
            Load more {noun.many}
          </button>
        </div>
      ) : summary.stop ? (
        <p className="list-end list-end--stop" role="status">
          Stopped after {plural(loaded, noun)}: {summary.stop}
        </p>
      ) : loaded > 0 ? (
        <p className="list-end" role="status">
          End of {noun.many} · {plural(loaded, noun)}
        </p>
      ) : null}
    </div>
  );

  if (loaded === 0 && !hasNextPage && !summary.stop) {
    return (
      <>
        {typeof empty === 'string' ? <EmptyState title={empty} /> : empty}
        {notes.length ? <Note>{notes.join(' · ')}</Note> : null}
      </>
    );
  }
  return (
    <VirtualList
      rows={rows}
      getKey={getKey}
      renderRow={renderRow}
      label={label}
      busy={isFetchingNextPage}
      onNearEnd={canLoad ? loadMore : undefined}
      footer={footer}
    />
  );
}
