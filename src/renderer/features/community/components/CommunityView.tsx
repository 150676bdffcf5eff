/**
 * Route `#/community/:id`: the community's header and rules, and its Members
 * and Moderators tabs (announced by the API, not available yet: asked once,
 * when the tab opens, and explained).
 */
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import type { OperationId } from '../../../../shared/api/catalog';
import { CommunityData } from '../../../../shared/api/schemas';
import { isSkeinError, SkeinError } from '../../../../shared/errors';
import { ErrorState } from '../../../components/ErrorState';
import type { Noun } from '../../../components/InfiniteFeed';
import { SkeletonList } from '../../../components/states';
import { Tabs } from '../../../components/Tabs';
import { ViewFrame } from '../../../components/ViewFrame';
import type { Route } from '../../../lib/routes';
import { ExportButton, exportView } from '../../export';
import { EntryFeed, type EntryQuery } from '../../../components/entry/EntryFeed';
import { CacheNote } from '../../../components/usage/CacheNote';
import { summarizeCommunity } from '../community-summary';
import { communityInfoQuery, communityMembersQuery, communityModeratorsQuery } from '../queries';
import { CommunityHeader } from './CommunityHeader';
import { NotAvailableNotice } from '../../../components/NotAvailableNotice';
import './community.css';

type CommunityTab = 'about' | 'members' | 'moderators';

export function CommunityView({ route }: { route: Extract<Route, { name: 'community' }> }) {
  const { id } = route;
  const q = useQuery(communityInfoQuery(id));
  const [tab, setTab] = useState<CommunityTab>('about');
  const parsed = useMemo(() => (q.data ? CommunityData.safeParse(q.data.data) : null), [q.data]);

  if (q.status === 'pending')
    return (
      <ViewFrame title="Community">
        <SkeletonList count={2} label="Loading the community…" />
      </ViewFrame>
    );
  if (q.status === 'error')
    return (
      <ViewFrame title="Community">
        <ErrorState error={q.error} what="the community" onRetry={() => void q.refetch()} />
      </ViewFrame>
    );
  if (!parsed?.success)
    return (
      <ViewFrame title="Community">
        <ErrorState error={new SkeinError('malformed', `The API’s answer for community ${id} could not be read.`)} />
      </ViewFrame>
    );
  const c = summarizeCommunity(parsed.data);
  return (
    <div className="view view--community">
      <CommunityHeader community={c} />
      <div className="community__cache">
        <CacheNote meta={q.data.meta} fetchedAfterMount={q.isFetchedAfterMount} />
        <ExportButton
          view={exportView('community', { community_id: id }, { items: 1, reachedEnd: true }, { title: c.name })}
        />
      </div>
      <Tabs<CommunityTab>
        label="Community sections"
        idPrefix={`community-${id}`}
        selected={tab}
        onSelect={setTab}
        tabs={[
          { id: 'about', label: 'Rules' },
          { id: 'members', label: 'Members' },
          { id: 'moderators', label: 'Moderators' },
        ]}
      >
        {tab === 'about' ? (
          <Rules rules={c.rules} />
        ) : tab === 'members' ? (
          <MembersTab id={id} />
        ) : (
          <ModeratorsTab id={id} />
        )}
      </Tabs>
    </div>
  );
}

function Rules({ rules }: { rules: Array<{ id: string; name: string }> }) {
  if (rules.length === 0) return <p className="community__empty muted">This community lists no rules.</p>;
  return (
    <ol className="community__rules" aria-label="Rules">
      {rules.map((r) => (
        <li key={r.id} dir="auto">
          {r.name}
        </li>
      ))}
    </ol>
  );
}

function MembersTab({ id }: { id: string }) {
  const query = useInfiniteQuery(communityMembersQuery(id));
  return (
    <PeopleTab
      query={query}
      operation="communityMembers"
      what="Community members"
      noun={{ one: 'member', many: 'members' }}
    />
  );
}

function ModeratorsTab({ id }: { id: string }) {
  const query = useInfiniteQuery(communityModeratorsQuery(id));
  return (
    <PeopleTab
      query={query}
      operation="communityModerators"
      what="Community moderators"
      noun={{ one: 'moderator', many: 'moderators' }}
    />
  );
}

interface PeopleTabProps {
  query: EntryQuery;
  operation: OperationId;
  what: string;
  noun: Noun;
}

function PeopleTab({ query, operation, what, noun }: PeopleTabProps) {
  if (query.status === 'error' && isSkeinError(query.error) && query.error.code === 'not-available') {
    return <NotAvailableNotice operation={operation} what={what} />;
  }
  if (query.status === 'error') return <ErrorState error={query.error} what={noun.many} />;
  return <EntryFeed query={query} label={what} noun={noun} empty={`The API listed no ${noun.many}.`} />;
}
