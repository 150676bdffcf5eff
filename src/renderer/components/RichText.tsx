import { Fragment, useState } from 'react';
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
 * Longer text is shown cut to this many characters until the reader asks for all of it: laying out
 * a 1 MB post takes Chromium a second or more, whatever Skein does.
 */
export const SHOWN_CHARS = 5_000;

/** the first `SHOWN_CHARS` code points of the display range, and only the text they need */
export function shownPart(
  text: string,
  displayRange: readonly number[] | null | undefined,
): { text: string; range: readonly number[] | null | undefined; cut: boolean } {
  const start = displayRange?.length === 2 ? Math.max(0, displayRange[0] ?? 0) : 0;
  const end = displayRange?.length === 2 ? (displayRange[1] ?? Infinity) : Infinity;
  if (text.length <= SHOWN_CHARS || end - start <= SHOWN_CHARS) return { text, range: displayRange, cut: false };
  // code point indices: a code point is at most two UTF-16 units. The text itself ends where the shown part
  // does: a display range's end never cuts a longer text (long posts), so the range alone would not.
  const prefix = Array.from(text.slice(0, 2 * (start + SHOWN_CHARS)))
    .slice(0, start + SHOWN_CHARS)
    .join('');
  return { text: prefix, range: [start, start + SHOWN_CHARS], cut: prefix.length < text.length };
}

/**
 * Text with its entities as React elements: links (expanded URL shown, opened
 * in the system browser), @mentions (open the profile), #hashtags and
 * $symbols. Never HTML: every piece is a text node.
 */
export function RichText({ text, entities, displayRange, className, searchOrigin }: Props) {
  const [whole, setWhole] = useState(false);
  const part = whole ? { text, range: displayRange, cut: false } : shownPart(text, displayRange);
  const segments = segmentText(part.text, entities, part.range);
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
      {part.cut ? (
        <>
          {'… '}
          <button
            type="button"
            className="btn btn--small"
            onClick={(e) => {
              e.stopPropagation();
              setWhole(true);
            }}
          >
            {`Show all ${text.length.toLocaleString('en-US')} characters`}
          </button>
        </>
      ) : null}
    </p>
  );
}
