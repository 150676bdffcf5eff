import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import type { ArchiveQuery } from '../../../../shared/ipc/archive';
import type { FormatOffer } from '../../../../shared/ipc/export';
import { archiveOffers } from '../../../../shared/ipc/export-offers';
import { ErrorState } from '../../../components/ErrorState';
import { skein } from '../../../lib/bridge';
import { useFormatOffers } from '../../export';

/**
 * Writes what the Archive view shows (a collection, a search, everything) to a file main asks for: data, a
 * network for Gephi, or ids only (dehydrated) — no API call. The formats are main's registry's (those it
 * offers for the archive's kind of item).
 */
export function ArchiveExport({ query }: { query: ArchiveQuery }) {
  const formats = useFormatOffers();
  const offers = archiveOffers(formats.data ?? [], query.kind ?? 'post');
  const [choice, setChoice] = useState<string | null>(null);
  // a choice that does not apply to this kind of item falls back to the first format
  const offer = offers.find((o) => o.id === choice) ?? offers[0];
  const run = useMutation({
    mutationFn: (o: FormatOffer) => skein().archive.export({ ...query, format: o.format, ...o.options }),
  });
  return (
    <div className="archive-export" role="group" aria-label="Export from the archive">
      <label>
        Format{' '}
        <select className="select" value={offer?.id ?? ''} onChange={(e) => setChoice(e.target.value)}>
          {offers.map((o) => (
            <option key={o.id} value={o.id}>
              {o.label}
            </option>
          ))}
        </select>
      </label>
      <button
        type="button"
        className="btn"
        disabled={run.isPending || !offer}
        onClick={() => offer && run.mutate(offer)}
      >
        Export these results…
      </button>
      {run.isSuccess && run.data ? (
        <span role="status">
          {run.data.items.toLocaleString()} items written to {run.data.file}, without an API call.
          {run.data.damaged
            ? ` ${run.data.damaged.toLocaleString()} ${run.data.damaged === 1 ? 'item was' : 'items were'} left out: ${run.data.damaged === 1 ? 'its' : 'their'} kept copy in the project is damaged and cannot be read (the manifest names ${run.data.damaged === 1 ? 'it' : 'them'}).`
            : ''}
        </span>
      ) : null}
      {run.isError ? <ErrorState compact error={run.error} what="the export" /> : null}
      {formats.isError ? <ErrorState compact error={formats.error} what="the formats" /> : null}
    </div>
  );
}
