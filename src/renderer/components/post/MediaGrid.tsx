import { useState } from 'react';
import type { MediaItem } from '../../lib/media';
import { Lightbox } from './Lightbox';

const SHOWN = 4;

/** Up to four thumbnails; each opens the lightbox. */
export function MediaGrid({ items }: { items: readonly MediaItem[] }) {
  const [open, setOpen] = useState<number | null>(null);
  if (items.length === 0) return null;
  const shown = items.slice(0, SHOWN);
  const more = items.length - shown.length;
  return (
    <div className={`media-grid media-grid--${Math.min(items.length, SHOWN)}`}>
      {shown.map((m, i) => {
        const what = m.kind === 'photo' ? 'image' : m.kind === 'gif' ? 'GIF' : 'video';
        const name = `Open ${what} ${i + 1} of ${items.length}${m.alt ? `: ${m.alt}` : ' (no alt text)'}`;
        return (
          <button
            key={m.id}
            type="button"
            className="media-grid__item"
            aria-label={name}
            title={m.alt ?? undefined}
            onClick={(e) => {
              e.stopPropagation();
              setOpen(i);
            }}
          >
            <img src={m.src} alt="" loading="lazy" decoding="async" referrerPolicy="no-referrer" />
            {m.kind !== 'photo' ? (
              <span className="media-grid__badge">{m.kind === 'gif' ? 'GIF' : 'Video'}</span>
            ) : null}
            {m.alt ? <span className="media-grid__badge media-grid__badge--alt">ALT</span> : null}
            {more > 0 && i === shown.length - 1 ? <span className="media-grid__more">+{more}</span> : null}
          </button>
        );
      })}
      {open !== null ? <Lightbox items={items} index={open} onIndex={setOpen} onClose={() => setOpen(null)} /> : null}
    </div>
  );
}
