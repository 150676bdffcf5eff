/**
 * Handlers of the `projects` and `archive` namespaces: thin over the projects service and the
 * archive's worker thread. No handler here makes an API call; no input carries a path.
 */
import type { Handlers, Mode } from '../../shared/ipc';
import { ArchiveQuery, type ArchiveQueryParsed } from '../../shared/ipc/archive';
import { ExportOptions } from '../../shared/ipc/export';
import { SkeinError } from '../../shared/errors';
import { addressFrom } from '../db';
import type { Handle } from './host';
import { snippetOf, type SnippetPlace } from './snippet';
import type { Projects } from './projects';
import type { ArchiveThread } from './thread';

/** What the archive asks to have a query's items written to a file main asks for (the export area does it). */
export type ExportQuery = (request: {
  handle: Handle;
  query: ArchiveQueryParsed;
  format: string;
  options?: ExportOptions;
  title: string;
  project: { name: string; location: string };
}) => Promise<{ file: string; items: number } | null>;

export interface ArchiveHandlerDeps {
  projects: Projects;
  thread: Promise<ArchiveThread>;
  mode: () => Mode;
  /** writes a query's items to a file the user picks in main (the page never names a path); no API call */
  exportQuery: ExportQuery;
  /** Skein's version, for a script's header */
  version: string;
  now: () => number;
  /** where a project's Parquet dataset is written (a DuckDB script reads it), by the project's location */
  datasetFolder: (location: string) => string;
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
      connect: (input) => deps.projects.connect(input),
      researcher: ({ name }) => deps.projects.setResearcher(name),
      copy: ({ to, move }) => deps.projects.copy(to, move === true),
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
      saveSearch: async (input) => {
        const { name, ...query } = input;
        return (await deps.thread).call('saveSearch', await handle(input.project), ArchiveQuery.parse(query), name);
      },
      refreshSearch: async ({ project, collection }) =>
        (await deps.thread).call('refreshSearch', await handle(project), collection),
      snippet: async (input) => {
        const { language } = input;
        const query = ArchiveQuery.parse(input);
        const which = await handle(input.project);
        const state = await deps.projects.state();
        const project = which === 'demo' ? state.demo : state.current;
        if (!project) throw new SkeinError('not-found', 'No project is open to read the view from.');
        const address = project.store === 'postgres' ? addressFrom(project.location) : null;
        const place: SnippetPlace = address
          ? { store: 'postgres', address }
          : { store: 'sqlite', path: project.location };
        const collectionName =
          query.collection === undefined
            ? null
            : ((await (await deps.thread).call('collections', which)).find((c) => c.id === query.collection)?.name ??
              null);
        const dataset =
          language === 'duckdb'
            ? await (await deps.thread).call('dataset', which, deps.datasetFolder(project.location))
            : undefined;
        const { text, fileName, note } = snippetOf({
          query,
          language,
          project: { name: project.name, place },
          collectionName,
          at: deps.now(),
          version: deps.version,
          dataset,
        });
        return { language, text, fileName, note };
      },
      export: async (input) => {
        const { format, title } = input;
        // the query, and the export's options beside it (each schema keeps its own fields)
        const query = ArchiveQuery.parse(input);
        const options = ExportOptions.parse(input);
        const which = await handle(input.project);
        const state = await deps.projects.state();
        const project = which === 'demo' ? state.demo : state.current;
        return deps.exportQuery({
          handle: which,
          query,
          format,
          options,
          title: title ?? (query.text ? `Archive search “${query.text}”` : 'Archive'),
          project: { name: project?.name ?? '', location: project?.location ?? '' },
        });
      },
    },
  };
}
