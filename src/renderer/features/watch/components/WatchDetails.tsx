import { useQuery } from '@tanstack/react-query';
import type { WatchSummary } from '../../../../shared/ipc/watch';
import { ErrorState } from '../../../components/ErrorState';
import { formatRoute, routes } from '../../../lib/routes';
import { attritionQuery, watchGapsQuery, watchRunsQuery } from '../queries';
import { count, gapWords, runWords, utcMinute } from '../words';

/** A watch's history: its runs (what each asked and cost), its gaps (why, and whether filled), and what went. */
export function WatchDetails({ watch }: { watch: WatchSummary }) {
  const runs = useQuery(watchRunsQuery(watch.id));
  const gaps = useQuery(watchGapsQuery(watch.id));
  const gone = useQuery(attritionQuery(watch.id, null));
  const missingOrGone = (gone.data ?? []).filter((r) => r.status !== 'present');
  return (
    <div className="watch-details">
      <table className="watch-table" aria-label="Runs">
        <caption>Runs (newest first)</caption>
        <thead>
          <tr>
            <th scope="col">Started</th>
            <th scope="col">Outcome</th>
            <th scope="col">Asked</th>
            <th scope="col" className="num">
              Calls
            </th>
            <th scope="col" className="num">
              Credits
            </th>
            <th scope="col" className="num">
              New
            </th>
          </tr>
        </thead>
        <tbody>
          {(runs.data ?? []).map((r) => (
            <tr key={r.id}>
              <th scope="row">{utcMinute(r.startedAt)}</th>
              <td>
                {runWords(r.status)}
                {r.resumed ? ' (picked up again)' : ''}
                {r.message ? <span className="watch-table__note">{r.message}</span> : null}
              </td>
              <td>{r.asked}</td>
              <td className="num">{r.calls}</td>
              <td className="num">{count(r.credits)}</td>
              <td className="num">{r.newItems}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {runs.isError ? <ErrorState compact error={runs.error} what="the runs" /> : null}

      <table className="watch-table" aria-label="Gaps">
        <caption>Gaps</caption>
        <thead>
          <tr>
            <th scope="col">From</th>
            <th scope="col">To</th>
            <th scope="col">Why</th>
            <th scope="col">Filled</th>
          </tr>
        </thead>
        <tbody>
          {(gaps.data ?? []).map((g) => (
            <tr key={g.id}>
              <th scope="row">{utcMinute(g.from)}</th>
              <td>{utcMinute(g.to)}</td>
              <td>
                {gapWords(g.reason)}
                <span className="watch-table__note">{g.detail}</span>
              </td>
              <td>
                {g.filledAt !== null
                  ? `filled ${utcMinute(g.filledAt)}`
                  : `open: ${g.pending} target${g.pending === 1 ? '' : 's'} to read back`}
              </td>
            </tr>
          ))}
          {gaps.data && gaps.data.length === 0 ? (
            <tr>
              <td colSpan={4}>No gap: every scheduled run ran.</td>
            </tr>
          ) : null}
        </tbody>
      </table>

      <table className="watch-table" aria-label="Disappeared">
        <caption>Disappeared (gone only after a re-check by id)</caption>
        <thead>
          <tr>
            <th scope="col">Item</th>
            <th scope="col">Status</th>
            <th scope="col">First missing</th>
            <th scope="col">Since</th>
            <th scope="col" className="num">
              Re-checks
            </th>
            <th scope="col">Why</th>
          </tr>
        </thead>
        <tbody>
          {missingOrGone.map((r) => (
            <tr key={`${r.kind}:${r.id}`} data-status={r.status}>
              <th scope="row">
                {r.kind === 'post' || r.kind === 'user' ? (
                  <a href={formatRoute(routes.counters(r.kind, r.id))} title="Counters over time">
                    {r.kind === 'user' ? 'account' : 'post'} {r.id}
                  </a>
                ) : (
                  // a kind of item a newer Skein follows: named as written, with no counters page here
                  `${r.kind} ${r.id}`
                )}
              </th>
              <td>{r.status === 'returned' ? 'back' : r.status || 'no status'}</td>
              <td>{r.firstMissingAt !== null ? utcMinute(r.firstMissingAt) : '—'}</td>
              <td>{utcMinute(r.statusAt)}</td>
              <td className="num">{r.rechecks}</td>
              <td>{r.reason}</td>
            </tr>
          ))}
          {gone.data && missingOrGone.length === 0 ? (
            <tr>
              <td colSpan={6}>Nothing has disappeared.</td>
            </tr>
          ) : null}
        </tbody>
      </table>
    </div>
  );
}
