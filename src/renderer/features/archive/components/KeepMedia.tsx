import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { ErrorState } from '../../../components/ErrorState';
import { skein } from '../../../lib/bridge';
import { stamp } from '../../../lib/time';
import { estimateSentence, progressSentence, sizeLabel, timestampSentence } from '../keep-media';
import { CheckKeptFiles } from './CheckKeptFiles';
import { EvidencePackage } from './EvidencePackage';
import { KeptMediaViewer } from './KeptMediaViewer';
import { keptMediaQuery, mediaEstimateQuery, mediaJobQuery, mediaKeys } from '../queries';

const KIND: Record<string, string> = {
  'image/jpeg': 'Photo',
  'image/png': 'Photo',
  'image/webp': 'Photo',
  'image/gif': 'GIF',
  'video/mp4': 'Video',
};
const SHOWN = 100;

/**
 * "Keep media…" on a collection: the estimate first (files, bytes known and guessed, time), then the keeping
 * with its progress and a cancel, then who timestamped the run's files and when (or why nobody did), the files
 * kept with when and their SHA-256, a check that every kept file still matches, and the collection's evidence
 * package. Nothing here costs credits.
 */
export function KeepMedia({ collection }: { collection: number }) {
  const [open, setOpen] = useState(false);
  const [jobId, setJobId] = useState<string | null>(null);
  const [viewing, setViewing] = useState<string | null>(null);
  const client = useQueryClient();
  const estimate = useQuery({ ...mediaEstimateQuery(collection), enabled: open && jobId === null });
  const job = useQuery({ ...mediaJobQuery(jobId ?? ''), enabled: jobId !== null });
  const running = job.data?.state === 'running';
  const kept = useQuery({ ...keptMediaQuery(collection), enabled: open && !running });
  const start = useMutation({
    mutationFn: () => skein().media.keep({ collection }),
    onSuccess: (j) => setJobId(j.id),
  });
  const cancel = useMutation({ mutationFn: (id: string) => skein().media.cancel({ id }) });
  const ended = job.data && !running ? job.data.state : null;
  useEffect(() => {
    if (ended) void client.invalidateQueries({ queryKey: mediaKeys.kept(collection) });
  }, [ended, client, collection]);

  return (
    <section className="keep-media" aria-label="Keep media">
      <button type="button" className="btn" aria-expanded={open} onClick={() => setOpen((o) => !o)}>
        Keep media…
      </button>
      {open ? (
        <div className="keep-media__panel">
          {jobId === null ? (
            estimate.data ? (
              <p role="status">{estimateSentence(estimate.data)}</p>
            ) : estimate.isError ? (
              <ErrorState compact error={estimate.error} what="the estimate" />
            ) : (
              <p role="status">Counting the photos and videos of this collection…</p>
            )
          ) : null}
          {job.data ? (
            <>
              <p role="status">{progressSentence(job.data)}</p>
              {job.data.timestamp ? (
                <p className={job.data.timestamp.authority ? undefined : 'keep-media__alarm'}>
                  {timestampSentence(job.data.timestamp)}
                </p>
              ) : null}
              {running ? (
                <progress aria-label="Media kept" value={job.data.done} max={Math.max(1, job.data.total)} />
              ) : null}
            </>
          ) : null}
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
                {jobId === null ? 'Keep media' : 'Keep media again'}
              </button>
            )}
          </div>
          {start.isError ? <ErrorState compact error={start.error} what="keeping the media" /> : null}
          {running ? null : <CheckKeptFiles />}
          {running ? null : <EvidencePackage collection={collection} />}
          {viewing ? <KeptMediaViewer key={viewing} sha256={viewing} onClose={() => setViewing(null)} /> : null}
          {kept.data && kept.data.length > 0 ? (
            <table className="keep-media__kept" aria-label="Kept media">
              <thead>
                <tr>
                  <th scope="col">Kind</th>
                  <th scope="col">Kept</th>
                  <th scope="col">Size</th>
                  <th scope="col">SHA-256</th>
                  <th scope="col">
                    <span className="visually-hidden">View</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {kept.data.slice(0, SHOWN).map((f) => (
                  <tr key={`${f.postId} ${f.sha256}`}>
                    <td>{KIND[f.mime] ?? 'File'}</td>
                    <td>
                      <time dateTime={new Date(f.keptAt).toISOString()}>{stamp(f.keptAt)}</time>
                    </td>
                    <td>{sizeLabel(f.size)}</td>
                    <td className="keep-media__hash">{f.sha256}</td>
                    <td>
                      <button type="button" className="btn btn--small" onClick={() => setViewing(f.sha256)}>
                        View
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : null}
          {kept.data && kept.data.length > SHOWN ? (
            <p>
              The first {SHOWN} of {kept.data.length} kept files.
            </p>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}
