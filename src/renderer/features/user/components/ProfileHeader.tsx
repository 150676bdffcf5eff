import type { User } from '../../../../shared/api/schemas';
import { Avatar, VerifiedBadge } from '../../../components/Avatar';
import { ExternalLink } from '../../../components/ExternalLink';
import { RichText } from '../../../components/RichText';
import { readEntities } from '../../../lib/entities';
import { compactCount, fullCount, readCount } from '../../../lib/format';
import { parseApiDate } from '../../../../shared/api/dates';
import { Handle, Name } from '../../../components/Identity';
import { AutomatedLabel } from '../../../components/AutomatedLabel';
import { formatRoute, routes } from '../../../lib/routes';

function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

/** Cover, avatar, name, handle, bio with its entities, location, website, joined date, counts, DM. */
export function ProfileHeader({ user }: { user: User }) {
  const bio = user.profile_bio;
  // the live service may send the bio in only one of the two places
  const bioText = bio?.description || user.description;
  const website = bio?.entities?.url?.urls?.[0];
  const joined = parseApiDate(user.createdAt);
  const counts: Array<[label: string, n: number | null]> = [
    ['followers', readCount(user.followers)],
    ['following', readCount(user.following)],
    ['posts', readCount(user.statusesCount)],
  ];
  return (
    <section className="profile" aria-label="Profile">
      <div className="profile__cover">
        {user.coverPicture ? <img src={user.coverPicture} alt="" referrerPolicy="no-referrer" /> : null}
      </div>
      <div className="profile__top">
        <Avatar src={user.profilePicture} name={user.name} size="xl" decorative={false} />
        <div className="profile__actions">
          <a href={formatRoute(routes.watches({ id: user.id, handle: user.userName }))} className="btn btn--small">
            Watch…
          </a>
          {user.url ? (
            <ExternalLink href={user.url} className="btn btn--small">
              Open on the web
            </ExternalLink>
          ) : null}
        </div>
      </div>
      <div className="profile__body">
        <h1 className="profile__name" tabIndex={-1} dir="auto">
          <Name text={user.name} /> {user.isBlueVerified ? <VerifiedBadge /> : null}
        </h1>
        <p className="profile__handle">
          <Handle handle={user.userName} />
          <span className="chip">{user.canDm ? 'Can be messaged' : 'Does not accept messages'}</span>
          <AutomatedLabel user={user} />
        </p>
        {bioText ? (
          <RichText
            text={bioText}
            entities={readEntities(bio?.entities?.description)}
            className="rich-text profile__bio"
            searchOrigin={originOf(user.url)}
          />
        ) : (
          <p className="profile__bio muted">No bio.</p>
        )}
        <ul className="profile__facts">
          {user.location ? <li>Location: {user.location}</li> : null}
          {website ? (
            <li>
              Website:{' '}
              <ExternalLink href={website.expanded_url || website.url}>
                {website.display_url || website.expanded_url}
              </ExternalLink>
            </li>
          ) : null}
          <li>
            {joined !== null
              ? `Joined ${new Date(joined).toLocaleDateString(undefined, { month: 'long', year: 'numeric' })}`
              : 'Joined: unknown'}
          </li>
          <li>
            User id <code>{user.id}</code>
          </li>
        </ul>
        <ul className="profile__counts" aria-label="Counts">
          {counts.map(([label, n]) => (
            <li key={label} title={`${fullCount(n)} ${label}`}>
              <strong>{compactCount(n)}</strong> {label}
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
