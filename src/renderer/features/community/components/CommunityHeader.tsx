import { fullCount } from '../../../lib/format';
import { absoluteTime } from '../../../lib/time';
import type { ActionAvailability, CommunitySummary } from '../community-summary';
import { humanize } from '../../../lib/plain-words';

function Availability({ verb, a }: { verb: string; a: ActionAvailability }) {
  return (
    <li className={`community__action${a.available ? ' community__action--yes' : ''}`}>
      <strong>{a.available ? `Can ${verb}` : `Cannot ${verb}`}</strong>
      {a.text ? <span dir="auto"> — {a.text}</span> : null}
    </li>
  );
}

/** Banner, name, description, when it was created, counts, pinned flag, role, join/leave availability. */
export function CommunityHeader({ community: c }: { community: CommunitySummary }) {
  return (
    <section className="community" aria-label="Community">
      <div className={`community__banner${c.banner ? '' : ' community__banner--none'}`}>
        {c.banner ? (
          <img
            src={c.banner.url}
            alt=""
            width={c.banner.width || undefined}
            height={c.banner.height || undefined}
            referrerPolicy="no-referrer"
            data-banner={c.banner.kind}
          />
        ) : null}
      </div>
      <div className="community__body">
        <h1 className="community__name" tabIndex={-1} dir="auto">
          {c.name}
          {c.pinned ? <span className="chip community__pinned">Pinned</span> : null}
        </h1>
        {c.description ? (
          <p className="community__description" dir="auto">
            {c.description}
          </p>
        ) : (
          <p className="community__description muted">No description.</p>
        )}
        <ul className="community__facts" aria-label="Facts">
          <li>
            <strong>{fullCount(c.members)}</strong> {c.members === 1 ? 'member' : 'members'}
          </li>
          <li>
            <strong>{fullCount(c.moderators)}</strong> {c.moderators === 1 ? 'moderator' : 'moderators'}
          </li>
          <li>
            Created{' '}
            {c.createdAt !== null ? (
              <time dateTime={new Date(c.createdAt).toISOString()} title={absoluteTime(c.createdAt)}>
                {new Date(c.createdAt).toLocaleDateString(undefined, {
                  year: 'numeric',
                  month: 'long',
                  day: 'numeric',
                })}
              </time>
            ) : (
              'on an unknown date'
            )}
          </li>
          <li>
            Your role: <strong>{c.role}</strong>
          </li>
          {c.creator ? <li>Created by {c.creator}</li> : null}
          {c.joinPolicy ? (
            <li>
              Join policy: <strong>{humanize(c.joinPolicy)}</strong>
            </li>
          ) : null}
        </ul>
        {c.joinPolicy && !c.membershipSaid ? null : (
          <ul className="community__actions" aria-label="Membership">
            <Availability verb="join" a={c.join} />
            <Availability verb="leave" a={c.leave} />
          </ul>
        )}
      </div>
    </section>
  );
}
