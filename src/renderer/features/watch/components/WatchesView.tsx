import { useState } from 'react';
import type { RunnerState, WatchList } from '../../../../shared/ipc/watch';
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

/** The project's watches this Skein cannot read, named, so that none is missing without a word. */
function UnreadableNote({ watches }: { watches: WatchList['unreadable'] }) {
  if (watches.length === 0) return null;
  const one = watches.length === 1;
  return (
    <div className="watch-runner watch-runner--other" role="note" aria-label="Watches this Skein cannot read">
      <p>
        This Skein cannot read {one ? 'one watch' : `${watches.length} watches`} of this project. A newer Skein may have
        made {one ? 'it' : 'them'} (on a shared project), or {one ? 'its record is' : 'their records are'} damaged.{' '}
        {one ? 'It is' : 'They are'} left as {one ? 'it is' : 'they are'}: this Skein does not run, pause or change{' '}
        {one ? 'it' : 'them'}, and what {one ? 'it' : 'they'} collected stays in the project. While a watch a newer
        Skein made is due, this Skein holds the project’s runner only during its own runs, so a Skein that reads it can
        run it.
      </p>
      <ul>
        {watches.map((w) => (
          <li key={w.id}>
            “{w.name}” (watch {w.id}, kind: {w.kind.trim() === '' ? 'none given' : w.kind})
          </li>
        ))}
      </ul>
    </div>
  );
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
  const unreadable = list.data?.unreadable ?? [];
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
      <UnreadableNote watches={unreadable} />
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
      {list.isSuccess && watches.length === 0 && unreadable.length === 0 && !adding ? (
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
