/**
 * Composition root of the Electron main process, and nothing more: adapt
 * Electron to the core's dependencies, register the bridge, open the window.
 * Everything testable lives in core.ts and the modules it builds.
 */
import { join, resolve } from 'node:path';
import { BrowserWindow, Menu, app, net, session, type WebContents } from 'electron';
import type { EventName, EventPayload, MenuCommand } from '../../shared/ipc';
import { confirmWithDialog } from './adapters/confirm-dialog';
import { chooseOpenPathWithDialog, chooseSavePathWithDialog } from './adapters/dialogs';
import { createExportPlatform } from './adapters/export-dialog';
import { createMainWindow, denyPermissions, guardContents } from './adapters/main-window';
import { fetchThroughNet } from './adapters/net-fetch';
import { openInSystemBrowser, showInFileManager } from './adapters/shell';
import { electronSecretStorage } from './adapters/safe-storage';
import { APP_ID } from './app-id';
import {
  createCore,
  holdYoungGeneration,
  type Core,
  type SandboxHandle,
  isTrustedFrame,
  menuTemplate,
  APP_ENTRY_URL,
} from '../../core';
import { registerIpc, sendEvent } from './ipc';
import { handleAppProtocol, registerAppScheme } from './protocol';
import { startSandboxInWorker } from '../../sandbox/thread';
import { appOrigins } from './window';

// Optional overrides, e.g. to point Skein at another server speaking the API (see README).
const env = {
  apiBaseUrl: process.env.SKEIN_API_BASE_URL || undefined,
  apiKey: process.env.SKEIN_API_KEY || undefined,
  // Electron's setPath throws on a relative path: resolve it against the working directory first.
  userDataDir: process.env.SKEIN_USER_DATA_DIR ? resolve(process.env.SKEIN_USER_DATA_DIR) : undefined,
  devServerUrl: app.isPackaged ? undefined : process.env.ELECTRON_RENDERER_URL || undefined,
};

if (env.userDataDir) app.setPath('userData', env.userDataDir);
registerAppScheme();
app.enableSandbox();
// Windows: notifications and taskbar pinning belong to the installed app's id.
if (process.platform === 'win32') app.setAppUserModelId(APP_ID);

// Electron's async safeStorage, behind the key store's SecretStorage interface.
const secretStorage = electronSecretStorage();

const origins = appOrigins(env.devServerUrl);
const rendererRoot = join(import.meta.dirname, '../renderer');
const preloadPath = join(import.meta.dirname, '../preload/index.cjs');
let core: Core | undefined;

/** The demo sandbox in its worker thread; on main's thread (loaded lazily) only if a worker cannot start here. */
async function startDemoSandbox(options: { port: number }): Promise<SandboxHandle> {
  const entry = new URL('./sandbox-worker.js', import.meta.url);
  try {
    return await startSandboxInWorker(options, {
      entry,
      onError: (error) => console.error('[skein] the demo sandbox stopped', error),
    });
  } catch (error) {
    console.warn(
      `[skein] the demo sandbox worker could not start (${error instanceof Error ? error.message : String(error)}); running it on the main thread`,
    );
    return (await import('../../sandbox')).startSandbox(options);
  }
}

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

/** A second launch, or a click on the dock icon with no window open: bring Skein to the front, with a window. */
function showWindow(): void {
  if (!core) return;
  const win = BrowserWindow.getAllWindows()[0];
  if (!win) return openWindow();
  if (win.isMinimized()) win.restore();
  win.show();
  win.focus();
}

function sendMenuCommand(command: MenuCommand): void {
  const target: WebContents | undefined = (BrowserWindow.getFocusedWindow() ?? BrowserWindow.getAllWindows()[0])
    ?.webContents;
  if (target) sendEvent(target, 'menu', command);
}

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', showWindow);

  app.on('web-contents-created', (_event, contents) =>
    guardContents(contents, origins, (url) => void openInSystemBrowser(url)),
  );

  // before the core starts its workers: a long export or hydration on main stays within its young generation
  holdYoungGeneration();
  void app.whenReady().then(() => {
    denyPermissions(session.defaultSession, origins);
    core = createCore({
      userDataDir: app.getPath('userData'),
      secretStorage,
      openExternal: openInSystemBrowser,
      app: { name: app.getName(), version: app.getVersion(), platform: process.platform },
      apiBaseUrl: env.apiBaseUrl,
      apiKey: env.apiKey,
      // Chromium's network stack: the system proxy, PAC and certificate store apply (TLS inspection).
      fetch: fetchThroughNet((input, init) => net.fetch(input instanceof URL ? input.href : input, init)),
      // Started on the first demo call, in a worker thread: building its world (0.3–1.5 s) and answering
      // must not block main's event loop, which every window and IPC reply waits on.
      startSandbox: (options) => startDemoSandbox(options),
      chooseSavePath: chooseSavePathWithDialog,
      showInFolder: showInFileManager,
      chooseOpenPath: chooseOpenPathWithDialog,
      // the research archive's SQLite runs in its own worker thread, never on main's event loop
      workers: {
        archive: new URL('./archive-worker.js', import.meta.url),
        reexport: new URL('./reexport-worker.js', import.meta.url),
        live: new URL('./live-worker.js', import.meta.url),
        files: new URL('./files-worker.js', import.meta.url),
      },
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
      Menu.buildFromTemplate(
        menuTemplate({
          appName: app.getName(),
          platform: process.platform,
          developer: !app.isPackaged,
          send: sendMenuCommand,
        }),
      ),
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
