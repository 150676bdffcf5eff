/** An infinite list of entries whose shape the spec does not give, with every list state. */
import type { InfiniteData, UseInfiniteQueryResult } from '@tanstack/react-query';
import { useMemo, type ReactNode } from 'react';
import type { ApiCallOutput } from '../../../shared/ipc/api';
import { InfiniteFeed, type Noun } from '../InfiniteFeed';
import type { PagesSummary } from '../../lib/pages';
import { summarizeEntryPages, type EntryRow } from '../../lib/entry-pages';
import { EntryRowView } from './EntryRowView';

type Page = Omit<ApiCallOutput, 'operation'>;
/** Any infinite query over a paged operation. */
export type EntryQuery = UseInfiniteQueryResult<InfiniteData<Page, unknown>>;

interface Props {
  query: EntryQuery;
  label: string;
  noun: Noun;
  empty: ReactNode;
  /** the pages summarized already (a view that also needs the count, e.g. for export); computed here otherwise */
  summary?: PagesSummary<EntryRow>;
}

export function EntryFeed({ query, label, noun, empty, summary: given }: Props) {
  const summary = useMemo(() => given ?? summarizeEntryPages(query.data?.pages), [given, query.data]);
  return (
    <InfiniteFeed
      query={query}
      summary={summary}
      rows={summary.items}
      getKey={(r) => r.key}
      renderRow={(r) => <EntryRowView view={r.view} />}
      label={label}
      noun={noun}
      empty={empty}
    />
  );
}
