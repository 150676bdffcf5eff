import type { KeyboardEvent, MouseEvent } from 'react';
import type { User } from '../../shared/api/schemas';
import { navigate } from '../lib/navigation';
import { compactCount, fullCount, readCount } from '../lib/format';
import { formatRoute, routes } from '../lib/routes';
import { Avatar, VerifiedBadge } from './Avatar';
import './user-card.css';
import { Handle, handleText, Name } from './Identity';
import { AutomatedLabel } from './AutomatedLabel';

/**
 * A person in a list: avatar, name, handle, bio snippet and counts; opens the profile, unless read in place
 * (`inPlace`: the coding workbench, where opening a profile may spend calls).
 */
export function UserCard({ user, rank, inPlace = false }: { user: User; rank?: number; inPlace?: boolean }) {
  const href = formatRoute(routes.userById(user.id));
  const open = () => {
    if (!inPlace) navigate(routes.userById(user.id));
  };
  const onClick = (e: MouseEvent) => {
    if ((e.target as HTMLElement).closest('a, button')) return;
    open();
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Enter' && e.target === e.currentTarget) {
      e.preventDefault();
      open();
    }
  };
  const counts: Array<[string, number | null]> = [
    ['followers', readCount(user.followers)],
    ['following', readCount(user.following)],
    ['posts', readCount(user.statusesCount)],
  ];
  return (
    <article
      className="user-card"
      data-nav-item=""
      data-user-id={user.id}
      tabIndex={0}
      aria-label={`${user.name} ${handleText(user.userName)}`}
      onClick={onClick}
      onKeyDown={onKeyDown}
    >
      {rank !== undefined ? <span className="user-card__rank">{rank}</span> : null}
      <Avatar src={user.profilePicture} name={user.name} />
      <div className="user-card__body">
        <div className="user-card__who">
          <a href={href} className="user-card__name" dir="auto">
            <Name text={user.name} />
          </a>
          {user.isBlueVerified ? <VerifiedBadge /> : null}
          <Handle className="muted" handle={user.userName} />
          <AutomatedLabel user={user} />
        </div>
        {user.description ? (
          <p className="user-card__bio" dir="auto">
            {user.description}
          </p>
        ) : null}
        <ul className="user-card__counts" aria-label="Counts">
          {counts.map(([what, n]) => (
            <li key={what} title={`${fullCount(n)} ${what}`}>
              <strong>{compactCount(n)}</strong> {what}
            </li>
          ))}
        </ul>
      </div>
    </article>
  );
}
