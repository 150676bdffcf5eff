import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { ErrorState } from '../../../components/ErrorState';
import { stamp } from '../../../lib/time';
import { keptFileQuery } from '../queries';

/**
 * A kept file shown from the project's media folder, not the network: its bytes come over the bridge and are
 * shown from a blob, with when it was kept, its SHA-256, and whether its bytes still match that hash.
 */
export function KeptMediaViewer({ sha256, onClose }: { sha256: string; onClose: () => void }) {
  const file = useQuery(keptFileQuery(sha256));
  const data = file.data;
  const url = useMemo(() => {
    if (!data?.base64) return null;
    const bytes = Uint8Array.from(atob(data.base64), (c) => c.charCodeAt(0));
    return URL.createObjectURL(new Blob([bytes], { type: data.mime }));
  }, [data]);
  useEffect(() => () => (url ? URL.revokeObjectURL(url) : undefined), [url]);
  if (file.isError) return <ErrorState compact error={file.error} what="the kept file" />;
  if (!data) return <p role="status">Opening the kept file…</p>;
  const video = data.mime.startsWith('video/');
  return (
    <figure className="kept-media" aria-label="Kept file">
      {url ? (
        video ? (
          <video src={url} controls aria-label="The kept video" />
        ) : (
          <img src={url} alt="The kept photo" />
        )
      ) : (
        <p>This file is too large to show here, or is missing from the media folder.</p>
      )}
      <figcaption>
        Kept <time dateTime={new Date(data.keptAt).toISOString()}>{stamp(data.keptAt)}</time>, shown from this computer
        (no network). SHA-256 <span className="keep-media__hash">{data.sha256}</span>
        {data.intact ? ' — its bytes still match.' : ' — its bytes no longer match: the file changed or is missing.'}
      </figcaption>
      <button type="button" className="btn btn--small" onClick={onClose}>
        Close
      </button>
    </figure>
  );
}
