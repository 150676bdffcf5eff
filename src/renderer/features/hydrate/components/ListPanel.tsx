import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { creditsToUsd, type PriceTable } from '../../../../shared/api/pricing';
import {
  VIEW_OPERATIONS,
  type ExportEstimate,
  type ExportJob,
  type ViewDescriptor,
} from '../../../../shared/ipc/export';
import { navigate } from '../../../lib/navigation';
import { useTicker } from '../../../lib/ticker';
import { creditsLabel } from '../../../lib/format';
import { routes, type LookupKind } from '../../../lib/routes';
import { ExportButton, isActive, useExportEstimate, useExportJobs } from '../../export';
import { settingsQuery, usePrices } from '../../../lib/settings';
import { idsKeys, useDiscardList, useHydrations, useIdLists } from '../queries';
import { MissingIds } from './MissingIds';
import { ReadReport } from './ReadReport';
import { ResolveHandles } from './ResolveHandles';

/** A hydration is an export of a batch lookup whose ids come from the kept list. */
function hydrationView(kind: LookupKind, importId: string, label: string, refetchHeld: boolean): ViewDescriptor {
  const view = kind === 'posts' ? 'postsByIds' : 'usersByIds';
  return {
    kind: view,
    operation: VIEW_OPERATIONS[view],
    params: {},
    idsFrom: importId,
    title: label,
    ...(refetchHeld ? { refetchHeld: true } : {}),
  };
}

/** The quote: what the project already holds (free), then the calls, credits and time for the rest. */
function quote(e: ExportEstimate, prices: PriceTable, rps: number | null): string {
  const free = e.alreadyInProject ?? 0;
  const calls = e.calls ?? 0;
  const credits = e.credits ?? 0;
  const inProject =
    free > 0 ? `${free.toLocaleString()} already in the project (free): taken from it, not bought again. ` : '';
  if (calls === 0) return `${inProject}Hydrating needs no call.`;
  return `${inProject}Hydrating asks for ${free > 0 ? 'the others' : 'them'} in ${calls.toLocaleString()} ${calls === 1 ? 'call' : 'calls'} of up to 100: at most ${creditsLabel(credits, creditsToUsd(credits, prices))}${rps ? `, about ${duration(calls / rps)} at ${rps} ${rps === 1 ? 'call' : 'calls'} per second` : ''}. Only the ids that come back are charged.`;
}

function duration(seconds: number): string {
  if (seconds < 90) return `${Math.max(1, Math.round(seconds))} s`;
  if (seconds < 90 * 60) return `${Math.round(seconds / 60)} min`;
  return `${(seconds / 3600).toFixed(1)} h`;
}

