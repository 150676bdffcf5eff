import { pageKey } from '../lib/routes';
import { HistoryButtons, Sidebar, StatusBar } from './Chrome';
import { GoBox } from './GoBox';
import { useGlobalKeys } from '../lib/keyboard';
import { useHash, useRoute } from '../lib/navigation';
import { ViewContainer } from './ViewContainer';
import { CodingPanel } from '../features/coding';
import { RouteView } from './views';
import './shell.css';

/** Sidebar, history buttons and Go box, the current view, and the status bar. */
export function Shell() {
  const route = useRoute();
  const hash = useHash();
  useGlobalKeys();
  return (
    <div className="shell">
      <header className="topbar">
        <HistoryButtons />
        <GoBox />
      </header>
      <Sidebar current={route} />
      <ViewContainer key={pageKey(route)} viewKey={hash || '#/'}>
        <RouteView route={route} />
      </ViewContainer>
      {route.name !== 'coding' ? <CodingPanel /> : null}
      <StatusBar />
    </div>
  );
}
