import { useQuery } from '@tanstack/react-query';
import type { Mode } from '../../../../shared/ipc/app';
import { formatRoute, routes } from '../../../lib/routes';
import { projectsQuery } from '../queries';

/** The status bar's project: where what Skein receives is kept (the demo project in demo mode). */
export function ProjectStatus({ mode }: { mode: Mode | undefined }) {
  const state = useQuery(projectsQuery());
  const project = mode === 'demo' ? state.data?.demo : state.data?.current;
  const label = state.data?.problem && mode !== 'demo' ? 'not open' : (project?.name ?? '…');
  // local and team told apart at a glance: two projects may share a name
  const where = !project ? '' : mode === 'demo' ? '' : project.store === 'postgres' ? ' · team' : ' · file';
  return (
    <a
      href={formatRoute(routes.archive())}
      className="statusbar__project"
      data-testid="project"
      title={project ? project.location : undefined}
    >
      Project: <strong>{label}</strong>
      {where}
      {project?.readOnly ? ' · read only' : ''}
    </a>
  );
}
