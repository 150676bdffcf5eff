/**
 * Which component shows which route. Each feature owns its view under
 * `features/<feature>/components` and shows it through its face (`index.ts`); adding a view is one case here (the
 * switch ends in `missingCaseError`, so a new route that has no view does not compile).
 */
import { missingCaseError } from '../../shared/missing-case';
import type { Route } from '../lib/routes';
import { ArchiveView } from '../features/archive';
import { CodingView } from '../features/coding';
import { CommunityView } from '../features/community';
import { HomeView } from '../features/home';
import { ListView } from '../features/list';
import { HydrateView } from '../features/hydrate';
import { LookupView } from '../features/lookup';
import { PeopleSearchView } from '../features/people';
import { PostView } from '../features/post';
import { SettingsView } from '../features/settings';
import { SpaceView } from '../features/space';
import { TrendsView } from '../features/trends';
import { UsageView } from '../features/usage';
import { ProfileView } from '../features/user';
import { CountersView, WatchesView } from '../features/watch';
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
      return <WatchesView route={route} />;
    case 'counters':
      return <CountersView route={route} />;
    case 'unknown':
      return <NotFoundView path={route.path} />;
    default:
      return missingCaseError(route);
  }
}
