import { memo, type KeyboardEvent, type MouseEvent } from 'react';
import type { CardPost } from '../../../shared/api/schemas';
import { navigate } from '../../lib/navigation';
import { postMedia } from '../../lib/media';
import { postLabel } from '../../lib/format';
import { formatRoute, routes } from '../../lib/routes';
import { Avatar, VerifiedBadge } from '../Avatar';
import { ExternalLink } from '../ExternalLink';
import { RelativeTime } from '../RelativeTime';
import { RichText } from '../RichText';
import { Counters } from './Counters';
import { MediaGrid } from './MediaGrid';
import { ReplyContext } from './ReplyContext';
import './post-card.css';
import { Handle, handleText, Name } from '../Identity';

export type PostCardVariant = 'feed' | 'focal' | 'quoted';

export interface PostCardProps {
  post: CardPost;
  variant?: PostCardVariant;
  /** a short label above the post ("Original post", "Pinned") */
  badge?: string;
  /** how many quotes deep this card is: a quote of a quote collapses to a link */
  quoteDepth?: number;
  /** the post the view is about (the Quotes tab): quoting it collapses to a one-line reference */
  collapseQuoteOf?: string;
}

const INTERACTIVE = 'a, button, input, select, textarea, dialog, summary, [role="button"]';

function originOf(url: string): string | null {
  try {
    const u = new URL(url);
    return u.protocol === 'https:' || u.protocol === 'http:' ? u.origin : null;
  } catch {
    return null;
  }
}

/**
 * The one post card: author, time, text with entities, media, quoted post,
 * reply context and counters. A retweet (a non-null `retweeted_tweet`, whatever
 * `isRetweet` says) shows its original under a "Reposted by @x · time" line. Clicking the card (or Enter while it has focus)
 * opens the post; j/k move between cards (`data-nav-item`). Memoized: a list
 * re-renders its rows on every range change and page, their posts do not change.
 */
export const PostCard = memo(function PostCard({
  post: item,
  variant = 'feed',
  badge,
  quoteDepth = 0,
  collapseQuoteOf,
}: PostCardProps) {
  const reposter = item.retweeted_tweet ? item.author : null;
  const post = item.retweeted_tweet ?? item;
  const a = post.author;
  const openable = variant !== 'focal';
  const open = () => navigate(routes.post(post.id));
  const onClick = (e: MouseEvent<HTMLElement>) => {
    if (!openable || e.defaultPrevented) return;
    const target = e.target as HTMLElement;
    if (target.closest(INTERACTIVE) && target.closest(INTERACTIVE) !== e.currentTarget) return;
    if (window.getSelection()?.toString()) return; // selecting text is not a click
    e.stopPropagation();
    open();
  };
  const onKeyDown = (e: KeyboardEvent<HTMLElement>) => {
    if (openable && e.key === 'Enter' && e.target === e.currentTarget) {
      e.preventDefault();
      e.stopPropagation();
      open();
    }
  };
  const media = postMedia(post);
  const profile = formatRoute(routes.userById(a.id));
  const quoted = post.quoted_tweet;

  return (
    <article
      className={`post post--${variant}`}
      data-nav-item={variant === 'quoted' ? undefined : ''}
      data-post-id={item.id}
      data-original-id={reposter ? post.id : undefined}
      tabIndex={variant === 'quoted' ? undefined : 0}
      aria-label={`Post by ${a.name} ${handleText(a.userName)}${reposter ? `, reposted by ${handleText(reposter.userName)}` : ''}`}
      onClick={onClick}
      onKeyDown={onKeyDown}
    >
      {badge ? <div className="post__badge">{badge}</div> : null}
      {reposter ? (
        <p className="post__reposted">
          Reposted by{' '}
          <a href={formatRoute(routes.userById(reposter.id))} dir="auto">
            @{reposter.userName}
          </a>
          {' · '}
          <a href={formatRoute(routes.post(item.id))} onClick={(e) => e.stopPropagation()}>
            <RelativeTime value={item.createdAt} />
          </a>
        </p>
      ) : null}
      <header className="post__header">
        <a href={profile} className="post__avatar" tabIndex={-1} aria-hidden="true">
          <Avatar src={a.profilePicture} name={a.name} size={variant === 'quoted' ? 'sm' : 'md'} />
        </a>
        <div className="post__who">
          <a href={profile} className="post__name" dir="auto">
            <Name text={a.name} />
          </a>
          {a.isBlueVerified ? <VerifiedBadge /> : null}
          <Handle className="post__handle" handle={a.userName} />
          <span aria-hidden="true" className="muted">
            ·
          </span>
          {variant === 'focal' ? (
            <RelativeTime value={post.createdAt} absolute />
          ) : (
            <a href={formatRoute(routes.post(post.id))} className="post__time" onClick={(e) => e.stopPropagation()}>
              <RelativeTime value={post.createdAt} />
            </a>
          )}
        </div>
      </header>
      {post.isReply ? <ReplyContext post={post} /> : null}
      <RichText
        text={post.text}
        entities={post.entities}
        displayRange={post.displayTextRange}
        className={`rich-text post__text${variant === 'focal' ? ' post__text--focal' : ''}`}
        searchOrigin={originOf(post.url)}
      />
      <MediaGrid items={media} />
      {quoted ? (
        quoted.id === collapseQuoteOf ? (
          <p className="post__quote-link post__quote-link--viewed">
            Quoting the post above: <Handle handle={quoted.author.userName} /> ·{' '}
            <span dir="auto">{postLabel(quoted, '', 8).replace(/^@[^:]*: ?/, '')}</span>
          </p>
        ) : quoteDepth >= 1 ? (
          <p className="post__quote-link">
            <a href={formatRoute(routes.post(quoted.id))}>
              Quoted post by <Handle handle={quoted.author.userName} />
            </a>
          </p>
        ) : (
          <div className="post__quoted">
            <PostCard post={quoted} variant="quoted" quoteDepth={quoteDepth + 1} />
          </div>
        )
      ) : null}
      {variant === 'quoted' ? null : (
        <footer className="post__footer">
          <Counters post={post} />
          <ExternalLink href={post.url} className="post__external">
            Open on the web
          </ExternalLink>
        </footer>
      )}
    </article>
  );
});
