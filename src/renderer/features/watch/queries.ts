/**
 * The watches' queries: the list (kept fresh by main's `watch` events and a slow poll, so a next
 * run's countdown and a headless runner's runs show), a watch's runs, gaps and attrition, an item's counters,
 * and the actions. Nothing here names a path or spends: main asks, and confirms spending with the person.
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type {
  CounterKind,
  PresenceStatus,
  WatchDraft,
  WatchPatch,
  WatchSpecInput,
  WatchTable,
} from '../../../shared/ipc/watch';
import { onBridgeEvent, skein } from '../../lib/bridge';

const watchKeys = {
  all: ['watch'] as const,
  list: () => ['watch', 'list'] as const,
  runs: (id: number) => ['watch', 'runs', id] as const,
  gaps: (id: number) => ['watch', 'gaps', id] as const,
  attrition: (id: number | null, status: PresenceStatus | null) => ['watch', 'attrition', id, status] as const,
  counters: (kind: CounterKind, id: string) => ['watch', 'counters', kind, id] as const,
  proposal: (draft: WatchDraft) => ['watch', 'proposal', draft] as const,
};

export const watchListQuery = () =>
  queryOptions({
    queryKey: watchKeys.list(),
    queryFn: () => skein().watch.list(),
    staleTime: 0,
    // a headless runner's runs and the countdown to the next one: no event reaches this window for those
    refetchInterval: 15_000,
  });

export const watchRunsQuery = (id: number) =>
  queryOptions({ queryKey: watchKeys.runs(id), queryFn: () => skein().watch.runs({ id, limit: 50 }), staleTime: 0 });

export const watchGapsQuery = (id: number) =>
  queryOptions({ queryKey: watchKeys.gaps(id), queryFn: () => skein().watch.gaps({ id }), staleTime: 0 });

export const attritionQuery = (id: number | null, status: PresenceStatus | null) =>
  queryOptions({
    queryKey: watchKeys.attrition(id, status),
    queryFn: () =>
      skein().watch.attrition({ ...(id !== null ? { id } : {}), ...(status !== null ? { status } : {}), limit: 200 }),
    staleTime: 0,
  });

export const countersQuery = (kind: CounterKind, id: string) =>
  queryOptions({
    queryKey: watchKeys.counters(kind, id),
    queryFn: () => skein().watch.counters({ kind, id }),
    staleTime: 0,
  });

export const proposalQuery = (draft: WatchDraft | null) =>
  queryOptions({
    queryKey: draft ? watchKeys.proposal(draft) : ['watch', 'proposal', 'none'],
    queryFn: () => skein().watch.propose(draft as WatchDraft),
    enabled: draft !== null,
    staleTime: 60_000,
    retry: false,
  });

/** Reads the watches again whenever main says one ran or changed. */
export function useWatchEvents(): void {
  const qc = useQueryClient();
  useEffect(
    () =>
      onBridgeEvent('watch', () => {
        void qc.invalidateQueries({ queryKey: watchKeys.all });
      }),
    [qc],
  );
}

export function useWatchList() {
  useWatchEvents();
  return useQuery(watchListQuery());
}

export function useWatchActions() {
  const qc = useQueryClient();
  const done = () => void qc.invalidateQueries({ queryKey: watchKeys.all });
  return {
    create: useMutation({ mutationFn: (spec: WatchSpecInput) => skein().watch.create(spec), onSettled: done }),
    update: useMutation({
      mutationFn: (v: { id: number; patch: WatchPatch }) => skein().watch.update(v),
      onSettled: done,
    }),
    pause: useMutation({ mutationFn: (id: number) => skein().watch.pause({ id }), onSettled: done }),
    resume: useMutation({ mutationFn: (id: number) => skein().watch.resume({ id }), onSettled: done }),
    runNow: useMutation({ mutationFn: (id: number) => skein().watch.runNow({ id }), onSettled: done }),
    remove: useMutation({ mutationFn: (id: number) => skein().watch.remove({ id }), onSettled: done }),
    /** the watch the form describes, written as a job file for `skein run` (its window: days from its first run) */
    saveJob: useMutation({
      mutationFn: (v: { watch: WatchSpecInput; days: number | null }) =>
        skein().jobs.save({ kind: 'watch', watch: v.watch, days: v.days }),
    }),
    /** the posts the watch kept, as a collection for the Archive (the Archive's collections read again) */
    collect: useMutation({
      mutationFn: (id: number) => skein().watch.collect({ id }),
      onSettled: () => void qc.invalidateQueries({ queryKey: ['archive'] }),
    }),
  };
}

export function useExportTable() {
  return useMutation({
    mutationFn: (v: { table: WatchTable; watchId?: number; item?: { kind: CounterKind; id: string } }) =>
      skein().watch.exportTable(v),
  });
}
