import { observeAbove } from './above';

/** What a reader does to move a view; after any of them the view is theirs. */
const READER_MOVES = ['wheel', 'touchstart', 'pointerdown', 'keydown'] as const;

/**
 * Scrolls `root` so that `target` sits at its top, and keeps it there while what is above it changes size (a
 * pinned post, an image loading in), until the reader moves the view (wheel, touch, a press on the scrollbar, a
 * key). The browser's scroll anchoring usually holds such a landing on its own, but not always (it passes over
 * an anchor it finds unsuitable), and a landing that ends 400 px lower is a landing missed. Returns the release.
 */
export function holdAtTop(root: HTMLElement, target: HTMLElement): () => void {
  const align = () => {
    const by = target.getBoundingClientRect().top - root.getBoundingClientRect().top;
    if (Math.abs(by) >= 1) root.scrollBy({ top: by, behavior: 'instant' });
  };
  align();
  const stopWatching = observeAbove(root, target, align);
  const release = () => {
    stopWatching();
    for (const type of READER_MOVES) window.removeEventListener(type, release, true);
  };
  for (const type of READER_MOVES) window.addEventListener(type, release, { capture: true, passive: true });
  return release;
}
