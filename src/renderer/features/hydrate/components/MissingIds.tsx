import { useState } from 'react';
import type { Hydration } from '../../../../shared/ipc/ids';
import { navigate } from '../../../lib/navigation';
import { routes, type LookupKind } from '../../../lib/routes';
import { useMissing, useRetryMissing } from '../queries';

const PAGE = 200;

/** The ids one hydration asked for and did not get, with why; "retry the missing" asks only for those. */
export function MissingIds({ hydration, kind }: { hydration: Hydration; kind: LookupKind }) {
  const [limit, setLimit] = useState(PAGE);
  const missing = useMissing(hydration.jobId, limit);
  const retry = useRetryMissing();
  const when = new Date(hydration.at).toLocaleString();
  if (hydration.missing === 0) {
    return <p className="hydrate-missing">Hydration of {when}: every id came back.</p>;
  }
  const ids = missing.data?.ids ?? [];
  return (
    <section className="hydrate-missing" aria-label={`Ids that did not come back (${when})`}>
      <h3>
        Hydration of {when}: {hydration.missing.toLocaleString()} {hydration.missing === 1 ? 'id' : 'ids'} did not come
        back
      </h3>
      <table className="hydrate-table">
        <thead>
          <tr>
            <th scope="col">Id</th>
            <th scope="col">Why</th>
          </tr>
        </thead>
        <tbody>
          {ids.map((m) => (
            <tr key={m.id}>
              <td>
                <code>{m.id}</code>
              </td>
              <td>{m.reason}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="hydrate-panel__actions">
        {ids.length < hydration.missing ? (
          <button type="button" className="btn btn--small" onClick={() => setLimit((l) => Math.min(1000, l + PAGE))}>
            Show more
          </button>
        ) : null}
        <button
          type="button"
          className="btn btn--small"
          disabled={retry.isPending}
          onClick={() =>
            retry.mutate(hydration.jobId, { onSuccess: (list) => navigate(routes.hydrate(kind, list.importId)) })
          }
        >
          Retry the missing ({hydration.missing.toLocaleString()})
        </button>
      </div>
      {retry.error ? (
        <p role="alert" className="error-text">
          {retry.error.message}
        </p>
      ) : null}
    </section>
  );
}