/** One kept list: what was read, the quote, Hydrate…, running and stopped hydrations, the missing ids. */
export function ListPanel({ importId, kind }: { importId: string; kind: LookupKind }) {
  const lists = useIdLists();
  const list = lists.data?.find((l) => l.importId === importId) ?? null;
  const [refetch, setRefetch] = useState(false);
  const view = useMemo(
    () => (list ? hydrationView(kind, importId, list.label, refetch) : null),
    [kind, importId, list, refetch],
  );
  const estimate = useExportEstimate(view, 'all', view !== null);
  const prices = usePrices();
  const settings = useQuery(settingsQuery());
  const jobs = useExportJobs();
  const discard = useDiscardList();
  const qc = useQueryClient();
  const mine = (jobs.data ?? []).filter((j) => j.view.idsFrom === importId);
  const hydrations = useHydrations(importId);

  // a hydration that stops keeps its missing ids: ask for the list again when one of this list's jobs changes
  const states = mine.map((j) => `${j.id}:${j.status}`).join(',');
  useEffect(() => {
    void qc.invalidateQueries({ queryKey: idsKeys.hydrations(importId) });
  }, [qc, importId, states]);

  if (lists.isPending) return <p className="hydrate-panel note">Loading the list…</p>;
  if (!list) {
    return (
      <div className="hydrate-panel" role="alert">
        <p>This id list is no longer kept (it was discarded).</p>
        <button type="button" className="btn" onClick={() => navigate(routes.hydrate(kind))}>
          Read another list
        </button>
      </div>
    );
  }
  if (list.entity !== kind) {
    return (
      <div className="hydrate-panel" role="alert">
        <p>
          “{list.label}” holds {list.entity === 'posts' ? 'post' : 'user'} ids.{' '}
          <a href={`#/hydrate/${list.entity}?list=${importId}`}>Open it there</a>.
        </p>
      </div>
    );
  }
  const e = estimate.data;
  const rps = settings.data?.requestsPerSecond ?? null;
  // the headline follows the last hydration that ended: what came back and what did not
  const last = mine.filter((j) => j.status === 'complete').sort((a, b) => (b.finishedAt ?? 0) - (a.finishedAt ?? 0))[0];
  const lastMissing = last ? (hydrations.data ?? []).find((h) => h.jobId === last.id)?.missing : undefined;
  const noun = `${kind === 'posts' ? 'post' : 'user'} ${list.ids === 1 ? 'id' : 'ids'}`;
  return (
    <section className="hydrate-panel" aria-labelledby="hydrate-list-title">
      <h2 id="hydrate-list-title">{list.label}</h2>
      <p className="hydrate-panel__count">
        {last
          ? `${list.ids.toLocaleString()} ${noun}, hydrated: ${last.progress.items.toLocaleString()} came back${lastMissing !== undefined ? `, ${lastMissing.toLocaleString()} did not` : ''}`
          : `${list.ids.toLocaleString()} ${noun} ready to hydrate`}
      </p>
      {list.report ? <ReadReport report={list.report} /> : null}
      {kind === 'users' ? <ResolveHandles list={list} /> : null}
      <p className="hydrate-quote" aria-live="polite">
        {e && e.calls !== null && e.credits !== null
          ? quote(e, prices, rps)
          : estimate.error
            ? `No quote: ${estimate.error.message}`
            : 'Working out the cost…'}
      </p>
      {(e?.alreadyInProject ?? 0) > 0 || refetch ? (
        <label className="hydrate-panel__refetch">
          <input type="checkbox" checked={refetch} onChange={(ev) => setRefetch(ev.target.checked)} /> Fetch the ones
          already in the project again (fresh counters, charged)
        </label>
      ) : null}
      <div className="hydrate-panel__actions">
        <ExportButton view={list.ids > 0 ? view : null} label="Hydrate…" />
        <button
          type="button"
          className="btn btn--small"
          disabled={mine.some(isActive) || discard.isPending}
          onClick={() => discard.mutate(importId, { onSuccess: () => navigate(routes.hydrate(kind)) })}
        >
          Discard this list
        </button>
        <button type="button" className="btn btn--small" onClick={() => navigate(routes.hydrate(kind))}>
          Read another list
        </button>
      </div>
      {mine.length > 0 ? <RunningHydrations jobs={mine} prices={prices} /> : null}
      {(hydrations.data ?? []).map((h) => (
        <MissingIds key={h.jobId} hydration={h} kind={kind} />
      ))}
    </section>
  );
}

/** ` (40%) · 310 ids/s · about 2 min left`, from the job's progress since it started. */
export function pace(j: ExportJob, now: number): string {
  const f = j.progress.fraction;
  if (f === null) return '';
  const seconds = Math.max(0.001, (now - j.startedAt) / 1000);
  const rate = j.progress.items / seconds;
  const left = f > 0 && f < 1 ? (seconds * (1 - f)) / f : null;
  return ` (${Math.round(f * 100)}%)${rate > 0 ? ` · ${Math.round(rate).toLocaleString()} found/s` : ''}${left !== null ? ` · about ${duration(left)} left` : ''}`;
}

export function jobLine(j: ExportJob, prices: PriceTable, now: number): string {
  const spent = creditsLabel(j.progress.credits, creditsToUsd(j.progress.credits, prices));
  const found = `${j.progress.items.toLocaleString()} found in ${j.progress.calls.toLocaleString()} ${j.progress.calls === 1 ? 'call' : 'calls'} (${spent} spent)`;
  if (isActive(j)) return `Hydrating: ${found}${pace(j, now)}`;
  if (j.status === 'complete') return `Done: ${found}, written to ${j.files[0] ?? 'the file chosen'}`;
  return `Stopped (${j.stopReason ?? j.status}): ${found}${j.resumable ? '; open Hydrate… to resume' : ''}`;
}

function RunningHydrations({ jobs, prices }: { jobs: ExportJob[]; prices: PriceTable }) {
  // the time left grows while a slow batch is out: read again each second, not only when a batch lands
  const now = useTicker(1000, jobs.some(isActive));
  return (
    <ul className="hydrate-jobs" aria-label="Hydrations of this list">
      {jobs.map((j) => (
        <li key={j.id}>{jobLine(j, prices, now)}</li>
      ))}
    </ul>
  );
}
