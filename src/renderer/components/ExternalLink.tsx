import { useState, type ReactNode } from 'react';
import { linkVerdict } from '../../shared/ipc/app';
import { skein } from '../lib/bridge';

/**
 * Only web links leave Skein, and only through main (which opens the system browser): https opens,
 * http asks first (main's dialog), a link with user:password@ or another scheme is shown as text.
 */
function isWebUrl(href: string): boolean {
  return linkVerdict(href) !== 'refused';
}

/** the host a link really goes to, or null */
export function linkHost(href: string): string | null {
  try {
    return new URL(href).hostname.toLowerCase() || null;
  } catch {
    return null;
  }
}

/** whether the shown text already names the target's host (`example.com/page` for https://www.example.com/page) */
export function textShowsHost(text: string, host: string): boolean {
  const shown = text
    .trim()
    .toLowerCase()
    .replace(/^[a-z]+:\/\//, '')
    .replace(/^www\./, '');
  const bare = host.replace(/^www\./, '');
  return (
    shown === bare ||
    shown.startsWith(`${bare}/`) ||
    shown.startsWith(`${bare}:`) ||
    shown.startsWith(`${bare}?`) ||
    shown.startsWith(`${bare}#`)
  );
}

/** asks main to open the link; resolves to why it did not open (null when it did) */
async function openExternal(href: string): Promise<string | null> {
  if (!isWebUrl(href)) return 'Skein opens only https: links without a user name or password.';
  try {
    const r = await skein().app.openExternal({ url: href });
    return r.opened ? null : (r.refused ?? 'Not opened.');
  } catch {
    return 'Not opened.';
  }
}

interface Props {
  href: string;
  children: ReactNode;
  className?: string;
  /** accessible name when the visible text is not enough */
  label?: string;
  /** the link's shown text as data gave it: when it does not name the target's host, the host is shown too */
  shown?: string;
}

/** A link that opens in the system browser; anything else is shown as text. */
export function ExternalLink({ href, children, className, label, shown }: Props) {
  const [note, setNote] = useState<string | null>(null);
  const verdict = linkVerdict(href);
  if (verdict === 'refused') {
    return (
      <span className={className} title="Not a link Skein opens (only https:, without a user name or password)">
        {children}
      </span>
    );
  }
  const host = linkHost(href);
  const showHost = shown !== undefined && host !== null && !textShowsHost(shown, host);
  return (
    <>
      <a
        href={href}
        className={className}
        title={href}
        aria-label={label}
        rel="noreferrer noopener"
        onClick={(e) => {
          e.preventDefault();
          e.stopPropagation();
          void openExternal(href).then(setNote);
        }}
      >
        {children}
        {showHost ? <span className="link-host"> ({host})</span> : null}
        {verdict === 'http' ? <span className="link-host"> (http, unencrypted)</span> : null}
      </a>
      {note ? (
        <span className="link-note" role="status">
          {' '}
          {note}
        </span>
      ) : null}
    </>
  );
}
