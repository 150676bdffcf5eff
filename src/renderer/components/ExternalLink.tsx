import type { ReactNode } from 'react';
import { skein } from '../lib/bridge';

/** Only web links leave Skein, and only through main (which opens the system browser). */
export function isWebUrl(href: string): boolean {
  try {
    const p = new URL(href).protocol;
    return p === 'https:' || p === 'http:';
  } catch {
    return false;
  }
}

export function openExternal(href: string): void {
  if (!isWebUrl(href)) return;
  skein()
    .app.openExternal({ url: href })
    .catch(() => {
      /* refused by main: nothing else to do */
    });
}

interface Props {
  href: string;
  children: ReactNode;
  className?: string;
  /** accessible name when the visible text is not enough */
  label?: string;
}

/** A link that opens in the system browser; anything but http(s) is shown as text. */
export function ExternalLink({ href, children, className, label }: Props) {
  if (!isWebUrl(href)) return <span className={className}>{children}</span>;
  return (
    <a
      href={href}
      className={className}
      title={href}
      aria-label={label}
      rel="noreferrer noopener"
      onClick={(e) => {
        e.preventDefault();
        e.stopPropagation();
        openExternal(href);
      }}
    >
      {children}
    </a>
  );
}
