/**
 * The hardened window, as data and pure decisions (Electron types only, so
 * unit tests pin it without Electron). The Electron side that applies these
 * lives in adapters/main-window.ts.
 */
import type { BrowserWindowConstructorOptions } from 'electron';
import { originOf, APP_ORIGIN } from '../../core';

const MIN_WIDTH = 720;
const MIN_HEIGHT = 480;

export function windowOptions(preloadPath: string, title = 'Skein'): BrowserWindowConstructorOptions {
  return {
    title,
    width: 1280,
    height: 840,
    minWidth: MIN_WIDTH,
    minHeight: MIN_HEIGHT,
    show: false,
    backgroundColor: '#111318',
    autoHideMenuBar: false,
    webPreferences: {
      preload: preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      experimentalFeatures: false,
      enableBlinkFeatures: '',
      navigateOnDragDrop: false,
      safeDialogs: true,
      spellcheck: false,
      devTools: true,
    },
  };
}

/**
 * Origins the window may show and the bridge may trust: the app protocol, and
 * in `npm run dev` the electron-vite dev server it was started with.
 */
export function appOrigins(devServerUrl?: string): string[] {
  const dev = devServerUrl ? originOf(devServerUrl) : null;
  return dev ? [APP_ORIGIN, dev] : [APP_ORIGIN];
}

/** In-window navigation is allowed only within our own origins (e.g. a reload). */
export function isAllowedNavigation(url: string, origins: readonly string[]): boolean {
  const origin = originOf(url);
  return origin !== null && origins.some((o) => originOf(o) === origin);
}

/**
 * A link that may leave Skein for the system browser without asking: https
 * only, without a user name or password (http: links go through the bridge's
 * openExternal, which asks the user in main first).
 */
export function externalTarget(url: string): string | null {
  try {
    const u = new URL(url);
    return u.protocol === 'https:' && u.username === '' && u.password === '' ? u.toString() : null;
  } catch {
    return null;
  }
}

/**
 * Whether a failed load leaves the window without Skein: the main frame, and
 * not an aborted load (-3, e.g. a navigation replaced by another) nor the
 * error page itself.
 */
export function isLoadFailure(errorCode: number, isMainFrame: boolean, url: string): boolean {
  return isMainFrame && errorCode !== -3 && !url.startsWith('data:');
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/** The page a window shows when Skein's own page failed to load: what failed, as text; no script. */
export function loadErrorPage(url: string, description: string): string {
  const html =
    '<!doctype html><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="default-src \'none\'; style-src \'unsafe-inline\'">' +
    '<title>Skein could not start</title><body style="font:15px system-ui;margin:3em;color:#ddd;background:#111318">' +
    `<h1 style="font-size:18px">Skein could not load its window</h1><p>${escapeHtml(url)} failed: ${escapeHtml(description || 'unknown error')}.</p>` +
    '<p>Reinstall Skein, or run <code>npm run build</code> again when starting from source.</p></body>';
  return `data:text/html;charset=utf-8,${encodeURIComponent(html)}`;
}

/**
 * Permission requests and checks: no, except writing text to the clipboard (`clipboard-sanitized-write`:
 * the "Copy id" buttons) asked by Skein's own page in its top frame. Reading the clipboard, camera,
 * notifications, … and anything asked by another origin or a sub-frame: always no.
 */
export function permissionDecision(
  permission: string,
  requester: { url: string | undefined; isMainFrame: boolean },
  origins: readonly string[],
): boolean {
  if (permission !== 'clipboard-sanitized-write' || !requester.isMainFrame || !requester.url) return false;
  const origin = originOf(requester.url);
  return origin !== null && origins.some((o) => originOf(o) === origin);
}
