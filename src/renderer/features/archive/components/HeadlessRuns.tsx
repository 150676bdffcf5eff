import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { HeadlessRun, UnreadRun } from '../../../../shared/ipc/jobs';
import { skein } from '../../../lib/bridge';
import { stamp } from '../../../lib/time';
import { headlessRunsQuery } from '../queries';

const STATUS: Record<HeadlessRun['status'], string> = {
  running: 'still running, or stopped without a word (run the job again to go on)',
  complete: 'done',
  partial: 'stopped early',
  cancelled: 'cancelled',
  failed: 'failed (run the job again to go on)',
  interrupted: 'stopped (run the job again to go on)',
};

/** a watch job's run: its watch lives on in the project, and its record says how the last run of the file ended */
const WATCH_STATUS: Record<HeadlessRun['status'], string> = {
  running: 'switched on (run the job again, or from cron, to go on)',
  complete: 'done, its window is over',
  partial: 'stopped at its total cap',
  cancelled: 'cancelled',
  failed: 'failed (run the job again to go on)',
  interrupted: 'stopped (run the job again to go on)',
};

function describe(run: HeadlessRun): string {
  if (run.kind === 'watch')
    return `watch, ${WATCH_STATUS[run.status]}: ${run.items.toLocaleString('en-US')} posts kept, ${run.calls.toLocaleString('en-US')} runs, on ${run.host}, ${stamp(run.finishedAt ?? run.startedAt)}`;
  const what = run.kind === 'hydrate' ? 'hydration' : 'collection';
  const status =
    run.status === 'partial' && run.stopReason?.startsWith('cap-') ? 'stopped at its cap' : STATUS[run.status];
  return `${what}, ${status}: ${run.items.toLocaleString('en-US')} items, ${run.calls.toLocaleString('en-US')} calls, on ${run.host}, ${stamp(run.finishedAt ?? run.startedAt)}`;
}

/** One run: what it was and how it ended, and a button that shows its file (or says where it is). */
function RunRow({ run }: { run: HeadlessRun }) {
  const [note, setNote] = useState<string | null>(null);
  const show = useMutation({
    mutationFn: () => skein().jobs.showResult({ jobId: run.jobId }),
    onSuccess: (r) => setNote(r.note),
    onError: (e) => setNote(e.message),
  });
  return (
    <li>
      <strong>{run.name}</strong> — {describe(run)}{' '}
      {run.kind === 'watch' ? (
        <>
          <a href="#/watches">Open Watches</a>{' '}
        </>
      ) : null}
      {run.files.length > 0 ? (
        <button type="button" className="btn btn--small" onClick={() => show.mutate()} disabled={show.isPending}>
          Show the file
        </button>
      ) : null}
      {note ? (
        <span className="muted" role="status">
          {' '}
          {note}
        </span>
      ) : null}
    </li>
  );
}

/** A run recorded by a newer Skein (a status or kind of job this one has no word for): its record as written. */
function UnreadRow({ run }: { run: UnreadRun }) {
  const parts = [
    run.kind ?? 'a job',
    run.status === null ? null : `“${run.status}”`,
    run.host === null ? null : `on ${run.host}`,
    run.at === null ? null : stamp(run.at),
  ].filter((p): p is string => p !== null);
  return (
    <li>
      <strong>{run.name ?? 'A job this Skein cannot name'}</strong> — {parts.join(', ')}{' '}
      <span className="muted">(recorded by a newer Skein, or damaged: shown as written)</span>
    </li>
  );
}

/** The saved jobs the headless runner (skein run) ran on this project, latest first; nothing when there are none. */
export function HeadlessRuns() {
  const runs = useQuery(headlessRunsQuery());
  if (!runs.data || runs.data.runs.length + runs.data.unread.length === 0) return null;
  return (
    <section className="archive-project__jobs" aria-label="Jobs run without a window">
      <h3 className="archive-project__subtitle">Jobs run without a window</h3>
      <ul>
        {runs.data.runs.map((r) => (
          <RunRow key={r.jobId} run={r} />
        ))}
        {runs.data.unread.map((r, i) => (
          <UnreadRow key={i} run={r} />
        ))}
      </ul>
    </section>
  );
}
