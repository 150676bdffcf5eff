import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { ErrorState } from '../../../components/ErrorState';
import { skein } from '../../../lib/bridge';
import { pagesEstimateSentence, pagesProgressSentence, saveSentence, waczSentence } from '../keep-pages';
import { LinkedPageList } from './LinkedPageList';
import { pagesEstimateQuery, pagesJobQuery, pagesKeys } from '../queries';

/**
 * "Keep linked pages…" on a collection: the count of pages its posts link to first, then the capture with its
 * progress and a cancel, then how it ended (kept, not kept and why; sent to a web archive's save service, when
 * that is on) and where the web archive is, and each page's line. Nothing here costs credits.
 */
export function KeepPages({ collection }: { collection: number }) {
  const [open, setOpen] = useState(false);
  const [jobId, setJobId] = useState<string | null>(null);
  const client = useQueryClient();
  const estimate = useQuery({ ...pagesEstimateQuery(collection), enabled: open && jobId === null });
  const job = useQuery({ ...pagesJobQuery(jobId ?? ''), enabled: jobId !== null });
  const running = job.data?.state === 'running';
  const start = useMutation({
    mutationFn: () => skein().pages.capture({ collection }),
    onSuccess: (j) => setJobId(j.id),
  });
  const cancel = useMutation({ mutationFn: (id: string) => skein().pages.cancel({ id }) });
  const ended = job.data && !running ? job.data.state : null;
  useEffect(() => {
    if (ended) {
      void client.invalidateQueries({ queryKey: pagesKeys.estimate(collection) });
      void client.invalidateQueries({ queryKey: pagesKeys.list(collection) });
    }
  }, [ended, client, collection]);
  const where = job.data && !running ? waczSentence(job.data) : null;
  const saved = job.data ? saveSentence(job.data) : null;

  return (
    <section className="keep-media" aria-label="Keep linked pages">
      <button type="button" className="btn" aria-expanded={open} onClick={() => setOpen((o) => !o)}>
        Keep linked pages…
      </button>
      {open ? (
        <div className="keep-media__panel">
          {jobId === null ? (
            estimate.data ? (
              <p role="status">{pagesEstimateSentence(estimate.data)}</p>
            ) : estimate.isError ? (
              <ErrorState compact error={estimate.error} what="the count of linked pages" />
            ) : (
              <p role="status">Counting the pages this collection links to…</p>
            )
          ) : null}
          {job.data ? (
            <>
              <p role="status">{pagesProgressSentence(job.data)}</p>
              {running ? (
                <progress aria-label="Linked pages kept" value={job.data.done} max={Math.max(1, job.data.total)} />
              ) : null}
            </>
          ) : null}
          {saved ? <p role="status">{saved}</p> : null}
          {where ? <p className="keep-media__hash">{where}</p> : null}
          {!running ? <LinkedPageList collection={collection} /> : null}
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
                {jobId === null ? 'Keep linked pages' : 'Keep linked pages again'}
              </button>
            )}
          </div>
          {start.isError ? <ErrorState compact error={start.error} what="keeping the linked pages" /> : null}
        </div>
      ) : null}
    </section>
  );
}
