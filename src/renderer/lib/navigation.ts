/**
 * Hash routing over the browser's own history: `#/post/1/replies` works the
 * same under the app's `skein://` protocol and the test host's static server,
 * and back/forward, Alt+←/→, mouse buttons and deep links all come from the
 * platform. Routes are the typed union of `lib/routes.ts`.
 */
import { useMemo, useSyncExternalStore } from 'react';
import { formatRoute, parseRoute, type Route } from './routes';

const REPLACED = 'skein:route-replaced';

function subscribe(cb: () => void): () => void {
  window.addEventListener('hashchange', cb);
  window.addEventListener('popstate', cb);
  window.addEventListener(REPLACED, cb);
  return () => {
    window.removeEventListener('hashchange', cb);
    window.removeEventListener('popstate', cb);
    window.removeEventListener(REPLACED, cb);
  };
}

const currentHash = () => window.location.hash;

/** The current route; re-renders when it changes. */
export function useRoute(): Route {
  const hash = useSyncExternalStore(subscribe, currentHash);
  return useMemo(() => parseRoute(hash), [hash]);
}

/** Current hash string (for keys); re-renders when it changes. */
export function useHash(): string {
  return useSyncExternalStore(subscribe, currentHash);
}

/**
 * Open a route. `replace` swaps the current history entry: used for tabs and
 * toggles so that Back leaves the view instead of stepping through its tabs.
 */
export function navigate(route: Route, opts: { replace?: boolean } = {}): void {
  const hash = formatRoute(route);
  if (hash === window.location.hash || (hash === '#/' && window.location.hash === '')) return;
  if (opts.replace) {
    window.history.replaceState(window.history.state, '', hash);
    window.dispatchEvent(new Event(REPLACED));
  } else {
    window.location.hash = hash;
  }
}

export function goBack(): void {
  window.history.back();
}

export function goForward(): void {
  window.history.forward();
}

/** The Navigation API (Chromium) knows whether back/forward are possible. */
interface NavigationLike extends EventTarget {
  canGoBack: boolean;
  canGoForward: boolean;
}
const nav = (): NavigationLike | undefined => (window as unknown as { navigation?: NavigationLike }).navigation;

function subscribeNav(cb: () => void): () => void {
  const n = nav();
  n?.addEventListener('currententrychange', cb);
  const off = subscribe(cb);
  return () => {
    n?.removeEventListener('currententrychange', cb);
    off();
  };
}

/** `[canGoBack, canGoForward]`; both true when the platform cannot tell. */
export function useHistoryAvailability(): { canGoBack: boolean; canGoForward: boolean } {
  const back = useSyncExternalStore(subscribeNav, () => nav()?.canGoBack ?? true);
  const forward = useSyncExternalStore(subscribeNav, () => nav()?.canGoForward ?? true);
  return { canGoBack: back, canGoForward: forward };
}
