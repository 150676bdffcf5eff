import type { CounterKind } from '../../../../shared/ipc/watch';
import { ErrorState } from '../../../components/ErrorState';
import { useExportTable } from '../queries';

/**
 * The deltas and attrition tables to CSV (a watch's, an item's, or the project's), written by main to a file
 * it asks for; no API call. Their manifest beside them says how pandas and R read them exactly.
 */
export function TableExports({
  label,
  watchId,
  item,
}: {
  label: string;
  watchId?: number;
  item?: { kind: CounterKind; id: string };
}) {
  const run = useExportTable();
  return (
    <div className="watch-tables" role="group" aria-label={`Tables: ${label}`}>
      <span className="watch-tables__label">{label}:</span>
      <button
        type="button"
        className="btn btn--small"
        disabled={run.isPending}
        onClick={() => run.mutate({ table: 'deltas', ...(watchId ? { watchId } : {}), ...(item ? { item } : {}) })}
      >
        Export deltas (CSV)…
      </button>
      {item ? null : (
        <button
          type="button"
          className="btn btn--small"
          disabled={run.isPending}
          onClick={() => run.mutate({ table: 'attrition', ...(watchId ? { watchId } : {}) })}
        >
          Export attrition (CSV)…
        </button>
      )}
      {run.isSuccess && run.data ? (
        <span role="status">
          {run.data.rows.toLocaleString()} rows written to {run.data.file}, with a manifest beside it.
        </span>
      ) : null}
      {run.isError ? <ErrorState compact error={run.error} what="the table" /> : null}
    </div>
  );
}
