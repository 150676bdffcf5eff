/**
 * The hardened window, as data and pure decisions (Electron types only, so
 * unit tests pin it without Electron). The Electron side that applies these
 * lives in adapters/main-window.ts.
 */
import type { BrowserWindowConstructorOptions } from 'electron';
import { originOf } from './ipc/dispatch';
import { APP_ORIGIN } from './protocol/assets';

export const MIN_WIDTH = 720;
export const MIN_HEIGHT = 480;

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

/** Permission requests and checks (camera, notifications, clipboard-read, …): always no. */
export function permissionDecision(_permission: string): false {
  return false;
}
