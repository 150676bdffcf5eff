import { creditsToUsd } from '../../../../shared/api/pricing';
import type { UsageSnapshot } from '../../../../shared/ipc/settings';
import { fullCount } from '../../../lib/format';
import { absoluteTime, clockTime } from '../../../lib/time';
import { usePrices } from '../../../lib/settings';
import { formatUsdExact } from '../../../lib/usage/money';
import { callRows, operationRows } from '../usage-rows';

export function ByOperationTable({ snapshot }: { snapshot: UsageSnapshot }) {
  const prices = usePrices();
  const rows = operationRows(snapshot);
  return (
    <table className="usage__table" aria-label="By operation">
      <caption>By operation</caption>
      <thead>
        <tr>
          <th scope="col">Operation</th>
          <th scope="col" className="num">
            Calls
          </th>
          <th scope="col" className="num">
            Credits
          </th>
          <th scope="col" className="num">
            USD
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.operation} data-operation={r.operation}>
            <th scope="row">{r.title}</th>
            <td className="num">{fullCount(r.calls)}</td>
            <td className="num">{fullCount(r.credits)}</td>
            <td className="num">{formatUsdExact(creditsToUsd(r.credits, prices))}</td>
          </tr>
        ))}
        {rows.length === 0 ? <NoCallsRow columns={4} /> : null}
      </tbody>
    </table>
  );
}

export function RecentCallsTable({ snapshot }: { snapshot: UsageSnapshot }) {
  const rows = callRows(snapshot);
  return (
    <table className="usage__table" aria-label="Recent calls">
      <caption>Recent calls</caption>
      <thead>
        <tr>
          <th scope="col">Operation</th>
          <th scope="col">Subject</th>
          <th scope="col">Time</th>
          <th scope="col">Status</th>
          <th scope="col" className="num">
            Items
          </th>
          <th scope="col">Charged</th>
          <th scope="col" className="num">
            Credits
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.key} data-operation={r.operation} data-charged={r.charged}>
            <th scope="row">{r.title}</th>
            <td className="usage__subject">{r.subject}</td>
            <td>
              <time dateTime={new Date(r.at).toISOString()} title={absoluteTime(r.at)}>
                {clockTime(r.at)}
              </time>
            </td>
            <td>{r.status}</td>
            <td className="num">{fullCount(r.items)}</td>
            <td className={r.charged ? undefined : 'usage__free'}>{r.charge}</td>
            <td className="num">{fullCount(r.credits)}</td>
          </tr>
        ))}
        {rows.length === 0 ? <NoCallsRow columns={7} /> : null}
      </tbody>
    </table>
  );
}

function NoCallsRow({ columns }: { columns: number }) {
  return (
    <tr>
      <td colSpan={columns} className="muted">
        No calls yet.
      </td>
    </tr>
  );
}
