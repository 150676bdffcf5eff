import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { ArchiveQuery } from '../../../../shared/ipc/archive';
import { ErrorState } from '../../../components/ErrorState';
import { skein } from '../../../lib/bridge';
import { archiveKeys } from '../queries';

/**
 * Keeps what the Archive view shows as a collection (the items the search finds now), which the Collection
 * filter then offers like an export's: to narrow, export or code again without searching.
 */
export function SaveSearch({ query, suggested }: { query: ArchiveQuery; suggested: string }) {
  const client = useQueryClient();
  const [name, setName] = useState('');
  const save = useMutation({
    mutationFn: (named: string) => skein().archive.saveSearch({ ...query, name: named }),
    onSuccess: () => {
      setName('');
      void client.invalidateQueries({ queryKey: archiveKeys.collections() });
    },
  });
  const named = (name.trim() || suggested).slice(0, 120);
  return (
    <form
      className="archive-export"
      aria-label="Save this search"
      onSubmit={(e) => {
        e.preventDefault();
        if (!save.isPending) save.mutate(named);
      }}
    >
      <label>
        Collection name{' '}
        <input
          className="input"
          value={name}
          placeholder={suggested}
          maxLength={120}
          onChange={(e) => setName(e.target.value)}
        />
      </label>
      <button type="submit" className="btn" disabled={save.isPending}>
        Save as a collection
      </button>
      {save.isSuccess ? (
        <span role="status">
          Saved “{save.data.name}”: {save.data.items.toLocaleString()} items, under Collection.
        </span>
      ) : null}
      {save.isError ? <ErrorState compact error={save.error} what="the saved search" /> : null}
    </form>
  );
}
