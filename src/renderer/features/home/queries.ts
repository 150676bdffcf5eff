/** The embedded sandbox's showcase entities, which the demo Home links to. */
import { queryOptions } from '@tanstack/react-query';
import type { Mode } from '../../../shared/ipc/app';
import type { ProjectsState } from '../../../shared/ipc/archive';
import { skein } from '../../lib/bridge';
import type { Standing } from './jobs';

const demoKeys = {
  examples: () => ['demo', 'examples'] as const,
};

const homeKeys = {
  standing: (mode: Mode) => ['home', 'standing', mode] as const,
};

/** a part of Home's standing that could not be read is left unknown, never a failure of Home */
const orNull = <T>(p: Promise<T>): Promise<T | null> => p.catch(() => null);

/**
 * Where the person stands in each job, read from the project of the mode Skein is in (each part on its own).
 * The project itself comes from the shared projects query (`projectStanding`), not from here: reading it counts
 * every item, which is no work to repeat each minute on a big project.
 */
export const standingQuery = (mode: Mode) =>
  queryOptions({
    queryKey: homeKeys.standing(mode),
    queryFn: async (): Promise<Omit<Standing, 'project'>> => {
      const bridge = skein();
      const [collections, watches, lists, codebooks, coders] = await Promise.all([
        orNull(bridge.archive.collections({ project: mode === 'demo' ? 'demo' : 'current' })),
        orNull(bridge.watch.list()),
        orNull(bridge.ids.list()),
        orNull(bridge.coding.codebooks()),
        orNull(bridge.coding.coders()),
      ]);
      const next = watches?.watches.flatMap((w) => (w.nextRunAt === null ? [] : [w.nextRunAt])) ?? [];
      return {
        collections: collections?.length ?? null,
        watches: watches && {
          total: watches.watches.length,
          active: watches.watches.filter((w) => w.state === 'active' || w.state === 'waiting').length,
          nextRunAt: next.length > 0 ? Math.min(...next) : null,
        },
        idLists: lists && { lists: lists.length, ids: lists.reduce((n, l) => n + l.ids, 0) },
        coding: codebooks && coders && { codebooks: codebooks.length, coders: coders.length },
      };
    },
    staleTime: 0,
    // a headless runner's runs move "next run in …" on; no event reaches this window for those
    refetchInterval: 60_000,
  });

/** the project of the mode, as Home's team card says it; null while the projects are not known */
export function projectStanding(state: ProjectsState | undefined, mode: Mode): Standing['project'] {
  const project = state ? (mode === 'demo' ? state.demo : state.current) : null;
  return (
    project && {
      name: project.name,
      team: project.store === 'postgres',
      location: project.location,
      demo: mode === 'demo',
    }
  );
}

export const demoExamplesQuery = () =>
  queryOptions({
    queryKey: demoKeys.examples(),
    queryFn: () => skein().demo.examples(),
    staleTime: Number.POSITIVE_INFINITY,
  });
