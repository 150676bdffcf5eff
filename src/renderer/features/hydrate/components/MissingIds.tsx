import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { NOT_IN_DEMO, NOT_RETURNED } from '../../../../shared/ids/id-token';
import type { Hydration } from '../../../../shared/ipc/ids';
import { appInfoQuery } from '../../../lib/app-info';
import { navigate } from '../../../lib/navigation';
import { stamp } from '../../../lib/time';
import { routes, type LookupKind } from '../../../lib/routes';
import { useMissing, useRetryMissing } from '../queries';

const PAGE = 200;

/** What the ids that look rounded by a spreadsheet are, said apart from the deleted ones. */
function roundedNote(rounded: number, missing: number): string {
  const who =
    rounded === missing
      ? rounded === 1
        ? 'It has'
        : 'Each of them has'
      : rounded === 1
        ? '1 of them has'
        : `${rounded.toLocaleString()} of them have`;
  return `${who} the shape a spreadsheet leaves when it rounds an id (15 significant digits, then zeros): more likely damaged in your list than deleted. ${rounded === 1 ? 'It is' : 'They are'} counted apart from the deleted, protected or suspended posts, in the file's manifest too: check ${rounded === 1 ? 'it' : 'them'} against the original list.`;
}

/** The ids one hydration asked for and did not get, with why; "retry the missing" asks only for those. */
export function MissingIds({ hydration, kind }: { hydration: Hydration; kind: LookupKind }) {
  const [limit, setLimit] = useState(PAGE);
  const missing = useMissing(hydration.jobId, limit);
  const retry = useRetryMissing();
  // the demo world answers only for what it generated: an id from a real list is not "deleted" there
  const demo = useQuery(appInfoQuery()).data?.mode === 'demo';
  const why = (reason: string) => (demo && reason === NOT_RETURNED ? NOT_IN_DEMO : reason);
  const when = stamp(hydration.at);
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
      {hydration.possiblyRounded > 0 ? (
        <p className="hydrate-missing__note" role="note">
          {roundedNote(hydration.possiblyRounded, hydration.missing)}
        </p>
      ) : null}
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
              <td>{why(m.reason)}</td>
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
