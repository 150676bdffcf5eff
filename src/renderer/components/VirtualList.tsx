import { useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { Virtualizer, type VirtualizerHandle } from 'virtua';
import { observeAbove } from '../lib/above';
import { useUi } from '../state/ui';
import './virtual-list.css';
import { useViewScroll, withScroller } from './view-scroll';

/** How close (px) the end of the list must come before the next page is asked for: about two screens. */
const NEAR_END_PX = 1600;
/**
 * How far beyond the viewport (px) rows are rendered, so measured before they come into view. A frame that
 * scrolls further shows rows virtua has not measured yet, and the card being read moves as their sizes settle:
 * with 600 px, a fast scroll on a slow machine (frames of 50–150 ms at 9,000 px/s) moved it 20–80 px. This
 * covers such a frame, for about ten more rows in the DOM.
 */
const BUFFER_PX = 1400;
/**
 * The rows rendered while a list that starts below the fold waits to come into view. virtua renders
 * no row while the list is out of view and applies `bufferSize` only once it has measured some, so such a list
 * (a thread's replies under a long post, or in a small window) had none in the page: Tab went past them and a
 * screen reader could not reach them until the reader scrolled. Once these are measured the buffer applies.
 */
const FIRST_ROWS = [0, 1, 2, 3, 4, 5];

export interface VirtualListProps<T> {
  rows: readonly T[];
  getKey: (row: T, index: number) => string;
  renderRow: (row: T, index: number) => ReactNode;
  /** accessible name of the list region */
  label: string;
  busy?: boolean;
  /** called when the end of the list comes within about two screens, once the reader has scrolled */
  onNearEnd?: () => void;
  /** what follows the list (footer states); the near-end sentinel sits before it */
  footer?: ReactNode;
}

/**
 * A virtualized list inside the view's scroll container (virtua: variable
 * heights measured as they render, no jumps scrolling up into unmeasured
 * items). Remembers measured sizes so Back lands exactly where the user was.
 */
export function VirtualList<T>({ rows, getKey, renderRow, label, busy, onNearEnd, footer }: VirtualListProps<T>) {
  const { ref: scrollRef, viewKey: routeKey } = useViewScroll();
  const viewKey = `${routeKey}::${label}`;
  const handle = useRef<VirtualizerHandle>(null);
  const wrap = useRef<HTMLElement>(null);
  const sentinel = useRef<HTMLDivElement>(null);
  const [startMargin, setStartMargin] = useState(0);
  const [belowFold, setBelowFold] = useState(false);
  const rememberListSizes = useUi((s) => s.rememberListSizes);
  // a snapshot fits only the same rows; read once, at mount. With one, its default size is given as the rows' size
  // too: virtua otherwise waits to estimate one from new measurements before it applies `bufferSize`, and rows it
  // already knows bring none, so a list opened again rendered only what was on screen and a fast scroll met blanks
  const [initialCache] = useState(() => {
    const m = useUi.getState().scroll[viewKey];
    return m?.list && m.rows === rows.length ? m.list : undefined;
  });

  // where the list starts inside the scroll container (content above it can change height)
  useLayoutEffect(() => {
    const el = wrap.current;
    if (!el) return;
    return withScroller(scrollRef, (root) => {
      const belowView = () => el.getBoundingClientRect().top >= root.getBoundingClientRect().bottom;
      // whether the list starts below the fold, until a scroll brings it into view: from then on virtua's range
      // holds (not a layout: the content above may still be loading, and push a list that showed an edge below)
      let seen = false;
      const measure = () => {
        const top = el.getBoundingClientRect().top;
        setStartMargin(top - root.getBoundingClientRect().top + root.scrollTop);
        if (!seen) setBelowFold(belowView());
      };
      // the fold moves too: the window resized, the status bar wrapping to a second line once its figures load
      const fold = new ResizeObserver(() => {
        if (!seen) setBelowFold(belowView());
      });
      const onScroll = () => {
        if (belowView()) return;
        seen = true;
        setBelowFold(false);
        root.removeEventListener('scroll', onScroll);
        fold.disconnect();
      };
      root.addEventListener('scroll', onScroll, { passive: true });
      fold.observe(root);
      measure();
      const stopObserving = observeAbove(root, el, measure);
      return () => {
        root.removeEventListener('scroll', onScroll);
        fold.disconnect();
        stopObserving();
      };
    });
  }, [scrollRef]);

  // keep the measured sizes for Back
  const rowsRef = useRef(rows.length);
  useEffect(() => {
    rowsRef.current = rows.length;
  }, [rows.length]);
  useEffect(() => {
    const h = handle.current;
    return () => {
      if (h) rememberListSizes(viewKey, h.cache, rowsRef.current);
    };
  }, [viewKey, rememberListSizes]);

  // load more when the end comes within NEAR_END_PX: checked on scroll, when the list
  // changes size and when rows arrive (an observer alone misses "still near after a page")
  const nearEnd = useRef(onNearEnd);
  useEffect(() => {
    nearEnd.current = onNearEnd;
  }, [onNearEnd]);
  // the check reads layout, so it runs in the next frame (when layout is due anyway), never inside a commit
  const scheduleCheck = useRef<() => void>(() => {});
  useEffect(() => {
    const root = scrollRef.current;
    const s = sentinel.current;
    const w = wrap.current;
    if (!root || !s || !w) return;
    let frame = 0;
    let ask = 0;
    // Asking starts the bridge call and a render (the footer's loading state) that needs a layout of its own:
    // inside this frame callback both would land in the frame that is laying out the rows just scrolled in,
    // so they run in a task after it. The latest callback is asked, at most once per check.
    const askNow = () => {
      ask = 0;
      nearEnd.current?.();
    };
    const check = () => {
      frame = 0;
      // only once the reader has scrolled: opening a view buys its first page, never a second one unasked
      // (a list that fits on screen offers its "Load more" button instead)
      if (
        !ask &&
        nearEnd.current &&
        root.scrollTop > 0 &&
        s.getBoundingClientRect().top - root.getBoundingClientRect().bottom < NEAR_END_PX
      )
        ask = window.setTimeout(askNow, 0);
    };
    const schedule = () => {
      if (!frame) frame = requestAnimationFrame(check);
    };
    scheduleCheck.current = schedule;
    root.addEventListener('scroll', schedule, { passive: true });
    const ro = new ResizeObserver(schedule);
    ro.observe(w);
    ro.observe(root);
    return () => {
      scheduleCheck.current = () => {};
      root.removeEventListener('scroll', schedule);
      ro.disconnect();
      if (frame) cancelAnimationFrame(frame);
      if (ask) clearTimeout(ask);
    };
  }, [scrollRef]);
  useEffect(() => {
    if (onNearEnd) scheduleCheck.current();
  }, [rows.length, onNearEnd]);

  return (
    <section ref={wrap} className="vlist" aria-label={label} aria-busy={busy || undefined}>
      <Virtualizer
        ref={handle}
        scrollRef={scrollRef}
        startMargin={startMargin}
        data={rows}
        cache={initialCache}
        itemSize={initialCache?.[1]}
        bufferSize={BUFFER_PX}
        keepMounted={belowFold ? FIRST_ROWS : undefined}
      >
        {(row: T, i: number) => (
          <div key={getKey(row, i)} className="vlist__row" data-index={i}>
            {renderRow(row, i)}
          </div>
        )}
      </Virtualizer>
      <div ref={sentinel} className="vlist__sentinel" aria-hidden="true" />
      {footer}
    </section>
  );
}
