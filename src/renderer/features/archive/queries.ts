/** The archive feature's queries: offline search, activity and projects (none of them is an API call). */
import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import type { ArchiveActivityInput, ArchiveQuery, ArchiveSearchResult } from '../../../shared/ipc/archive';
import { skein } from '../../lib/bridge';

const PAGE_SIZE = 50;

export const archiveKeys = {
  all: ['archive'] as const,
  search: (q: ArchiveQuery) => ['archive', 'search', q] as const,
  activity: (input: ArchiveActivityInput) => ['archive', 'activity', input] as const,
  collections: () => ['archive', 'collections'] as const,
  headlessRuns: () => ['archive', 'headless-runs'] as const,
};
export const projectKeys = {
  all: ['projects'] as const,
  state: () => ['projects', 'state'] as const,
};

export const archiveSearchQuery = (q: ArchiveQuery) =>
  infiniteQueryOptions({
    queryKey: archiveKeys.search(q),
    queryFn: ({ pageParam }): Promise<ArchiveSearchResult> =>
      skein().archive.search({ ...q, offset: pageParam, limit: PAGE_SIZE }),
    initialPageParam: 0,
    getNextPageParam: (last) => last.nextOffset ?? undefined,
    staleTime: 0,
  });

export const archiveActivityQuery = (input: ArchiveActivityInput) =>
  queryOptions({
    queryKey: archiveKeys.activity(input),
    queryFn: () => skein().archive.activity(input),
    staleTime: 0,
  });

export const collectionsQuery = () =>
  queryOptions({
    queryKey: archiveKeys.collections(),
    queryFn: () => skein().archive.collections({}),
    staleTime: 0,
  });

/** the saved jobs the headless runner ran on the open project (its records) */
export const headlessRunsQuery = () =>
  queryOptions({ queryKey: archiveKeys.headlessRuns(), queryFn: () => skein().jobs.headless(), staleTime: 0 });

export const projectsQuery = () =>
  queryOptions({ queryKey: projectKeys.state(), queryFn: () => skein().projects.state(), staleTime: 0 });

/** Keeping a collection's media: its estimate, a job followed while it runs, the files kept. */
export const mediaKeys = {
  all: ['media'] as const,
  estimate: (collection: number) => ['media', 'estimate', collection] as const,
  job: (id: string) => ['media', 'job', id] as const,
  kept: (collection: number) => ['media', 'kept', collection] as const,
};

export const mediaEstimateQuery = (collection: number) =>
  queryOptions({
    queryKey: mediaKeys.estimate(collection),
    queryFn: () => skein().media.estimate({ collection }),
    staleTime: 0,
  });

export const mediaJobQuery = (id: string) =>
  queryOptions({
    queryKey: mediaKeys.job(id),
    queryFn: () => skein().media.job({ id }),
    refetchInterval: (q) => (q.state.data?.state === 'running' ? 300 : false),
  });

/** a check of every kept file, followed while it runs */
export const mediaCheckQuery = (id: string) =>
  queryOptions({
    queryKey: ['media', 'check', id] as const,
    queryFn: () => skein().media.verifyJob({ id }),
    refetchInterval: (q) => (q.state.data?.state === 'running' ? 300 : false),
  });

export const keptMediaQuery = (collection: number) =>
  queryOptions({
    queryKey: mediaKeys.kept(collection),
    queryFn: () => skein().media.kept({ collection }),
    staleTime: 0,
  });

export const keptFileQuery = (sha256: string) =>
  queryOptions({
    queryKey: ['media', 'file', sha256] as const,
    queryFn: () => skein().media.file({ sha256 }),
    staleTime: 0,
    gcTime: 0,
  });

/** Keeping the pages a collection links to: the count, then a capture followed while it runs. */
export const pagesKeys = {
  all: ['pages'] as const,
  estimate: (collection: number) => ['pages', 'estimate', collection] as const,
  job: (id: string) => ['pages', 'job', id] as const,
  list: (collection: number) => ['pages', 'list', collection] as const,
};

export const pagesEstimateQuery = (collection: number) =>
  queryOptions({
    queryKey: pagesKeys.estimate(collection),
    queryFn: () => skein().pages.estimate({ collection }),
    staleTime: 0,
  });

/** each linked URL of a collection that was tried: kept or why not, and its web archive capture or why not */
export const pagesListQuery = (collection: number) =>
  queryOptions({
    queryKey: pagesKeys.list(collection),
    queryFn: () => skein().pages.list({ collection }),
    staleTime: 0,
  });

export const pagesJobQuery = (id: string) =>
  queryOptions({
    queryKey: pagesKeys.job(id),
    queryFn: () => skein().pages.job({ id }),
    refetchInterval: (q) => (q.state.data?.state === 'running' ? 300 : false),
  });
