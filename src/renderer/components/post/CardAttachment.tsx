/**
 * A post's card as main read it (`shared/api/normalize/card.ts`): a poll (choices, votes, shares, end
 * time), a link preview (image, domain, title), a live broadcast (a link), or another card by name.
 * Everything from data is text; links open through `ExternalLink` (main decides what opens).
 */
import { useState } from 'react';
import type { PostCardView } from '../../../shared/api/schemas';
import { absoluteTime } from '../../lib/time';
import { countLabel, fullCount } from '../../lib/format';
import { ExternalLink } from '../ExternalLink';
import { Handle } from '../Identity';

type Poll = Extract<PostCardView, { kind: 'poll' }>;

/** a choice's share of the votes in whole per cent (one decimal under 1 %); null when a count is unknown */
export function pollShares(poll: Pick<Poll, 'choices'>): Array<number | null> {
  const counts = poll.choices.map((c) => c.count);
  if (counts.some((c) => c === null)) return counts.map(() => null);
  const total = (counts as number[]).reduce((a, b) => a + b, 0);
  return (counts as number[]).map((c) => (total === 0 ? 0 : (100 * c) / total));
}

function share(p: number | null): string {
  if (p === null) return '';
  return p > 0 && p < 1 ? `${p.toFixed(1)} %` : `${Math.round(p)} %`;
}

/** "Final results", "Ends …" or "Ended …" (local time; UTC on hover) */
export function pollStatus(poll: Pick<Poll, 'endsAt' | 'final'>, now: number): string {
  if (poll.endsAt === null) return poll.final ? 'Final results' : 'End time unknown';
  const when = absoluteTime(poll.endsAt);
  if (poll.endsAt > now && poll.final !== true) return `Ends ${when}`;
  return `Ended ${when}${poll.final === false ? ' (counts may still change)' : ''}`;
}

function PollView({ poll }: { poll: Poll }) {
  // the time the card was first shown: whether the poll has ended reads against it
  const [now] = useState(() => Date.now());
  const shares = pollShares(poll);
  const known = poll.choices.every((c) => c.count !== null);
  const total = known ? poll.choices.reduce((a, c) => a + (c.count ?? 0), 0) : null;
  const top = known ? Math.max(...poll.choices.map((c) => c.count ?? 0)) : null;
  return (
    <section className="card-poll" aria-label="Poll">
      <p className="card-poll__title">
        Poll <span className="muted">· {poll.choices.length} choices · the question is the post’s text</span>
      </p>
      {poll.choices.length === 0 ? (
        <p className="muted">The service sent this poll without its choices.</p>
      ) : (
        <ul className="card-poll__choices">
          {poll.choices.map((c, i) => {
            const s = shares[i] ?? null;
            const leading = top !== null && top > 0 && c.count === top;
            return (
              <li
                key={i}
                className={`card-poll__choice${leading ? ' card-poll__choice--top' : ''}`}
                aria-label={`${c.label}: ${countLabel(c.count, 'vote', 'votes')}${s === null ? '' : `, ${share(s)}`}`}
              >
                <span className="card-poll__bar" style={{ width: `${s ?? 0}%` }} aria-hidden="true" />
                <span className="card-poll__label" dir="auto">
                  {c.label}
                </span>
                <span className="card-poll__count">
                  {s === null ? '' : `${share(s)} · `}
                  {fullCount(c.count)}
                </span>
              </li>
            );
          })}
        </ul>
      )}
      <p className="card-poll__meta muted">
        {total === null ? 'Votes: some counts unknown' : countLabel(total, 'vote', 'votes')} ·{' '}
        <span title={poll.endsAt === null ? undefined : new Date(poll.endsAt).toISOString()}>
          {pollStatus(poll, now)}
        </span>
        {poll.final ? ' · final' : ''}
      </p>
    </section>
  );
}

export function CardAttachment({ card }: { card: PostCardView | null | undefined }) {
  if (!card) return null;
  switch (card.kind) {
    case 'poll':
      return <PollView poll={card} />;
    case 'link': {
      const label = `Link preview: ${card.title ?? card.domain ?? card.url ?? 'a link'}${card.domain ? ` (${card.domain})` : ''}`;
      const body = (
        <>
          {card.image ? (
            <img
              className="card-link__image"
              src={card.image.url}
              alt={card.image.alt ?? ''}
              width={card.image.width ?? undefined}
              height={card.image.height ?? undefined}
              loading="lazy"
              decoding="async"
              referrerPolicy="no-referrer"
            />
          ) : null}
          <span className="card-link__text">
            {card.domain ? <span className="card-link__domain muted">{card.domain}</span> : null}
            <span className="card-link__title" dir="auto">
              {card.title ?? card.url ?? 'Link'}
            </span>
            {card.description ? (
              <span className="card-link__description muted" dir="auto">
                {card.description}
              </span>
            ) : null}
          </span>
        </>
      );
      return card.url ? (
        <ExternalLink href={card.url} className="card-link" label={label}>
          {body}
        </ExternalLink>
      ) : (
        <div className="card-link" role="group" aria-label={label}>
          {body}
        </div>
      );
    }
    case 'broadcast':
      return (
        <p className="card-broadcast" role="group" aria-label="Live broadcast">
          <span className="card-broadcast__tag">{card.state === 'ENDED' ? 'Broadcast' : 'Live broadcast'}</span>{' '}
          {card.url ? (
            <ExternalLink href={card.url} label={`Open the broadcast${card.title ? ` “${card.title}”` : ''}`}>
              {card.title ?? 'Open the broadcast'}
            </ExternalLink>
          ) : (
            <span dir="auto">{card.title ?? 'no link given'}</span>
          )}
          {card.broadcaster ? (
            <span className="muted">
              {' '}
              by <Handle handle={card.broadcaster} />
            </span>
          ) : null}
          {card.state ? <span className="muted"> · {card.state.toLowerCase()}</span> : null}
        </p>
      );
    case 'other':
      if (!card.url && !card.title) return null;
      return (
        <p className="card-other muted">
          Card “{card.name || 'unnamed'}”:{' '}
          {card.url ? <ExternalLink href={card.url}>{card.title ?? card.url}</ExternalLink> : card.title}
        </p>
      );
  }
}
