import { useEffect, useRef, useState } from 'react';
import type { MediaItem } from '../../lib/media';
import { ExternalLink } from '../ExternalLink';

interface Props {
  items: readonly MediaItem[];
  index: number;
  onIndex: (i: number) => void;
  onClose: () => void;
}

/**
 * A modal image viewer: ←/→ move, Esc closes (native <dialog>), the alt text
 * is shown under the image, and the image can be viewed at its original size.
 */
export function Lightbox({ items, index, onIndex, onClose }: Props) {
  const ref = useRef<HTMLDialogElement>(null);
  const [original, setOriginal] = useState(false);
  const item = items[index];
  const count = items.length;

  useEffect(() => {
    const d = ref.current;
    if (d && !d.open) d.showModal();
    return () => {
      if (d?.open) d.close();
    };
  }, []);

  if (!item) return null;
  const go = (delta: number) => {
    setOriginal(false);
    onIndex((index + delta + count) % count);
  };
  const title = `${item.kind === 'photo' ? 'Image' : item.kind === 'gif' ? 'GIF' : 'Video'} ${index + 1} of ${count}`;

  return (
    <dialog
      ref={ref}
      className="lightbox"
      aria-label={title}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
      onClick={(e) => {
        if (e.target === e.currentTarget) onClose();
      }}
      onKeyDown={(e) => {
        e.stopPropagation();
        if (e.key === 'ArrowRight' && count > 1) go(1);
        else if (e.key === 'ArrowLeft' && count > 1) go(-1);
      }}
    >
      <div className="lightbox__bar">
        <h2 className="lightbox__title">{title}</h2>
        <div className="lightbox__actions">
          <button
            type="button"
            className="btn btn--small"
            onClick={() => go(-1)}
            disabled={count < 2}
            aria-label="Previous image"
          >
            ←
          </button>
          <button
            type="button"
            className="btn btn--small"
            onClick={() => go(1)}
            disabled={count < 2}
            aria-label="Next image"
          >
            →
          </button>
          <button
            type="button"
            className="btn btn--small"
            aria-pressed={original}
            onClick={() => setOriginal((o) => !o)}
          >
            Original size
          </button>
          <ExternalLink href={item.original} className="btn btn--small">
            Open original
          </ExternalLink>
          <button type="button" className="btn btn--small" onClick={onClose} autoFocus>
            Close
          </button>
        </div>
      </div>
      <div className={`lightbox__stage${original ? ' lightbox__stage--original' : ''}`}>
        <img
          src={original ? item.original : item.src}
          alt={item.alt ?? ''}
          width={original ? (item.width ?? undefined) : undefined}
          height={original ? (item.height ?? undefined) : undefined}
          referrerPolicy="no-referrer"
        />
      </div>
      <p className="lightbox__alt">
        {item.alt ? (
          <>
            <strong>Alt text:</strong> {item.alt}
          </>
        ) : (
          <span className="muted">No alt text was provided for this {item.kind === 'photo' ? 'image' : 'media'}.</span>
        )}
        {item.width && item.height ? (
          <span className="muted">
            {' '}
            · {item.width} × {item.height}
          </span>
        ) : null}
      </p>
    </dialog>
  );
}
