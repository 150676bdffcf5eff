import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { CardPost, User } from '../../../../shared/api/schemas';
import { navigate } from '../../../lib/navigation';
import { ErrorState } from '../../../components/ErrorState';
import { PostFeed } from '../../../components/PostFeed';
import { EmptyState, SkeletonList } from '../../../components/states';
import { Tabs } from '../../../components/Tabs';
import { UserCard } from '../../../components/UserCard';
import { useViewScroll, withScroller } from '../../../components/view-scroll';
import { holdAtTop } from '../../../lib/hold-at-top';
import { summarizePages } from '../../../lib/pages';
import type { Route, UserTab } from '../../../lib/routes';
import { ExportButton, pagedExportView } from '../../export';
import { handleQuery, usersByIdsQuery } from '../../../lib/lookups';
import { mentionsQuery, timelineQuery } from '../queries';
import { PinnedPosts } from './PinnedPosts';
import { ProfileHeader } from './ProfileHeader';
import './profile.css';

type UserRoute = Extract<Route, { name: 'user' }>;

/** A profile, by id (batch lookup) or by @handle (people search, exact match first). */
export function ProfileView({ route }: { route: UserRoute }) {
  return route.ref.kind === 'id' ? (
    <ProfileById id={route.ref.id} route={route} />
  ) : (
    <ProfileByHandle handle={route.ref.handle} route={route} />
  );
}

function Frame({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <div className="view view--profile">
      <header className="view__header">
        <h1 tabIndex={-1}>{title}</h1>
      </header>
      {children}
    </div>
  );
}

function ProfileById({ id, route }: { id: string; route: UserRoute }) {
  const q = useQuery(usersByIdsQuery([id]));
  const user = q.data?.items.find((u) => u.id === id) ?? null;
  if (q.status === 'pending')
    return <Frame title="Profile">{<SkeletonList count={2} label="Loading the profile…" />}</Frame>;
  if (q.status === 'error')
    return (
      <Frame title="Profile">
        <ErrorState error={q.error} what="the profile" onRetry={() => void q.refetch()} />
      </Frame>
    );
  if (!user)
    return (
      <Frame title="Profile">
        <EmptyState title="This account was not found">
          The API did not return user {id}. It may be suspended or deleted, or the id is wrong.
        </EmptyState>
      </Frame>
    );
  return <Profile user={user} route={route} />;
}

function ProfileByHandle({ handle, route }: { handle: string; route: UserRoute }) {
  const q = useQuery(handleQuery(handle));
  if (q.status === 'pending')
    return <Frame title={`@${handle}`}>{<SkeletonList count={2} label={`Looking up @${handle}…`} />}</Frame>;
  if (q.status === 'error')
    return (
      <Frame title={`@${handle}`}>
        <ErrorState error={q.error} what={`@${handle}`} onRetry={() => void q.refetch()} />
      </Frame>
    );
  if (!q.data.user)
    return (
      <Frame title={`@${handle}`}>
        <EmptyState title={`No account is called exactly @${handle}`}>People search found these instead:</EmptyState>
        {q.data.candidates.map((u) => (
          <UserCard key={u.id} user={u} />
        ))}
      </Frame>
    );
  return <Profile user={q.data.user} route={route} />;
}

function Profile({ user, route }: { user: User; route: UserRoute }) {
  const select = (tab: UserTab) => navigate({ ...route, tab }, { replace: true });
  // arriving on a profile's Mentions ("Mentions of @…") lands on the mentions (see `Mentions`)
  const [arrivedOn] = useState(route.tab);
  return (
    <div className="view view--profile">
      <ProfileHeader user={user} />
      <PinnedPosts ids={user.pinnedTweetIds} />
      <Tabs<UserTab>
        label="Profile sections"
        idPrefix={`user-${user.id}`}
        selected={route.tab}
        onSelect={select}
        tabs={[
          { id: 'posts', label: 'Posts' },
          { id: 'mentions', label: 'Mentions' },
        ]}
      >
        {route.tab === 'posts' ? (
          <Timeline user={user} route={route} />
        ) : (
          <Mentions user={user} land={arrivedOn === 'mentions'} />
        )}
      </Tabs>
    </div>
  );
}

function Timeline({ user, route }: { user: User; route: UserRoute }) {
  const { includeReplies, includeParentTweet } = route;
  const query = useInfiniteQuery(timelineQuery(user.id, includeReplies, includeParentTweet));
  const summary = useMemo(() => summarizePages<CardPost>(query.data?.pages), [query.data]);
  // statusesCount counts replies too, and not the parents the API adds: a total only for the plain timeline with replies
  const expectedItems = includeReplies && !includeParentTweet ? user.statusesCount : null;
  const set = (patch: Partial<Pick<UserRoute, 'includeReplies' | 'includeParentTweet'>>) =>
    navigate({ ...route, ...patch }, { replace: true });
  return (
    <>
      <div className="toolbar" role="group" aria-label="Timeline options">
        <label>
          <input type="checkbox" checked={includeReplies} onChange={(e) => set({ includeReplies: e.target.checked })} />
          Include replies
        </label>
        <label>
          <input
            type="checkbox"
            checked={includeParentTweet}
            onChange={(e) => set({ includeParentTweet: e.target.checked })}
          />
          Include the post each reply answers
        </label>
        <ExportButton
          view={pagedExportView(
            'timeline',
            { userId: user.id, includeReplies, includeParentTweet },
            query,
            summary.items.length,
            {
              title: `Posts by @${user.userName}`,
              expectedItems,
            },
          )}
        />
      </div>
      <PostFeed
        query={query}
        summary={summary}
        label={`Posts by @${user.userName}`}
        empty={`@${user.userName} has no posts to show.`}
      />
    </>
  );
}

/**
 * `land`: the view was opened on Mentions: once the first mentions are in, scroll them to the top, not
 * 1.5 screens below under the banner and pinned posts, and hold them there while pinned posts load above
 * until the reader moves. A Back position restored on arrival wins; a reader who already scrolled is left alone.
 */
function Mentions({ user, land }: { user: User; land: boolean }) {
  const query = useInfiniteQuery(mentionsQuery(user.userName));
  const summary = useMemo(() => summarizePages<CardPost>(query.data?.pages), [query.data]);
  const { ref: scroller } = useViewScroll();
  const landed = useRef(!land);
  const ready = query.data !== undefined;
  useLayoutEffect(() => {
    if (landed.current || !ready) return;
    return withScroller(scroller, (root) => {
      landed.current = true;
      if (root.scrollTop > 0) return;
      const tabs = root
        .querySelector<HTMLElement>(`#${CSS.escape(`user-${user.id}-tab-mentions`)}`)
        ?.closest<HTMLElement>('.tabs');
      return tabs ? holdAtTop(root, tabs) : undefined;
    });
  }, [ready, scroller, user.id]);
  return (
    <>
      <div className="toolbar" role="group" aria-label="Mention options">
        <ExportButton
          view={pagedExportView('mentions', { userName: user.userName }, query, summary.items.length, {
            title: `Posts mentioning @${user.userName}`,
          })}
        />
      </div>
      <PostFeed
        query={query}
        summary={summary}
        label={`Posts mentioning @${user.userName}`}
        noun={{ one: 'mention', many: 'mentions' }}
        empty={`Nobody has mentioned @${user.userName} recently.`}
      />
    </>
  );
}
