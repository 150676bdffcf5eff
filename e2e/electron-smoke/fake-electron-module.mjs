/**
 * A recording stand-in for the `electron` module as Skein's main process uses
 * it (the fake binary, fake-electron.mjs, resolves `electron` here). Every call
 * that matters is logged in order with whether the app was ready, so the smoke
 * test can check what happens before and after `ready` and before the window
 * loads. Behaviour follows Electron where Skein depends on it: `setPath`
 * refuses a relative path, `will-quit` can be prevented, `whenReady` resolves
 * on `ready`, an IPC call to a channel without handler is rejected.
 */
import { EventEmitter } from 'node:events';
import { readFileSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';

export const fake = {
  /** @type {Array<{ what: string, ready: boolean } & Record<string, unknown>>} */
  log: [],
  ready: false,
  /** @type {Map<string, Function>} */
  handlers: new Map(),
  /** @type {Map<string, Function>} */
  protocolHandlers: new Map(),
  /** @type {unknown[] | null} */
  menuTemplate: null,
  /** @type {string[]} */
  fetched: [],
  appDir: process.cwd(),
  packaged: false,
  /** called when a window starts loading (the driver waits for it) */
  onLoad: (/** @type {FakeBrowserWindow} */ _win, /** @type {string} */ _url) => {},
  /** called when the app quits for real */
  onQuit: () => {},
  quitting: false,
};

const record = (what, detail = {}) => fake.log.push({ what, ready: fake.ready, ...detail });
const event = () => {
  const e = { defaultPrevented: false, preventDefault: () => (e.defaultPrevented = true) };
  return e;
};

function appPackage() {
  try {
    return JSON.parse(readFileSync(join(fake.appDir, 'package.json'), 'utf8'));
  } catch {
    return {};
  }
}

const paths = new Map();
let readyResolve;
const readyPromise = new Promise((r) => (readyResolve = r));

class FakeApp extends EventEmitter {
  get isPackaged() {
    return fake.packaged;
  }
  getName() {
    const pkg = appPackage();
    return pkg.productName ?? pkg.name ?? 'Electron';
  }
  getVersion() {
    return appPackage().version ?? '45.4.1';
  }
  getPath(name) {
    return paths.get(name) ?? resolve(fake.appDir, `.fake-${name}`);
  }
  setPath(name, path) {
    record('app.setPath', { name, path });
    if (!isAbsolute(path)) throw new Error(`Path must be absolute: ${path}`);
    paths.set(name, path);
  }
  enableSandbox() {
    record('app.enableSandbox');
  }
  setAppUserModelId(id) {
    record('app.setAppUserModelId', { id });
  }
  requestSingleInstanceLock() {
    return true;
  }
  whenReady() {
    return readyPromise;
  }
  isReady() {
    return fake.ready;
  }
  quit() {
    record('app.quit');
    if (fake.quitting) return;
    fake.quitting = true;
    setImmediate(() => {
      const before = event();
      this.emit('before-quit', before);
      if (before.defaultPrevented) return void (fake.quitting = false);
      for (const win of [...windows]) win.close();
      const willQuit = event();
      this.emit('will-quit', willQuit);
      record('will-quit', { prevented: willQuit.defaultPrevented });
      fake.quitting = false;
      if (willQuit.defaultPrevented) return;
      this.emit('quit');
      fake.onQuit();
    });
  }
  exit() {
    record('app.exit');
    fake.onQuit();
  }
}
export const app = new FakeApp();

/** The driver's signal: Electron is ready. */
export function emitReady() {
  fake.ready = true;
  record('ready');
  app.emit('ready');
  readyResolve();
}

let nextId = 1;
/** @type {FakeBrowserWindow[]} */
const windows = [];

class FakeWebContents extends EventEmitter {
  constructor() {
    super();
    this.id = nextId++;
    this.destroyed = false;
    /** @type {(channel: string, payload: unknown) => void} */
    this.deliver = () => {};
    this.url = '';
  }
  send(channel, ...args) {
    record('webContents.send', { channel });
    this.deliver(channel, structuredClone(args[0]));
  }
  isDestroyed() {
    return this.destroyed;
  }
  setWindowOpenHandler(handler) {
    record('webContents.setWindowOpenHandler');
    this.windowOpenHandler = handler;
  }
  getURL() {
    return this.url;
  }
}

export class FakeBrowserWindow extends EventEmitter {
  constructor(options = {}) {
    super();
    this.options = options;
    this.webContents = new FakeWebContents();
    this.shown = false;
    this.destroyed = false;
    this.loads = [];
    windows.push(this);
    record('BrowserWindow', { options: JSON.parse(JSON.stringify(options)) });
    app.emit('web-contents-created', event(), this.webContents);
  }
  static getAllWindows() {
    return windows.filter((w) => !w.destroyed);
  }
  static getFocusedWindow() {
    return windows.find((w) => !w.destroyed && w.shown) ?? null;
  }
  loadURL(url) {
    record('BrowserWindow.loadURL', { url });
    this.loads.push(url);
    this.webContents.url = url;
    fake.onLoad(this, url);
    return Promise.resolve();
  }
  show() {
    record('BrowserWindow.show');
    this.shown = true;
  }
  focus() {}
  restore() {}
  isMinimized() {
    return false;
  }
  isDestroyed() {
    return this.destroyed;
  }
  setProgressBar() {}
  close() {
    if (this.destroyed) return;
    this.destroyed = true;
    this.webContents.destroyed = true;
    this.emit('closed');
  }
}
export { FakeBrowserWindow as BrowserWindow };

export const Menu = {
  buildFromTemplate(template) {
    return { template };
  },
  setApplicationMenu(menu) {
    record('Menu.setApplicationMenu');
    fake.menuTemplate = menu?.template ?? null;
  },
};

export const protocol = {
  registerSchemesAsPrivileged(schemes) {
    record('protocol.registerSchemesAsPrivileged', { schemes });
  },
};

export const session = {
  defaultSession: {
    protocol: {
      handle(scheme, handler) {
        record('session.protocol.handle', { scheme });
        fake.protocolHandlers.set(scheme, handler);
      },
    },
    setPermissionRequestHandler(handler) {
      record('session.setPermissionRequestHandler');
      fake.permissionRequest = handler;
    },
    setPermissionCheckHandler(handler) {
      record('session.setPermissionCheckHandler');
      fake.permissionCheck = handler;
    },
    setDevicePermissionHandler() {
      record('session.setDevicePermissionHandler');
    },
  },
};

export const ipcMain = {
  handle(channel, handler) {
    record('ipcMain.handle', { channel });
    if (fake.handlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
    fake.handlers.set(channel, handler);
  },
  removeHandler(channel) {
    fake.handlers.delete(channel);
  },
};

export const net = {
  fetch(input, init) {
    const url = typeof input === 'string' ? input : input.url;
    record('net.fetch', { url });
    fake.fetched.push(url);
    return globalThis.fetch(input, init);
  },
};

export const dialog = {
  showSaveDialog: async () => ({ canceled: true, filePath: '' }),
  showErrorBox: (title, content) => record('dialog.showErrorBox', { title, content }),
};

export class Notification {
  static isSupported() {
    return false;
  }
}

export const shell = {
  openExternal: async (url) => record('shell.openExternal', { url }),
};

export const safeStorage = {
  isAsyncEncryptionAvailable: async () => true,
  getSelectedStorageBackend: () => 'basic_text',
  encryptStringAsync: async (plain) => Buffer.from(`enc:${plain}`),
  decryptStringAsync: async (data) => ({
    result: Buffer.from(data).toString().replace(/^enc:/, ''),
    shouldReEncrypt: false,
  }),
};

export default {
  app,
  BrowserWindow: FakeBrowserWindow,
  Menu,
  protocol,
  session,
  ipcMain,
  net,
  dialog,
  Notification,
  shell,
  safeStorage,
};
