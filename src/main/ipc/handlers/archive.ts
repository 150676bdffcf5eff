/**
 * Handlers of the `projects` and `archive` namespaces: thin over the projects service and the
 * archive's worker thread. No handler here makes an API call; no input carries a path.
 */
import type { Handlers, Mode } from '../../../shared/ipc';
import { ArchiveQuery } from '../../../shared/ipc/archive';
import type { Projects } from '../../services/archive/projects';
import type { ArchiveThread } from '../../services/archive/thread';

export interface ArchiveHandlerDeps {
  projects: Projects;
  thread: Promise<ArchiveThread>;
  mode: () => Mode;
}

export function createArchiveHandlers(deps: ArchiveHandlerDeps): Pick<Handlers, 'projects' | 'archive'> {
  /** `current` is the project of the mode Skein is in: demo answers are only ever in the demo project */
  const handle = (project: 'current' | 'demo') =>
    deps.projects.handleFor(project === 'demo' || deps.mode() === 'demo' ? 'demo' : 'current');
  return {
    projects: {
      state: () => deps.projects.state(),
      create: ({ name }) => deps.projects.create(name),
      open: () => deps.projects.open(),
      rename: ({ name }) => deps.projects.rename(name),
      switch: ({ id }) => deps.projects.switchTo(id),
    },
    archive: {
      search: async (input) => {
        const { offset, limit, ...query } = input;
        return (await deps.thread).call(
          'search',
          await handle(input.project),
          ArchiveQuery.parse(query),
          offset,
          limit,
        );
      },
      activity: async (input) => {
        const { bucket, utcOffsetMinutes, ...query } = input;
        return (await deps.thread).call(
          'activity',
          await handle(input.project),
          ArchiveQuery.parse(query),
          bucket,
          utcOffsetMinutes,
        );
      },
      provenance: async ({ project, kind, id }) =>
        (await deps.thread).call('provenance', await handle(project), kind, id),
      collections: async ({ project }) => (await deps.thread).call('collections', await handle(project)),
    },
  };
}
