import { Fragment } from 'react';
import { segmentText, type EntitiesLike } from '../lib/entities';
import { formatRoute, routes } from '../lib/routes';
import { ExternalLink } from './ExternalLink';

interface Props {
  text: string;
  entities?: EntitiesLike | null;
  displayRange?: readonly number[] | null;
  className?: string;
  /** origin of the social site (from the post URL): #hashtags and $symbols open its search */
  searchOrigin?: string | null;
}

function searchHref(origin: string | null | undefined, q: string): string | null {
  return origin ? `${origin}/search?q=${encodeURIComponent(q)}` : null;
}

/**
 * Text with its entities as React elements: links (expanded URL shown, opened
 * in the system browser), @mentions (open the profile), #hashtags and
 * $symbols. Never HTML: every piece is a text node.
 */
export function RichText({ text, entities, displayRange, className, searchOrigin }: Props) {
  const segments = segmentText(text, entities, displayRange);
  return (
    <p className={className ?? 'rich-text'} dir="auto">
      {segments.map((s, i) => {
        switch (s.kind) {
          case 'text':
            return <Fragment key={i}>{s.text}</Fragment>;
          case 'url':
            return (
              <ExternalLink key={i} href={s.href} className="entity entity--url" shown={s.text}>
                {s.text}
              </ExternalLink>
            );
          case 'mention':
            return (
              <a
                key={i}
                className="entity entity--mention"
                href={formatRoute(s.userId ? routes.userById(s.userId) : routes.userByHandle(s.screenName))}
                onClick={(e) => e.stopPropagation()}
              >
                {s.text}
              </a>
            );
          case 'hashtag':
          case 'symbol': {
            const href = searchHref(searchOrigin, s.text);
            const cls = `entity entity--${s.kind}`;
            return href ? (
              <ExternalLink key={i} href={href} className={cls}>
                {s.text}
              </ExternalLink>
            ) : (
              <span key={i} className={cls}>
                {s.text}
              </span>
            );
          }
        }
      })}
    </p>
  );
}
