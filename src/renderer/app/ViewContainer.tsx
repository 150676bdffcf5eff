import { Component, useEffect, useLayoutEffect, useMemo, useRef, type ErrorInfo, type ReactNode } from 'react';
import { SkeinError } from '../../shared/errors';
import { ErrorState } from '../components/ErrorState';
import { ViewScrollContext } from '../components/view-scroll';
import { useUi } from '../state/ui';
import { scalarText } from '../../shared/scalar-text';

/**
 * The `<main>` landmark and scroll container of one page, with the column's
 * side lines (`.view-rails`: the scroller's height, never its content's, so a
 * list growing under them does not make Chromium raster the whole view again).
 * Mounted afresh per page (its key), it restores where that page was scrolled
 * to, remembers scrolling per route, and gives focus to the page's heading when
 * focus was lost.
 */
/**
 * The item last focused in each route (`[data-post-id="…"]`, or a link into the app such as a Home card
 * or a trend), so Back returns focus to what was opened.
 */
const lastFocused = new Map<string, string>();
const IDENTITY = ['data-post-id', 'data-user-id'] as const;

function identityOf(target: EventTarget | null): string | null {
  if (!(target instanceof Element)) return null;
  const item = target.closest<HTMLElement>('[data-nav-item]');
  if (item) {
    for (const attr of IDENTITY) {
      const v = item.getAttribute(attr);
      if (v) return `[data-nav-item][${attr}="${CSS.escape(v)}"]`;
    }
  }
  const link = target.closest<HTMLAnchorElement>('a[href^="#/"]');
  const href = link?.getAttribute('href');
  return href ? `a[href="${CSS.escape(href)}"]` : null;
}

export function ViewContainer({ viewKey, children }: { viewKey: string; children: ReactNode }) {
  const ref = useRef<HTMLElement>(null);
  const top = useRef(0);
  const keyRef = useRef(viewKey);
  const rememberScrollTop = useUi((s) => s.rememberScrollTop);
  const scroll = useMemo(() => ({ ref, viewKey }), [viewKey]);

  // restore on arrival (children's layout effects ran first, so lists have their sizes)
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const saved = useUi.getState().scroll[keyRef.current]?.top ?? 0;
    if (saved > 0) el.scrollTop = saved;
    top.current = el.scrollTop;
    const active = document.activeElement;
    if (!active || active === document.body || !document.contains(active)) {
      el.querySelector<HTMLElement>('h1')?.focus({ preventScroll: true });
      // back on a page: the item that was opened from it (a list may render its rows a frame or two later)
      const selector = lastFocused.get(keyRef.current);
      if (selector) {
        let frames = 0;
        const tryFocus = () => {
          const now = document.activeElement;
          if (!ref.current || (now !== document.body && now?.tagName !== 'H1')) return;
          const item = ref.current.querySelector<HTMLElement>(selector);
          if (item) item.focus({ preventScroll: true });
          else if (++frames < 30) requestAnimationFrame(tryFocus);
        };
        tryFocus();
      }
    }
  }, []);

  // the route can change within a page (tabs, toggles): keep each route's offset
  useEffect(() => {
    const prev = keyRef.current;
    if (prev !== viewKey) {
      rememberScrollTop(prev, top.current);
      keyRef.current = viewKey;
    }
  }, [viewKey, rememberScrollTop]);
  useEffect(() => () => rememberScrollTop(keyRef.current, top.current), [rememberScrollTop]);

  return (
    <main
      ref={ref}
      id="main"
      className="view-scroll"
      tabIndex={-1}
      onFocus={(e) => {
        const id = identityOf(e.target);
        if (id) lastFocused.set(keyRef.current, id);
      }}
      onScroll={(e) => {
        top.current = e.currentTarget.scrollTop;
      }}
    >
      <div className="view-rails" aria-hidden="true">
        <div className="view-rails__column" />
      </div>
      <ViewScrollContext.Provider value={scroll}>
        <ViewErrorBoundary>{children}</ViewErrorBoundary>
      </ViewScrollContext.Provider>
    </main>
  );
}

class ViewErrorBoundary extends Component<{ children: ReactNode }, { error: unknown }> {
  override state: { error: unknown } = { error: null };
  static getDerivedStateFromError(error: unknown) {
    return { error };
  }
  override componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error('View crashed', error, info.componentStack);
  }
  override render() {
    if (this.state.error) {
      const msg =
        this.state.error instanceof Error ? this.state.error.message : scalarText(this.state.error, 'Unknown error');
      return (
        <div className="view">
          <header className="view__header">
            <h1 tabIndex={-1}>This view failed</h1>
          </header>
          <ErrorState error={new SkeinError('internal', msg)} onRetry={() => this.setState({ error: null })} />
        </div>
      );
    }
    return this.props.children;
  }
}
