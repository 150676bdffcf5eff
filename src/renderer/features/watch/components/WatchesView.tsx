import { useState } from 'react';
import type { RunnerState } from '../../../../shared/ipc/watch';
import { ErrorState } from '../../../components/ErrorState';
import { ViewFrame } from '../../../components/ViewFrame';
import type { Route } from '../../../lib/routes';
import { useWatchList } from '../queries';
import { utcMinute } from '../words';
import { NewWatchForm } from './NewWatchForm';
import { TableExports } from './TableExports';
import { WatchCard } from './WatchCard';
import './watch.css';

function RunnerNote({ runner }: { runner: RunnerState }) {
  if (runner.holder === 'other')
    return (
      <p className="watch-runner watch-runner--other" role="status">
        These watches are run by {runner.who === 'headless' ? 'the headless runner' : 'another Skein'} on{' '}
        <strong>{runner.host}</strong> (process {runner.pid}
        {runner.since ? `, since ${utcMinute(runner.since)}` : ''}). This window shows them but does not run them: only
        one runner runs a project’s watches.
      </p>
    );
  if (runner.holder === 'self')
    return (
      <p className="watch-runner" role="status">
        Skein runs these watches while it is open. When it is closed, they wait (a gap is recorded and filled later),
        unless the headless runner runs them on a server.
      </p>
    );
  return null;
}

/**
 * The Watches view: every watch of the project with its next and last run, its spend against
 * its caps, its projection and how it compares with what was spent, its gaps and what went missing; and a
 * form to describe a new one, which shows what each way of collecting would cost before it is switched on.
 */
export function WatchesView({ route }: { route: Extract<Route, { name: 'watches' }> }) {
  const list = useWatchList();
  // a profile's "Watch…": the form opens on that account, its id already known (nothing to resolve)
  const account = route.account;
  const [adding, setAdding] = useState(account !== undefined);
  const watches = list.data?.watches ?? [];
  return (
    <ViewFrame
      title="Watches"
      className="view--watches"
      actions={
        <button type="button" className="btn btn--primary" onClick={() => setAdding((a) => !a)} aria-expanded={adding}>
          {adding ? 'Close the form' : 'New watch'}
        </button>
      }
    >
      <p className="view__intro">
        The same accounts, list, conversation, community, place or space collected again on a schedule, within hard
        credit caps: each run reads only until it meets what the project holds, keeps counters over time, and re-checks
        what disappeared before calling it gone.
        {list.data?.project
          ? list.data.project.kind === 'demo'
            ? ' Watches made here run on the demo data, kept apart from your live projects.'
            : ` Project: ${list.data.project.name}.`
          : ''}
      </p>
      {list.data ? <RunnerNote runner={list.data.runner} /> : null}
      {adding ? (
        <NewWatchForm
          onCreated={() => setAdding(false)}
          {...(account
            ? {
                initial: {
                  name: `@${account.handle}`,
                  targets: `@${account.handle}`,
                  resolutions: { [account.handle.toLowerCase()]: { id: account.id } },
                },
              }
            : {})}
        />
      ) : null}
      {list.isError ? <ErrorState error={list.error} what="the watches" onRetry={() => void list.refetch()} /> : null}
      {list.isSuccess && watches.length === 0 && !adding ? (
        <p className="watch-empty">No watch in this project yet. “New watch” describes one and shows its cost first.</p>
      ) : null}
      <ul className="watch-list" aria-label="Watches">
        {watches.map((w) => (
          <li key={w.id}>
            <WatchCard watch={w} />
          </li>
        ))}
      </ul>
      {watches.length > 0 ? <TableExports label="Every watch of this project" /> : null}
    </ViewFrame>
  );
}
