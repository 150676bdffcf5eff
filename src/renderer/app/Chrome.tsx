import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { onBridgeEvent } from '../lib/bridge';
import { creditsLabel } from '../lib/format';
import { formatRoute, routes, type Route, type RouteName } from '../lib/routes';
import { goBack, goForward, useHistoryAvailability } from '../lib/navigation';
import { ProjectStatus } from '../features/archive';
import { unrecordedNotice } from '../features/export';
import { appInfoQuery } from '../lib/app-info';
import { usageKeys, usageQuery } from '../lib/usage/meter';
import { clockTime } from '../lib/time';
import { useNotices } from '../state/notices';

const SECTIONS: ReadonlyArray<{ label: string; route: Route; matches: readonly RouteName[] }> = [
  { label: 'Home', route: routes.home(), matches: ['home'] },
  { label: 'Search people', route: routes.search(), matches: ['search'] },
  { label: 'Look up ids', route: routes.lookup(), matches: ['lookup'] },
  { label: 'Hydrate ids', route: routes.hydrate(), matches: ['hydrate'] },
  { label: 'Trends', route: routes.trends(), matches: ['trends'] },
  { label: 'Archive', route: routes.archive(), matches: ['archive', 'counters'] },
  { label: 'Watches', route: routes.watches(), matches: ['watches'] },
  { label: 'Coding', route: routes.coding(), matches: ['coding'] },
  { label: 'Settings', route: routes.settings(), matches: ['settings'] },
];

export function Sidebar({ current }: { current: Route }) {
  return (
    <nav className="sidebar" aria-label="Sections">
      <p className="sidebar__brand">Skein</p>
      <ul>
        {SECTIONS.map((s) => (
          <li key={s.label}>
            <a
              href={formatRoute(s.route)}
              className="sidebar__link"
              aria-current={s.matches.includes(current.name) ? 'page' : undefined}
            >
              {s.label}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

export function HistoryButtons() {
  const { canGoBack, canGoForward } = useHistoryAvailability();
  return (
    <div className="history" role="group" aria-label="History">
      <button
        type="button"
        className="btn btn--icon"
        onClick={goBack}
        disabled={!canGoBack}
        aria-keyshortcuts="Alt+ArrowLeft"
        title="Back (Alt+←)"
      >
        <span aria-hidden="true">←</span>
        <span className="visually-hidden">Back</span>
      </button>
      <button
        type="button"
        className="btn btn--icon"
        onClick={goForward}
        disabled={!canGoForward}
        aria-keyshortcuts="Alt+ArrowRight"
        title="Forward (Alt+→)"
      >
        <span aria-hidden="true">→</span>
        <span className="visually-hidden">Forward</span>
      </button>
    </div>
  );
}

/**
 * The latest thing a successful call met on the way (a 403 that was throttling), or the project met on its own (a
 * team's server away: answers kept, then written), until dismissed.
 */
function Notice() {
  const latest = useNotices((s) => s.latest);
  const dismiss = useNotices((s) => s.dismiss);
  useEffect(() => onBridgeEvent('archive', (n) => useNotices.getState().add(n.text, n.at, 'project')), []);
  // an export the project could not keep is said here too (its dialog may have been closed while it ran), until
  // it is kept
  useEffect(() => {
    const shown = new Map<string, number>();
    return onBridgeEvent('export', (job) => {
      const text = unrecordedNotice(job);
      const notices = useNotices.getState();
      if (text) {
        notices.add(text, Date.now(), 'project');
        const latest = useNotices.getState().latest;
        if (latest) shown.set(job.id, latest.id);
      } else if (shown.has(job.id)) {
        if (notices.latest?.id === shown.get(job.id)) notices.dismiss();
        shown.delete(job.id);
      }
    });
  }, []);
  if (!latest) return null;
  return (
    <span
      className="statusbar__notice"
      role="status"
      aria-label={latest.from === 'project' ? 'Project notice' : 'Call notice'}
    >
      <span>
        {clockTime(latest.at)}: {latest.text}
      </span>{' '}
      <button type="button" className="btn btn--small" onClick={dismiss}>
        Dismiss
      </button>
    </span>
  );
}

/** Mode, calls and estimated credits this session (from main's usage meter). */
export function StatusBar() {
  const info = useQuery(appInfoQuery());
  const usage = useQuery(usageQuery());
  const qc = useQueryClient();
  // an export or a hydration buys pages in main, with no query in this window: each of its updates refreshes the meter
  useEffect(() => onBridgeEvent('export', () => void qc.invalidateQueries({ queryKey: usageKeys.snapshot() })), [qc]);
  const mode = info.data?.mode;
  const session = usage.data?.session;
  return (
    <footer className="statusbar">
      <span className={`statusbar__mode statusbar__mode--${mode ?? 'unknown'}`} data-testid="mode">
        {mode === 'demo' ? 'Demo mode' : mode === 'live' ? 'Live mode' : 'Mode…'}
      </span>
      <span data-testid="session-calls">
        Calls this session: <strong>{session ? session.calls : '…'}</strong>
      </span>
      <span data-testid="session-credits">
        Estimated: <strong>{session ? creditsLabel(session.credits, session.usd) : '…'}</strong>
      </span>
      <ProjectStatus mode={mode} />
      <Notice />
      <a href={formatRoute(routes.usage())} className="statusbar__link">
        Usage details
      </a>
    </footer>
  );
}
