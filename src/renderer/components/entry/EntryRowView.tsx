/**
 * One entry of unknown shape: the app's user card when it is a full user, a
 * short person row when it merely looks like one, else its fields as a
 * readable key/value list. Everything is text; nothing is HTML.
 */
import { navigate } from '../../lib/navigation';
import { Avatar } from '../Avatar';
import { UserCard } from '../UserCard';
import { formatRoute, routes } from '../../lib/routes';
import type { EntryView } from '../../lib/entry-shape';
import './entry.css';
import { Handle, handleText, Name } from '../Identity';

export function EntryRowView({ view }: { view: EntryView }) {
  if (view.kind === 'user') return <UserCard user={view.user} />;
  if (view.kind === 'userLike') {
    const u = view.user;
    const route = routes.userById(u.id);
    return (
      <article className="entry entry--person" data-nav-item="" aria-label={`${u.name} ${handleText(u.handle)}`}>
        <Avatar src={u.avatarUrl} name={u.name} />
        <div className="entry__body">
          <a
            href={formatRoute(route)}
            className="entry__name"
            dir="auto"
            onClick={(e) => {
              e.preventDefault();
              navigate(route);
            }}
          >
            <Name text={u.name} />
          </a>{' '}
          <Handle className="muted" handle={u.handle} />
          {u.description ? (
            <p className="entry__bio" dir="auto">
              {u.description}
            </p>
          ) : null}
        </div>
      </article>
    );
  }
  return (
    <article className="entry entry--fields" data-nav-item="" aria-label="Entry">
      <dl className="entry__fields">
        {view.rows.map((r, i) => (
          <div key={`${r.key}-${i}`}>
            <dt>{r.key}</dt>
            <dd dir="auto">{r.value}</dd>
          </div>
        ))}
      </dl>
    </article>
  );
}
