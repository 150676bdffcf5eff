import { navigate } from '../../../lib/navigation';
import { Avatar } from '../../../components/Avatar';
import { fullCount } from '../../../lib/format';
import { formatRoute, routes } from '../../../lib/routes';
import { absoluteTime } from '../../../lib/time';
import { formatDuration, type SpaceSummary } from '../space-summary';

/** Title, state, when it started and for how long, the host, and the counts. */
export function SpaceHeader({ summary: s, now }: { summary: SpaceSummary; now: number }) {
  const hostRoute = routes.userById(s.host.id);
  const counts: Array<[string, number]> = [
    ['Admins', s.counts.admins],
    ['Speakers', s.counts.speakers],
    ['Listeners', s.counts.listeners],
    ['Live listeners in total', s.counts.liveListeners],
    ['Took part', s.counts.participated],
    ['Replays watched', s.counts.replays],
  ];
  const duration = s.durationMs;
  return (
    <section className="space" aria-label="Audio space">
      <header className="space__head">
        <span className={`space__state space__state--${s.live ? 'live' : 'settled'}`}>{s.stateLabel}</span>
        <h1 className="space__title" tabIndex={-1} dir="auto">
          {s.title}
        </h1>
      </header>
      <ul className="space__facts">
        <li>
          {s.start === null ? (
            'Start time unknown'
          ) : (
            <>
              {s.start > now && !s.live ? 'Starts ' : 'Started '}
              <time dateTime={new Date(s.start).toISOString()}>{absoluteTime(s.start)}</time>
            </>
          )}
        </li>
        {duration !== null ? (
          <li>
            {s.live ? 'Running for ' : 'Lasted '}
            <strong>{formatDuration(duration)}</strong>
          </li>
        ) : null}
        <li className="space__host">
          Host: <Avatar src={s.host.avatarUrl} name={s.host.name} size="sm" />
          <a
            href={formatRoute(hostRoute)}
            dir="auto"
            onClick={(e) => {
              e.preventDefault();
              navigate(hostRoute);
            }}
          >
            {s.host.name}
          </a>
          <span className="muted">@{s.host.handle}</span>
        </li>
      </ul>
      <dl className="space__counts">
        {counts.map(([label, n]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{fullCount(n)}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
