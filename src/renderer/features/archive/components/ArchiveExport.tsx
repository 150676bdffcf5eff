import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import type { ArchiveExportInput, ArchiveQuery } from '../../../../shared/ipc/archive';
import { ErrorState } from '../../../components/ErrorState';
import { skein } from '../../../lib/bridge';

interface Offer {
  label: string;
  format: ArchiveExportInput['format'];
  idsOf?: 'posts' | 'users';
  /** offered for posts only (a network needs the posts' replies, quotes and mentions) */
  postsOnly?: boolean;
}

const OFFERS: readonly Offer[] = [
  { label: 'JSONL', format: 'jsonl' },
  { label: 'JSON', format: 'json' },
  { label: 'CSV (for analysis)', format: 'csv' },
  { label: 'Parquet', format: 'parquet' },
  { label: 'Network (GEXF)', format: 'gexf', postsOnly: true },
  { label: 'Network (Gephi CSV)', format: 'gephi-csv', postsOnly: true },
  { label: 'Post ids only (.txt)', format: 'ids', idsOf: 'posts', postsOnly: true },
  { label: 'User ids only (.txt)', format: 'ids', idsOf: 'users' },
];

/**
 * Writes what the Archive view shows (a collection, a search, everything) to a file main asks for: data, a
 * network for Gephi, or ids only (dehydrated) — no API call.
 */
export function ArchiveExport({ query }: { query: ArchiveQuery }) {
  const offers = OFFERS.filter((o) => !o.postsOnly || (query.kind ?? 'post') === 'post');
  const [choice, setChoice] = useState(OFFERS[0]!.label);
  // a choice that does not apply to this kind of item falls back to the first format
  const offer = offers.find((o) => o.label === choice) ?? offers[0]!;
  const run = useMutation({
    mutationFn: () =>
      skein().archive.export({
        ...query,
        format: offer.format,
        ...(offer.format === 'csv' ? { csvFlavour: 'analysis' as const } : {}),
        ...(offer.idsOf ? { idsOf: offer.idsOf } : {}),
      }),
  });
  return (
    <div className="archive-export" role="group" aria-label="Export from the archive">
      <label>
        Format{' '}
        <select className="select" value={offer.label} onChange={(e) => setChoice(e.target.value)}>
          {offers.map((o) => (
            <option key={o.label} value={o.label}>
              {o.label}
            </option>
          ))}
        </select>
      </label>
      <button type="button" className="btn" disabled={run.isPending} onClick={() => run.mutate()}>
        Export these results…
      </button>
      {run.isSuccess && run.data ? (
        <span role="status">
          {run.data.items.toLocaleString()} items written to {run.data.file}, without an API call.
        </span>
      ) : null}
      {run.isError ? <ErrorState compact error={run.error} what="the export" /> : null}
    </div>
  );
}
