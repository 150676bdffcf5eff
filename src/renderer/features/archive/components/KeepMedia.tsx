import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { skein } from '../../../lib/bridge';
import { stamp } from '../../../lib/time';
import { estimateSentence, progressSentence, sizeLabel, timestampSentence } from '../keep-media';
import { CheckKeptFiles } from './CheckKeptFiles';
import { EvidencePackage } from './EvidencePackage';
import { KeepJobPanel } from './KeepJobPanel';
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

const WORDS = {
  action: 'Keep media',
  estimate: estimateSentence,
  counting: 'Counting the photos and videos of this collection…',
  estimateWhat: 'the estimate',
  progress: progressSentence,
  bar: 'Media kept',
  startWhat: 'keeping the media',
};

/**
 * "Keep media…" on a collection: the estimate first (files, bytes known and guessed, time), then the keeping
 * with its progress and a cancel, then who timestamped the run's files and when (or why nobody did), the files
 * kept with when and their SHA-256, a check that every kept file still matches, and the collection's evidence
 * package. Nothing here costs credits.
 */
export function KeepMedia({ collection }: { collection: number }) {
  const client = useQueryClient();
  const onEnded = useCallback(
    () => void client.invalidateQueries({ queryKey: mediaKeys.kept(collection) }),
    [client, collection],
  );
  return (
    <KeepJobPanel
      words={WORDS}
      estimateQuery={mediaEstimateQuery(collection)}
      jobQuery={mediaJobQuery}
      start={() => skein().media.keep({ collection })}
      cancel={(id) => skein().media.cancel({ id })}
      onEnded={onEnded}
      details={(job) =>
        job?.timestamp ? (
          <p className={job.timestamp.authority ? undefined : 'keep-media__alarm'}>
            {timestampSentence(job.timestamp)}
          </p>
        ) : null
      }
      after={(running) => <KeptMedia collection={collection} checks={!running} />}
    />
  );
}

/**
 * the files kept for a collection, each viewable offline; with `checks` (no keeping under way), read again, the
 * check of every kept file and the evidence package
 */
function KeptMedia({ collection, checks = false }: { collection: number; checks?: boolean }) {
  const [viewing, setViewing] = useState<string | null>(null);
  const kept = useQuery({ ...keptMediaQuery(collection), enabled: checks });
  return (
    <>
      {checks ? <CheckKeptFiles /> : null}
      {checks ? <EvidencePackage collection={collection} /> : null}
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
    </>
  );
}
