import { ComingSoon, ViewFrame } from '../../../components/ViewFrame';
import type { Route } from '../../../lib/routes';

/** Route `#/space/:id`. Built in issue 6. */
export function SpaceView({ route }: { route: Extract<Route, { name: 'space' }> }) {
  return (
    <ViewFrame title={`Audio space ${route.id}`}>
      <ComingSoon what="Audio space details" />
    </ViewFrame>
  );
}
