import { useQuery } from '@tanstack/react-query';
import { MAX_IDS_PER_CALL } from '../../../../shared/api/catalog';
import { ErrorState } from '../../../components/ErrorState';
import { PostCard } from '../../../components/post/PostCard';
import { SkeletonList } from '../../../components/states';
import { postsByIdsQuery } from '../../../lib/lookups';

/** The profile's pinned posts (one batch lookup). */
export function PinnedPosts({ ids }: { ids: readonly string[] }) {
  const batch = ids.slice(0, MAX_IDS_PER_CALL);
  const q = useQuery({ ...postsByIdsQuery(batch), enabled: batch.length > 0 });
  if (batch.length === 0) return null;
  return (
    <section className="pinned" aria-label="Pinned posts">
      <h2 className="section-title">Pinned</h2>
      {q.status === 'pending' ? (
        <SkeletonList count={1} label="Loading pinned posts…" />
      ) : q.status === 'error' ? (
        <ErrorState compact error={q.error} what="pinned posts" onRetry={() => void q.refetch()} />
      ) : q.data.items.length === 0 ? (
        <p className="note">The pinned post is no longer available.</p>
      ) : (
        q.data.items.map((p) => <PostCard key={p.id} post={p} badge="Pinned" />)
      )}
    </section>
  );
}
