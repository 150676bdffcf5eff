import { memo, type KeyboardEvent, type MouseEvent } from 'react';
import { isUnavailable, type CardPost } from '../../../shared/api/schemas';
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
import { CardAttachment } from './CardAttachment';
import { UnavailablePost } from './UnavailablePost';
import { AutomatedLabel } from '../AutomatedLabel';
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
  /**
   * Read where it is: a click or Enter opens nothing, nor does its quoted post's card (the coding workbench
   * reads an item from the project, where opening the post page may spend calls)
   */
  inPlace?: boolean;
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
  inPlace = false,
}: PostCardProps) {
  const reposter = item.retweeted_tweet ? item.author : null;
  const post = item.retweeted_tweet ?? item;
  const a = post.author;
  const openable = variant !== 'focal' && !inPlace;
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
  // an author the reader could not read (a deleted post's `author: {}`): no name, no link to nothing
  const profile = a ? formatRoute(routes.userById(a.id)) : null;
  const quoted = post.quoted_tweet;
  const who = a ? `${a.name.trim() || '(no name)'} ${handleText(a.userName)}` : 'an unknown author';
  // a post that is not a reply shows its leading @mentions: only a reply's are said in "Replying to"
  const range = post.isReply || !post.displayTextRange ? post.displayTextRange : [0, post.displayTextRange[1]];

  return (
    <article
      className={`post post--${variant}`}
      data-nav-item={variant === 'quoted' ? undefined : ''}
      data-post-id={item.id}
      data-original-id={reposter ? post.id : undefined}
      tabIndex={variant === 'quoted' ? undefined : 0}
      aria-label={`Post by ${who}${reposter ? `, reposted by ${handleText(reposter.userName)}` : ''}`}
      onClick={onClick}
      onKeyDown={onKeyDown}
    >
      {badge ? <div className="post__badge">{badge}</div> : null}
      {item.retweeted_tweet ? (
        <p className="post__reposted">
          Reposted by{' '}
          {reposter ? (
            <a href={formatRoute(routes.userById(reposter.id))} dir="auto">
              @{reposter.userName}
            </a>
          ) : (
            <span className="muted">an unknown account</span>
          )}
          {' · '}
          <a href={formatRoute(routes.post(item.id))} onClick={(e) => e.stopPropagation()}>
            <RelativeTime value={item.createdAt} />
          </a>
        </p>
      ) : null}
      <header className="post__header">
        {a && profile ? (
          <a href={profile} className="post__avatar" tabIndex={-1} aria-hidden="true">
            <Avatar src={a.profilePicture} name={a.name} size={variant === 'quoted' ? 'sm' : 'md'} />
          </a>
        ) : (
          <Avatar src={null} name="?" size={variant === 'quoted' ? 'sm' : 'md'} />
        )}
        <div className="post__who">
          {a && profile ? (
            <>
              <a href={profile} className="post__name" dir="auto">
                <Name text={a.name} />
              </a>
              {a.isBlueVerified ? <VerifiedBadge /> : null}
              <Handle className="post__handle" handle={a.userName} />
              <AutomatedLabel user={a} />
            </>
          ) : (
            <span className="post__name muted">Unknown author</span>
          )}
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
        displayRange={range}
        className={`rich-text post__text${variant === 'focal' ? ' post__text--focal' : ''}`}
        searchOrigin={originOf(post.url)}
      />
      <MediaGrid items={media} />
      <CardAttachment card={post.card} />
      {quoted ? (
        isUnavailable(quoted) ? (
          <UnavailablePost post={quoted} compact={quoteDepth >= 1} />
        ) : quoted.id === collapseQuoteOf ? (
          <p className="post__quote-link post__quote-link--viewed">
            Quoting the post above
            {quoted.author ? (
              <>
                : <Handle handle={quoted.author.userName} />
              </>
            ) : null}{' '}
            · <span dir="auto">{postLabel(quoted, '', 8).replace(/^@[^:]*: ?/, '')}</span>
          </p>
        ) : quoteDepth >= 1 ? (
          <p className="post__quote-link">
            <a href={formatRoute(routes.post(quoted.id))}>
              Quoted post by {quoted.author ? <Handle handle={quoted.author.userName} /> : 'an unknown author'}
            </a>
          </p>
        ) : (
          <div className="post__quoted">
            <PostCard post={quoted} variant="quoted" quoteDepth={quoteDepth + 1} inPlace={inPlace} />
          </div>
        )
      ) : null}
      {variant === 'quoted' ? null : (
        <footer className="post__footer">
          <Counters post={post} />
          {post.url ? (
            <ExternalLink href={post.url} className="post__external">
              Open on the web
            </ExternalLink>
          ) : null}
        </footer>
      )}
    </article>
  );
});
