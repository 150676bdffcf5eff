import { createContext, useContext, type RefObject } from 'react';

/** The scrolling element of the current view, and the key its scroll is remembered under. */
export interface ViewScroll {
  ref: RefObject<HTMLElement | null>;
  viewKey: string;
}

export const ViewScrollContext = createContext<ViewScroll | null>(null);

export function useViewScroll(): ViewScroll {
  const v = useContext(ViewScrollContext);
  if (!v) throw new Error('useViewScroll outside a view');
  return v;
}

/**
 * Runs `attach` with the view's scroller from a layout effect, once the scroller is in the page. A component
 * mounted in the same commit as its view runs its layout effects before React attaches the view's ref (children
 * first), so the ref is still empty then: `attach` runs in a microtask instead, after the commit and before paint.
 * Without this a list opened again from cache never measured where it starts, and drew the rows of the wrong
 * place. Returns the cleanup for the effect.
 */
export function withScroller(
  ref: RefObject<HTMLElement | null>,
  attach: (root: HTMLElement) => (() => void) | void,
): () => void {
  let detach: (() => void) | void;
  let cancelled = false;
  const run = () => {
    const root = ref.current;
    if (!cancelled && root) detach = attach(root);
  };
  if (ref.current) run();
  else queueMicrotask(run);
  return () => {
    cancelled = true;
    detach?.();
  };
}
