/**
 * Which component shows which route. Each feature owns its view under
 * `features/<feature>/components`; adding a view is one case here (the
 * switch ends in `missingCaseError`, so a new route that has no view does not compile).
 */
import { missingCaseError } from '../../shared/missing-case';
import type { Route } from '../lib/routes';
import { ArchiveView } from '../features/archive/components/ArchiveView';
import { CodingView } from '../features/coding/components/CodingView';
import { CommunityView } from '../features/community/components/CommunityView';
import { HomeView } from '../features/home/components/HomeView';
import { ListView } from '../features/list/components/ListView';
import { HydrateView } from '../features/hydrate/components/HydrateView';
import { LookupView } from '../features/lookup/components/LookupView';
import { PeopleSearchView } from '../features/people/components/PeopleSearchView';
import { PostView } from '../features/post/components/PostView';
import { SettingsView } from '../features/settings/components/SettingsView';
import { SpaceView } from '../features/space/components/SpaceView';
import { TrendsView } from '../features/trends/components/TrendsView';
import { UsageView } from '../features/usage/components/UsageView';
import { ProfileView } from '../features/user/components/ProfileView';
import { CountersView } from '../features/watch/components/CountersView';
import { WatchesView } from '../features/watch/components/WatchesView';
import { NotFoundView } from './NotFoundView';

export function RouteView({ route }: { route: Route }) {
  switch (route.name) {
    case 'home':
      return <HomeView />;
    case 'post':
      return <PostView route={route} />;
    case 'user':
      return <ProfileView route={route} />;
    case 'search':
      return <PeopleSearchView route={route} />;
    case 'hydrate':
      return <HydrateView route={route} />;
    case 'lookup':
      return <LookupView route={route} />;
    case 'community':
      return <CommunityView route={route} />;
    case 'list':
      return <ListView route={route} />;
    case 'space':
      return <SpaceView route={route} />;
    case 'trends':
      return <TrendsView route={route} />;
    case 'settings':
      return <SettingsView />;
    case 'usage':
      return <UsageView />;
    case 'archive':
      return <ArchiveView route={route} />;
    case 'coding':
      return <CodingView route={route} />;
    case 'watches':
      return <WatchesView />;
    case 'counters':
      return <CountersView route={route} />;
    case 'unknown':
      return <NotFoundView path={route.path} />;
    default:
      return missingCaseError(route);
  }
}
