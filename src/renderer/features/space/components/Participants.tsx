import { useState } from 'react';
import { navigate } from '../../../lib/navigation';
import { Avatar } from '../../../components/Avatar';
import { formatRoute, routes } from '../../../lib/routes';
import {
  ROLES,
  ROLE_LABELS,
  describeChanges,
  type Groups,
  type ParticipantDiff,
  type Person,
  type Role,
} from '../participants';

/** Shown at first in a group; the rest on request (a big space can have thousands of listeners). */
const FIRST = 120;

const SINGULAR: Record<Role, string> = { admin: 'admin', speaker: 'speaker', listener: 'listener' };

function PersonItem({
  p,
  joined,
  movedFrom,
  left,
}: {
  p: Person;
  joined?: boolean;
  movedFrom?: Role | undefined;
  left?: boolean;
}) {
  const route = routes.userById(p.id);
  const cls = `person${joined ? ' person--joined' : ''}${left ? ' person--left' : ''}${movedFrom ? ' person--moved' : ''}`;
  return (
    <li className={cls} data-user-id={p.id}>
      <Avatar src={p.avatarUrl} name={p.name} size="sm" />
      <span className="person__who">
        <a
          href={formatRoute(route)}
          className="person__name"
          dir="auto"
          onClick={(e) => {
            e.preventDefault();
            navigate(route);
          }}
        >
          {p.name}
        </a>
        <span className="muted person__handle">@{p.handle}</span>
      </span>
      {p.muted ? <span className="chip person__muted">muted</span> : null}
      {joined ? <span className="chip person__badge person__badge--joined">joined</span> : null}
      {movedFrom ? <span className="chip person__badge">was {SINGULAR[movedFrom]}</span> : null}
      {left ? <span className="chip person__badge person__badge--left">left · was {SINGULAR[p.role]}</span> : null}
    </li>
  );
}

function Group({
  role,
  people,
  diff,
  ended,
}: {
  role: Role;
  people: Person[];
  diff: ParticipantDiff | null;
  ended: boolean;
}) {
  const [all, setAll] = useState(false);
  const shown = all ? people : people.slice(0, FIRST);
  const headingId = `space-group-${role}`;
  return (
    <section className="space__group" aria-labelledby={headingId}>
      <h2 id={headingId}>
        {ROLE_LABELS[role]} <span className="muted">({people.length})</span>
      </h2>
      {people.length === 0 ? (
        <p className="muted space__none">
          {ended ? 'Not listed: the API lists only the hosts once a space has ended.' : 'None right now.'}
        </p>
      ) : (
        <ul className="space__people" aria-labelledby={headingId}>
          {shown.map((p) => (
            <PersonItem key={p.id} p={p} joined={diff?.joined.has(p.id)} movedFrom={diff?.moved.get(p.id)} />
          ))}
        </ul>
      )}
      {people.length > shown.length ? (
        <button type="button" className="btn btn--small" onClick={() => setAll(true)}>
          Show all {people.length}
        </button>
      ) : null}
    </section>
  );
}

/**
 * Admins, speakers and listeners; who joined since the previous update is marked, who left is listed.
 * `ended`: how many took part in a space that has ended (null while it has not): it says so, and who is known.
 */
export function Participants({
  groups,
  diff,
  ended = null,
}: {
  groups: Groups;
  diff: ParticipantDiff | null;
  ended?: number | null;
}) {
  const changes = diff ? describeChanges(diff) : '';
  const hosts = groups.admin.length;
  return (
    <div className="space__participants">
      {ended !== null ? (
        <p className="space__ended" role="note">
          After it ended: {ended.toLocaleString('en-US')} {ended === 1 ? 'person' : 'people'} took part; the API names
          only {hosts === 1 ? 'its host' : `its ${hosts} hosts`} now.
        </p>
      ) : null}
      <p className="visually-hidden" role="status" aria-live="polite">
        {changes ? `Since the previous update: ${changes}.` : ''}
      </p>
      {changes ? (
        <p className="space__changes" aria-hidden="true">
          Since the previous update: {changes}
        </p>
      ) : null}
      {ROLES.map((role) => (
        <Group key={role} role={role} people={groups[role]} diff={diff} ended={ended !== null} />
      ))}
      {diff && diff.left.length > 0 ? (
        <section className="space__group space__group--left" aria-labelledby="space-group-left">
          <h2 id="space-group-left">
            Left since the previous update <span className="muted">({diff.left.length})</span>
          </h2>
          <ul className="space__people" aria-labelledby="space-group-left">
            {diff.left.map((p) => (
              <PersonItem key={p.id} p={p} left />
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}
