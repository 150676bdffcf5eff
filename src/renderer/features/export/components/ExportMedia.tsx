import { ErrorState } from '../../../components/ErrorState';
import { estimateSentence, progressSentence } from '../../../lib/media-words';
import { formatRoute, routes } from '../../../lib/routes';
import type { ExportJob } from '../../../../shared/ipc/export';
import { mediaPendingWords } from '../form';
import { useExportMedia } from '../queries';

/**
 * Under an export that asked for its posts' media: what keeping them takes, then its progress with a cancel, how
 * it ended (keeping again goes on where it stopped), and the collection the export became, in the Archive.
 */
export function ExportMedia({ job, onLeave }: { job: ExportJob; onLeave: () => void }) {
  const media = useExportMedia(job.mediaJob ?? null);
  const pending = mediaPendingWords(job);
  const m = media.job.data;
  const running = m?.state === 'running';
  if (!job.keepMedia && job.collection === undefined) return null;
  return (
    <section className="export__media" aria-label="Media of this export">
      {job.keepMedia ? <h3>Photos and videos</h3> : null}
      {pending ? <p className="muted">{pending}</p> : null}
      {m?.estimate && (running || m.done === 0) ? <p>{estimateSentence(m.estimate, 'these posts')}</p> : null}
      {m ? (
        <>
          <p role="status">{progressSentence(m)}</p>
          {running ? <progress aria-label="Media kept" value={m.done} max={Math.max(1, m.total)} /> : null}
        </>
      ) : job.mediaJob && media.job.isSuccess ? (
        <p className="muted">
          This keeping is no longer remembered: the collection in the Archive shows what was kept.
        </p>
      ) : null}
      {media.job.isError ? <ErrorState compact error={media.job.error} what="the keeping of the media" /> : null}
      <div className="export__buttons">
        {m && running ? (
          <button type="button" className="btn" onClick={() => media.cancel.mutate(m.id)}>
            Stop keeping media
          </button>
        ) : null}
        {m && (m.state === 'cancelled' || m.state === 'failed' || m.failed > 0) ? (
          <button type="button" className="btn" onClick={() => media.again.mutate(m.collection)}>
            Keep media again
          </button>
        ) : null}
        {job.collection !== undefined ? (
          <a className="btn" href={formatRoute(routes.archive('', job.collection))} onClick={onLeave}>
            Open its collection in the Archive
          </a>
        ) : null}
      </div>
      {media.again.isError ? <ErrorState compact error={media.again.error} what="keeping the media" /> : null}
    </section>
  );
}
