/**
 * Handlers of the `projects` and `archive` namespaces: thin over the projects service and the
 * archive's worker thread. No handler here makes an API call; no input carries a path.
 */
import type { Handlers, Mode } from '../../shared/ipc';
import { ArchiveQuery } from '../../shared/ipc/archive';
import type { Projects } from './projects';
import { reexport } from '../export/reexport';
import type { ArchiveThread } from './thread';
import type { ExportContext } from '../export/manifest';
import { EXTENSIONS, fileStamp } from '../export/views';
import type { ExportFormat } from '../../shared/ipc/export';
import type { ChooseSavePath } from '..';

export interface ArchiveHandlerDeps {
  projects: Projects;
  thread: Promise<ArchiveThread>;
  mode: () => Mode;
  /** main's save dialog: a re-export's file (the page never names a path) */
  chooseSavePath: ChooseSavePath;
  exportContext: () => Promise<ExportContext>;
  now: () => number;
}

const FILTER_NAMES: Record<ExportFormat, string> = {
  json: 'JSON',
  jsonl: 'JSONL',
  csv: 'CSV',
  parquet: 'Parquet',
  gexf: 'GEXF network',
  'gephi-csv': 'Gephi node and edge tables (CSV)',
  ids: 'Id list',
};

/** `skein-archive-<project>-20261123T195400Z.jsonl`: self-describing, the UTC time in the name */
function archiveFileName(project: string, format: ExportFormat, now: number): string {
  const slug =
    project
      .replace(/[^\p{L}\p{N}]+/gu, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60) || 'project';
  return `skein-archive-${slug}-${fileStamp(now)}.${EXTENSIONS[format]}`;
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
      export: async (input) => {
        const { format, csvFlavour, idsOf, title, ...rest } = input;
        const query = ArchiveQuery.parse(rest);
        const which = await handle(input.project);
        const state = await deps.projects.state();
        const project = which === 'demo' ? state.demo : state.current;
        const now = deps.now();
        const target = await deps.chooseSavePath({
          title: 'Export from the archive',
          defaultPath: archiveFileName(project?.name ?? 'project', format, now),
          filters: [{ name: FILTER_NAMES[format], extensions: [EXTENSIONS[format]] }],
        });
        if (target === null) return null;
        const written = await reexport(await deps.thread, {
          handle: which,
          query,
          format,
          target,
          context: await deps.exportContext(),
          now,
          title: title ?? (query.text ? `Archive search “${query.text}”` : 'Archive'),
          project: { name: project?.name ?? '', location: project?.location ?? '' },
          options: { ...(csvFlavour ? { csvFlavour } : {}), ...(idsOf ? { idsOf } : {}) },
        });
        return { file: written.files[0] ?? target, items: written.items };
      },
    },
  };
}
