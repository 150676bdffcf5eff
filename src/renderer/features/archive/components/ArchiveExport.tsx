import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import type { ArchiveExportFormat, ArchiveQuery } from '../../../../shared/ipc/archive';
import { ErrorState } from '../../../components/ErrorState';
import { skein } from '../../../lib/bridge';

const FORMATS: ReadonlyArray<[ArchiveExportFormat, string]> = [
  ['jsonl', 'JSONL'],
  ['json', 'JSON'],
  ['csv', 'CSV (for analysis)'],
  ['parquet', 'Parquet'],
];

/** Writes what the Archive view shows (a collection, a search, everything) to a file main asks for: no API call. */
export function ArchiveExport({ query }: { query: ArchiveQuery }) {
  const [format, setFormat] = useState<ArchiveExportFormat>('jsonl');
  const run = useMutation({
    mutationFn: () =>
      skein().archive.export({ ...query, format, ...(format === 'csv' ? { csvFlavour: 'analysis' as const } : {}) }),
  });
  return (
    <div className="archive-export" role="group" aria-label="Export from the archive">
      <label>
        Format{' '}
        <select className="select" value={format} onChange={(e) => setFormat(e.target.value as ArchiveExportFormat)}>
          {FORMATS.map(([f, label]) => (
            <option key={f} value={f}>
              {label}
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
