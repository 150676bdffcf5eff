import { useQuery } from '@tanstack/react-query';
import type { Mode } from '../../../../shared/ipc/app';
import { formatRoute, routes } from '../../../lib/routes';
import { projectsQuery } from '../queries';

/** The status bar's project: where what Skein receives is kept (the demo project in demo mode). */
export function ProjectStatus({ mode }: { mode: Mode | undefined }) {
  const state = useQuery(projectsQuery());
  const project = mode === 'demo' ? state.data?.demo : state.data?.current;
  const label = state.data?.problem && mode !== 'demo' ? 'not open' : (project?.name ?? '…');
  return (
    <a href={formatRoute(routes.archive())} className="statusbar__project" data-testid="project">
      Project: <strong>{label}</strong>
    </a>
  );
}
