/**
 * Composition root of the Electron main process, and nothing more: adapt
 * Electron to the core's dependencies, register the bridge, open the window.
 * Everything testable lives in core.ts and the modules it builds.
 */
import { join } from 'node:path';
import { BrowserWindow, Menu, app, session, type WebContents } from 'electron';
import type { EventName, EventPayload, MenuCommand } from '../shared/ipc';
import { confirmWithDialog } from './adapters/confirm-dialog';
import { chooseSavePathWithDialog } from './adapters/dialogs';
import { createExportPlatform } from './adapters/export-dialog';
import { createMainWindow, denyPermissions, guardContents } from './adapters/main-window';
import { openInSystemBrowser } from './adapters/shell';
import { electronSecretStorage } from './adapters/safe-storage';
import { createCore, type Core } from './core';
import { isTrustedFrame } from './ipc/dispatch';
import { registerIpc, sendEvent } from './ipc/electron-ipc';
import { menuTemplate } from './menu';
import { APP_ENTRY_URL } from './protocol/assets';
import { handleAppProtocol, registerAppScheme } from './protocol/register';
import { appOrigins } from './window';

// Optional overrides, e.g. to point Skein at another server speaking the API (see README).
const env = {
  apiBaseUrl: process.env.SKEIN_API_BASE_URL || undefined,
  apiKey: process.env.SKEIN_API_KEY || undefined,
  userDataDir: process.env.SKEIN_USER_DATA_DIR || undefined,
  devServerUrl: app.isPackaged ? undefined : process.env.ELECTRON_RENDERER_URL || undefined,
};

if (env.userDataDir) app.setPath('userData', env.userDataDir);
registerAppScheme();
app.enableSandbox();

// Electron's async safeStorage, behind the key store's SecretStorage interface.
const secretStorage = electronSecretStorage();

const origins = appOrigins(env.devServerUrl);
const rendererRoot = join(import.meta.dirname, '../renderer');
const preloadPath = join(import.meta.dirname, '../preload/index.cjs');
let core: Core | undefined;

function broadcast<E extends EventName>(name: E, payload: EventPayload<E>): void {
  for (const win of BrowserWindow.getAllWindows()) sendEvent(win.webContents, name, payload);
}

function openWindow(): void {
  const win = createMainWindow({ preloadPath, url: env.devServerUrl ?? APP_ENTRY_URL, title: app.getName() });
  const id = win.webContents.id;
  // A reload or a closed window cancels what that window started.
  win.webContents.on('did-start-navigation', (details) => {
    if (details.isMainFrame && !details.isSameDocument) core?.onSenderGone(id);
  });
  win.on('closed', () => core?.onSenderGone(id));
}

function sendMenuCommand(command: MenuCommand): void {
  const target: WebContents | undefined = (BrowserWindow.getFocusedWindow() ?? BrowserWindow.getAllWindows()[0])?.webContents;
  if (target) sendEvent(target, 'menu', command);
}

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => {
    const win = BrowserWindow.getAllWindows()[0];
    if (win?.isMinimized()) win.restore();
    win?.focus();
  });

  app.on('web-contents-created', (_event, contents) => guardContents(contents, origins, (url) => void openInSystemBrowser(url)));

  void app.whenReady().then(() => {
    denyPermissions(session.defaultSession);
    core = createCore({
      userDataDir: app.getPath('userData'),
      secretStorage,
      openExternal: openInSystemBrowser,
      app: { name: app.getName(), version: app.getVersion(), platform: process.platform },
      apiBaseUrl: env.apiBaseUrl,
      apiKey: env.apiKey,
      // Loaded on first demo call only: the sandbox (fastify, faker) stays out of start-up.
      startSandbox: async (options) => (await import('./sandbox')).startSandbox(options),
      chooseSavePath: chooseSavePathWithDialog,
      confirm: confirmWithDialog,
      exportPlatform: createExportPlatform(),
      emit: broadcast,
      log: { error: (message, error) => console.error(message, error), warn: (message) => console.warn(message) },
    });
    const running = core;
    handleAppProtocol(session.defaultSession, rendererRoot, () => running.mediaPolicy());
    registerIpc(core.handlers, (frame) => isTrustedFrame(frame, origins), {
      onInternalError: (error, channel) => console.error(`[skein] ${channel} failed`, error),
    });
    Menu.setApplicationMenu(
      Menu.buildFromTemplate(menuTemplate({ appName: app.getName(), platform: process.platform, developer: !app.isPackaged, send: sendMenuCommand })),
    );
    openWindow();
    app.on('activate', () => {
      if (BrowserWindow.getAllWindows().length === 0) openWindow();
    });
  });

  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });

  let disposed = false;
  app.on('will-quit', (event) => {
    if (disposed || !core) return;
    event.preventDefault();
    disposed = true;
    void core.dispose().finally(() => app.quit());
  });
}
