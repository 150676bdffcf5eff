/**
 * Electron glue of the hardened window: builds it from windowOptions() and
 * installs the guards (navigation, new windows, permissions, webviews).
 */
import { BrowserWindow, type Session, type WebContents } from 'electron';
import {
  externalTarget,
  isAllowedNavigation,
  isLoadFailure,
  loadErrorPage,
  permissionDecision,
  windowOptions,
} from '../window';

/**
 * Denies every permission request and check of a session, but writing text to the clipboard from
 * Skein's own origins' top frame (`permissionDecision`).
 */
export function denyPermissions(session: Session, origins: readonly string[]): void {
  session.setPermissionRequestHandler((_wc, permission, callback, details) =>
    callback(permissionDecision(permission, { url: details.requestingUrl, isMainFrame: details.isMainFrame }, origins)),
  );
  session.setPermissionCheckHandler((_wc, permission, requestingOrigin, details) =>
    permissionDecision(
      permission,
      { url: details.requestingUrl ?? requestingOrigin, isMainFrame: details.isMainFrame },
      origins,
    ),
  );
  session.setDevicePermissionHandler(() => false);
}

/**
 * Guards for every WebContents Skein ever creates: no navigation away from our
 * origins, no new windows (http(s) links go to the system browser through
 * `openExternal`, the one allowlisted way out), no webviews.
 */
export function guardContents(
  contents: WebContents,
  origins: readonly string[],
  openExternal: (url: string) => void,
): void {
  const refuse = (event: { preventDefault: () => void }, url: string) => {
    if (isAllowedNavigation(url, origins)) return;
    event.preventDefault();
    const external = externalTarget(url);
    if (external) openExternal(external);
  };
  contents.on('will-navigate', (event) => refuse(event, event.url));
  contents.on('will-redirect', (event) => {
    if (!isAllowedNavigation(event.url, origins)) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.on('will-frame-navigate', (event) => {
    if (!event.isMainFrame && !isAllowedNavigation(event.url, origins)) event.preventDefault();
  });
  contents.setWindowOpenHandler(({ url }) => {
    const external = externalTarget(url);
    if (external) openExternal(external);
    return { action: 'deny' };
  });
}

export function createMainWindow(options: { preloadPath: string; url: string; title: string }): BrowserWindow {
  const win = new BrowserWindow(windowOptions(options.preloadPath, options.title));
  win.once('ready-to-show', () => win.show());
  // A first load that fails must not leave an invisible window and an unhandled rejection: show what failed.
  win.webContents.on('did-fail-load', (_event, errorCode, description, url, isMainFrame) => {
    if (!isLoadFailure(errorCode, isMainFrame, url)) return;
    win.loadURL(loadErrorPage(url, description)).catch(() => undefined);
    win.show();
  });
  win.loadURL(options.url).catch(() => undefined);
  return win;
}
