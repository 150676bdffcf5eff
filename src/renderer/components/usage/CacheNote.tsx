/**
 * Says when what a view shows did not come from a new call: main answered
 * from its response store (`meta.fromCache`), or the renderer's query cache
 * already held it when the view opened.
 */
import { absoluteTime, clockTime } from '../../lib/time';
import './cost.css';

interface Props {
  /** `meta` of the answer shown */
  meta: { fromCache: boolean; fetchedAt: number } | undefined;
  /** TanStack Query's `isFetchedAfterMount`: false when the view found the answer already cached */
  fetchedAfterMount: boolean;
}

export function CacheNote({ meta, fetchedAfterMount }: Props) {
  if (!meta) return null;
  if (!meta.fromCache && fetchedAfterMount) return null;
  return (
    <p className="cache-note">
      <span className="chip">served from cache</span>
      <span>
        no new call · fetched at{' '}
        <time dateTime={new Date(meta.fetchedAt).toISOString()} title={absoluteTime(meta.fetchedAt)}>
          {clockTime(meta.fetchedAt)}
        </time>
      </span>
    </p>
  );
}
