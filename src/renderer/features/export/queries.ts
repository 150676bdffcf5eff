/**
 * Server state of exports (TanStack Query): the formats main offers (its
 * registry's, fixed for the session), the jobs main remembers, kept current by
 * the `export` events main pushes (with a slow poll as a safety net while a job
 * runs), the pre-flight estimate, and the job actions.
 */
import { queryOptions, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { ExportCaps, ExportJob, ExportScope, ExportStartInput, ViewDescriptor } from '../../../shared/ipc/export';
import { onBridgeEvent, skein } from '../../lib/bridge';
import { isActive } from './form';

const exportKeys = {
  all: ['export'] as const,
  formats: () => ['export', 'formats'] as const,
  jobs: () => ['export', 'jobs'] as const,
  unread: () => ['export', 'unread'] as const,
  estimate: (view: ViewDescriptor, scope: ExportScope) => ['export', 'estimate', JSON.stringify(view), scope] as const,
  media: (id: string) => ['export', 'media', id] as const,
  mediaEstimate: (view: ViewDescriptor, scope: ExportScope) =>
    ['export', 'media-estimate', JSON.stringify(view), scope] as const,
};

/** What keeping the media of this export would take, from the posts the view has loaded (before it starts). */
export function useViewMediaEstimate(view: ViewDescriptor, scope: ExportScope, enabled: boolean) {
  return useQuery({
    queryKey: exportKeys.mediaEstimate(view, scope),
    queryFn: () => skein().media.estimateView({ view, scope }),
    enabled,
    staleTime: 0,
  });
}

/** The formats main can write, as the dialogs offer them (they never change while Skein runs). */
export function useFormatOffers() {
  return useQuery({
    queryKey: exportKeys.formats(),
    queryFn: () => skein().export.formats(),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** Puts one job into the cached list (newest first). */
function upsertJob(list: readonly ExportJob[] | undefined, job: ExportJob): ExportJob[] {
  const others = (list ?? []).filter((j) => j.id !== job.id);
  return [job, ...others].sort((a, b) => b.startedAt - a.startedAt);
}

function remember(qc: QueryClient, job: ExportJob | null): void {
  if (job) qc.setQueryData<ExportJob[]>(exportKeys.jobs(), (list) => upsertJob(list, job));
}

const exportJobsQuery = () =>
  queryOptions({
    queryKey: exportKeys.jobs(),
    queryFn: () => skein().export.list(),
    staleTime: Number.POSITIVE_INFINITY,
    refetchInterval: (q) => ((q.state.data ?? []).some(isActive) ? 2000 : false),
  });

/** Every job main remembers, live. */
export function useExportJobs() {
  const qc = useQueryClient();
  useEffect(
    () =>
      onBridgeEvent('export', (payload) => {
        // onBridgeEvent's listener is typed for every event; this one carries a job
        if (typeof payload === 'object' && payload !== null) remember(qc, payload);
      }),
    [qc],
  );
  return useQuery(exportJobsQuery());
}

/** The saved exports this Skein cannot read (a newer Skein's, or damaged): read once, as main found them at its start. */
export function useUnreadExports() {
  return useQuery({
    queryKey: exportKeys.unread(),
    queryFn: () => skein().export.unread(),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

export function useExportEstimate(view: ViewDescriptor | null, scope: ExportScope, enabled: boolean) {
  return useQuery({
    queryKey: view ? exportKeys.estimate(view, scope) : ['export', 'estimate', 'none'],
    queryFn: () => skein().export.estimate({ view: view as ViewDescriptor, scope }),
    enabled: enabled && view !== null,
    // asked afresh each time the dialog opens: a thread's estimate reads the pages the project holds, which
    // grow as the view loads more
    staleTime: 0,
  });
}

/**
 * The keeping of an export's media main started once the file was written (polled while it runs), and its
 * actions: a cancel, and keeping again, which goes on where it stopped.
 */
export function useExportMedia(id: string | null) {
  const [keepingId, setKeepingId] = useState<string | null>(null);
  const current = keepingId ?? id;
  const job = useQuery({
    queryKey: exportKeys.media(current ?? ''),
    queryFn: () => skein().media.job({ id: current as string }),
    enabled: current !== null,
    refetchInterval: (q) => (q.state.data?.state === 'running' ? 300 : false),
  });
  const cancel = useMutation({ mutationFn: (jobId: string) => skein().media.cancel({ id: jobId }) });
  const again = useMutation({
    mutationFn: (collection: number) => skein().media.keep({ collection }),
    onSuccess: (j) => setKeepingId(j.id),
  });
  return { job, cancel, again };
}

export function useExportActions() {
  const qc = useQueryClient();
  const start = useMutation({
    mutationFn: (input: ExportStartInput) => skein().export.start(input),
    onSuccess: ({ job }) => remember(qc, job),
  });
  const cancel = useMutation({
    mutationFn: (jobId: string) => skein().export.cancel({ jobId }),
    onSuccess: (job) => remember(qc, job),
  });
  const resume = useMutation({
    mutationFn: ({ jobId, caps }: { jobId: string; caps?: ExportCaps }) =>
      skein().export.resume(caps ? { jobId, caps } : { jobId }),
    onSuccess: (job) => remember(qc, job),
  });
  // a written export the project could not keep as a collection, kept now from what main saved of it (no call)
  const record = useMutation({
    mutationFn: (jobId: string) => skein().export.record({ jobId }),
    onSuccess: (job) => remember(qc, job),
  });
  const discard = useMutation({
    mutationFn: (jobId: string) => skein().export.discard({ jobId }),
    onSuccess: (_r, jobId) =>
      qc.setQueryData<ExportJob[]>(exportKeys.jobs(), (list) => (list ?? []).filter((j) => j.id !== jobId)),
  });
  // "Save as job…": main asks where and writes the file; nothing runs and nothing is cached
  const saveJob = useMutation({
    mutationFn: (input: { kind: 'export' | 'hydrate'; start: ExportStartInput }) => skein().jobs.save(input),
  });
  return { start, cancel, resume, record, discard, saveJob };
}
