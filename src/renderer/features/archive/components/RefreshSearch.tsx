import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ErrorState } from '../../../components/ErrorState';
import { skein } from '../../../lib/bridge';
import { archiveKeys, collectionsQuery } from '../queries';

/**
 * A saved search, opened as a collection: it holds what its search found when saved; "Add what it finds now"
 * takes in the items collected since that match it (after those it holds, which stay as they were). No API call.
 */
export function RefreshSearch({ collection }: { collection: number }) {
  const client = useQueryClient();
  const collections = useQuery(collectionsQuery());
  const saved = collections.data?.find((c) => c.id === collection);
  const refresh = useMutation({
    mutationFn: () => skein().archive.refreshSearch({ collection }),
    onSuccess: () => void client.invalidateQueries({ queryKey: archiveKeys.all }),
  });
  if (saved?.kind !== 'search') return null;
  return (
    <section className="archive-export" aria-label="Bring the saved search up to date">
      <span>
        “{saved.name}” is a saved search: it holds {saved.items.toLocaleString()} {saved.items === 1 ? 'item' : 'items'}
        , as its search found them.
      </span>
      <button type="button" className="btn" disabled={refresh.isPending} onClick={() => refresh.mutate()}>
        Add what it finds now
      </button>
      {refresh.isSuccess ? (
        <span role="status">
          {refresh.data.added === 0
            ? 'Nothing new matches it.'
            : `${refresh.data.added.toLocaleString()} new ${refresh.data.added === 1 ? 'item' : 'items'} added after those it held.`}
        </span>
      ) : null}
      {refresh.isError ? <ErrorState compact error={refresh.error} what="the saved search" /> : null}
    </section>
  );
}
