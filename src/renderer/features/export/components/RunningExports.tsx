import { useEffect, useState } from 'react';
import { OPERATIONS } from '../../../../shared/api/catalog';
import type { ExportJob } from '../../../../shared/ipc/export';
import { describeJob, fileName, waitWords } from '../form';

/** While a job waits out a rate limit: the countdown, ticking each second; nothing otherwise. */
export function WaitNotice({ job }: { job: ExportJob }) {
  if (waitWords(job, 0) === null) return null;
  // a new wait mounts a new countdown, so it starts from the time it is shown
  return <Countdown key={job.progress.waitingUntil} job={job} />;
}

function Countdown({ job }: { job: ExportJob }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, []);
  return (
    <p className="export__wait" role="timer" aria-live="off">
      {waitWords(job, now)}
    </p>
  );
}

/**
 * Exports running now, other than the one the dialog shows: whichever view the dialog was opened
 * from, a running job stays in sight with its progress and its Cancel.
 */
export function RunningExports({ jobs, onCancel }: { jobs: readonly ExportJob[]; onCancel: (id: string) => void }) {
  if (jobs.length === 0) return null;
  return (
    <section className="export__unfinished" aria-label="Running exports">
      <h3>Running exports</h3>
      <ul>
        {jobs.map((j) => (
          <li key={j.id}>
            <span>
              <strong>{j.view.title ?? OPERATIONS[j.view.operation].title}</strong> → {fileName(j.files[0] ?? '')}
              <br />
              <span className="muted">{describeJob(j)}</span>
              <WaitNotice job={j} />
            </span>
            <span className="export__row-buttons">
              <button type="button" className="btn btn--small" onClick={() => onCancel(j.id)}>
                Cancel
              </button>
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
