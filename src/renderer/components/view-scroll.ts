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
