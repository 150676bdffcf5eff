import { useMutation, useQuery, type QueryKey, type UseQueryOptions } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import { ErrorState } from '../../../components/ErrorState';

/** what every keeping job the panel follows carries */
interface PolledJob {
  id: string;
  state: 'running' | 'done' | 'cancelled' | 'failed';
  done: number;
  total: number;
}

/** the words of one kind of keeping */
export interface KeepWords<E, J> {
  /** the section's name and the action's: "Keep media" (the toggle reads "Keep media…", then "Keep media again") */
  action: string;
  /** what the estimate says before anything is kept */
  estimate: (e: E) => string;
  /** while the estimate is worked out */
  counting: string;
  /** the estimate, named in an error ("Could not load …") */
  estimateWhat: string;
  progress: (j: J) => string;
  /** the progress bar's name */
  bar: string;
  /** the keeping, named in an error */
  startWhat: string;
}

export interface KeepJobPanelProps<E, J extends PolledJob, KE extends QueryKey, KJ extends QueryKey> {
  words: KeepWords<E, J>;
  estimateQuery: UseQueryOptions<E, Error, E, KE>;
  jobQuery: (id: string) => UseQueryOptions<J | null, Error, J | null, KJ>;
  start: () => Promise<J>;
  cancel: (id: string) => Promise<unknown>;
  /** once a job has ended (the queries it changed are read again); keep it stable (useCallback) */
  onEnded: () => void;
  /** below the progress: how the job ended, and what the collection holds (`running`: a job is under way) */
  details?: (job: J | undefined, running: boolean) => ReactNode;
  /** below the actions: what else can be done with what was kept */
  after?: (running: boolean) => ReactNode;
}

/**
 * A keeping on a collection (its media, its linked pages): the estimate first, then the job with its progress
 * and a cancel, then how it ended, the action to go on again. Each kind says its words and what it shows around
 * the job; the panel follows the job the same way for both.
 */
export function KeepJobPanel<E, J extends PolledJob, KE extends QueryKey, KJ extends QueryKey>(
  props: KeepJobPanelProps<E, J, KE, KJ>,
) {
  const { words, onEnded } = props;
  const [open, setOpen] = useState(false);
  const [jobId, setJobId] = useState<string | null>(null);
  const estimate = useQuery({ ...props.estimateQuery, enabled: open && jobId === null });
  const job = useQuery({ ...props.jobQuery(jobId ?? ''), enabled: jobId !== null });
  const current = job.data ?? undefined;
  const running = current?.state === 'running';
  const start = useMutation({ mutationFn: props.start, onSuccess: (j) => setJobId(j.id) });
  const cancel = useMutation({ mutationFn: props.cancel });
  const ended = current && !running ? current.state : null;
  useEffect(() => {
    if (ended) onEnded();
  }, [ended, onEnded]);

  return (
    <section className="keep-media" aria-label={words.action}>
      <button type="button" className="btn" aria-expanded={open} onClick={() => setOpen((o) => !o)}>
        {words.action}…
      </button>
      {open ? (
        <div className="keep-media__panel">
          {jobId === null ? (
            estimate.data ? (
              <p role="status">{words.estimate(estimate.data)}</p>
            ) : estimate.isError ? (
              <ErrorState compact error={estimate.error} what={words.estimateWhat} />
            ) : (
              <p role="status">{words.counting}</p>
            )
          ) : null}
          {current ? (
            <>
              <p role="status">{words.progress(current)}</p>
              {running ? (
                <progress aria-label={words.bar} value={current.done} max={Math.max(1, current.total)} />
              ) : null}
            </>
          ) : null}
          {props.details?.(current, running)}
          <div className="keep-media__actions">
            {running && jobId ? (
              <button type="button" className="btn" onClick={() => cancel.mutate(jobId)}>
                Cancel
              </button>
            ) : (
              <button
                type="button"
                className="btn btn--primary"
                disabled={start.isPending || (jobId === null && !estimate.data)}
                onClick={() => start.mutate()}
              >
                {jobId === null ? words.action : `${words.action} again`}
              </button>
            )}
          </div>
          {start.isError ? <ErrorState compact error={start.error} what={words.startWhat} /> : null}
          {props.after?.(running)}
        </div>
      ) : null}
    </section>
  );
}
