/**
 * Route `#/list/:id`: the list's posts (newest first) and its followers,
 * both infinite. The API has no "list info" operation, so the list is
 * named by its id; every page of either tab is one list call.
 */
import { useInfiniteQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import type { CardPost } from '../../../../shared/api/schemas';
import { PostFeed } from '../../../components/PostFeed';
import { Tabs } from '../../../components/Tabs';
import { ViewFrame } from '../../../components/ViewFrame';
import { fullCount } from '../../../lib/format';
import { summarizePages } from '../../../lib/pages';
import type { Route } from '../../../lib/routes';
import { ExportButton, pagedExportView } from '../../export';
import { usePrices } from '../../settings/queries';
import { LoadPages } from '../../usage/components/LoadPages';
import { summarizeEntryPages } from '../entry-pages';
import { listFollowersQuery, listPostsQuery } from '../queries';
import { EntryFeed } from './EntryFeed';
import './list.css';

type ListTab = 'posts' | 'followers';

export function ListView({ route }: { route: Extract<Route, { name: 'list' }> }) {
  const [tab, setTab] = useState<ListTab>('posts');
  const prices = usePrices();
  return (
    <ViewFrame title={`List ${route.id}`} className="view--list">
      <div className="list-header">
        <p className="muted">
          Each page of posts or followers is one list call ({fullCount(prices.listPerCall)} credits).
        </p>
      </div>
      <Tabs<ListTab>
        label="List sections"
        idPrefix={`list-${route.id}`}
        selected={tab}
        onSelect={setTab}
        tabs={[
          { id: 'posts', label: 'Posts' },
          { id: 'followers', label: 'Followers' },
        ]}
      >
        {tab === 'posts' ? <Posts id={route.id} /> : <Followers id={route.id} />}
      </Tabs>
    </ViewFrame>
  );
}

function Posts({ id }: { id: string }) {
  const query = useInfiniteQuery(listPostsQuery(id));
  const summary = useMemo(() => summarizePages<CardPost>(query.data?.pages), [query.data]);
  return (
    <>
      {query.status === 'success' ? (
        <div className="list-toolbar">
          <LoadPages
            operation="listTimeline"
            noun="posts"
            hasNextPage={query.hasNextPage}
            fetchNextPage={() => query.fetchNextPage()}
          />
          <ExportButton
            view={pagedExportView('listPosts', { listId: id }, query, summary.items.length, {
              title: `Posts of list ${id}`,
            })}
          />
        </div>
      ) : null}
      <PostFeed
        query={query}
        summary={summary}
        label={`Posts of list ${id}, newest first`}
        empty="This list has no posts to show."
      />
    </>
  );
}

function Followers({ id }: { id: string }) {
  const query = useInfiniteQuery(listFollowersQuery(id));
  const summary = useMemo(() => summarizeEntryPages(query.data?.pages), [query.data]);
  return (
    <>
      {query.status === 'success' ? (
        <div className="list-toolbar">
          <LoadPages
            operation="listFollowers"
            noun="followers"
            hasNextPage={query.hasNextPage}
            fetchNextPage={() => query.fetchNextPage()}
          />
          <ExportButton
            view={pagedExportView('listFollowers', { list_id: id }, query, summary.items.length, {
              title: `Followers of list ${id}`,
            })}
          />
        </div>
      ) : null}
      <EntryFeed
        query={query}
        summary={summary}
        label={`Followers of list ${id}`}
        noun={{ one: 'follower', many: 'followers' }}
        empty="Nobody follows this list, as far as the API says."
      />
    </>
  );
}
