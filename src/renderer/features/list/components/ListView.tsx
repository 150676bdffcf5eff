/**
 * Route `#/list/:id`: the list's posts (newest first) and its followers,
 * both infinite. The API has no "list info" operation, so the list is
 * named by the name the user saw where they opened it (a list's card),
 * else "List" and a short id; the whole id is one click away (Copy id).
 * Every page of either tab is one list call.
 */
import { useInfiniteQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import type { CardPost } from '../../../../shared/api/schemas';
import { CopyIdButton } from '../../../components/CopyIdButton';
import { PostFeed } from '../../../components/PostFeed';
import { Tabs } from '../../../components/Tabs';
import { ViewFrame } from '../../../components/ViewFrame';
import { fullCount } from '../../../lib/format';
import { summarizePages } from '../../../lib/pages';
import type { Route } from '../../../lib/routes';
import { listPhrase, listTitle } from '../../../lib/titles';
import { useSeenName } from '../../../state/names';
import { ExportButton, pagedExportView, type PagedQueryState } from '../../export';
import { usePrices } from '../../../lib/settings';
import { LoadPages } from '../../../components/usage/LoadPages';
import { summarizeEntryPages } from '../../../lib/entry-pages';
import { listFollowersQuery, listPostsQuery } from '../queries';
import { EntryFeed } from '../../../components/entry/EntryFeed';
import './list.css';

type ListTab = 'posts' | 'followers';

export function ListView({ route }: { route: Extract<Route, { name: 'list' }> }) {
  const [tab, setTab] = useState<ListTab>('posts');
  const prices = usePrices();
  const name = useSeenName('list', route.id);
  const phrase = listPhrase(name, route.id);
  return (
    <ViewFrame
      title={listTitle(name, route.id)}
      className="view--list"
      actions={<CopyIdButton id={route.id} what="list" />}
    >
      <div className="list-header">
        <p className="muted">
          {name ? null : 'The API does not give a list’s name. '}
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
        {tab === 'posts' ? <Posts id={route.id} phrase={phrase} /> : <Followers id={route.id} phrase={phrase} />}
      </Tabs>
    </ViewFrame>
  );
}

/** What each tab loads and exports. */
const TABS = {
  posts: { operation: 'listTimeline', kind: 'listPosts', param: 'listId', title: 'Posts of' },
  followers: { operation: 'listFollowers', kind: 'listFollowers', param: 'list_id', title: 'Followers of' },
} as const;

/** Load more pages (with their cost) and export, above either tab's feed once its first page is in. */
function ListToolbar(props: {
  tab: ListTab;
  id: string;
  /** the list in words (`list “name”`, else `list 1815…3248`) */
  phrase: string;
  items: number;
  query: PagedQueryState & {
    status: string;
    fetchNextPage: () => Promise<{ hasNextPage: boolean; isError: boolean }>;
  };
}) {
  const { query, id } = props;
  const tab = TABS[props.tab];
  if (query.status !== 'success') return null;
  return (
    <div className="list-toolbar">
      <LoadPages
        operation={tab.operation}
        noun={props.tab}
        hasNextPage={query.hasNextPage}
        fetchNextPage={() => query.fetchNextPage()}
      />
      <ExportButton
        view={pagedExportView(tab.kind, { [tab.param]: id }, query, props.items, {
          title: `${tab.title} ${props.phrase}`,
        })}
      />
    </div>
  );
}

function Posts({ id, phrase }: { id: string; phrase: string }) {
  const query = useInfiniteQuery(listPostsQuery(id));
  const summary = useMemo(() => summarizePages<CardPost>(query.data?.pages), [query.data]);
  return (
    <>
      <ListToolbar tab="posts" id={id} phrase={phrase} query={query} items={summary.items.length} />
      <PostFeed
        query={query}
        summary={summary}
        label={`Posts of ${phrase}, newest first`}
        empty="This list has no posts to show."
      />
    </>
  );
}

function Followers({ id, phrase }: { id: string; phrase: string }) {
  const query = useInfiniteQuery(listFollowersQuery(id));
  const summary = useMemo(() => summarizeEntryPages(query.data?.pages), [query.data]);
  return (
    <>
      <ListToolbar tab="followers" id={id} phrase={phrase} query={query} items={summary.items.length} />
      <EntryFeed
        query={query}
        summary={summary}
        label={`Followers of ${phrase}`}
        noun={{ one: 'follower', many: 'followers' }}
        empty="Nobody follows this list, as far as the API says."
      />
    </>
  );
}
