import { ComingSoon, ViewFrame } from '../../../components/ViewFrame';
import type { Route } from '../../../lib/routes';

/** Route `#/trends?woeid=N`. Built in issue 6. */
export function TrendsView({ route }: { route: Extract<Route, { name: 'trends' }> }) {
  return (
    <ViewFrame title="Trends">
      <ComingSoon what={route.woeid === null ? 'Trends' : `Trends for location ${route.woeid}`} />
    </ViewFrame>
  );
}
