/**
 * The program behind the smoke test's fake Electron executable. Started the
 * way electron-vite starts Electron (`<binary> . [args]`, in the app folder),
 * it plays Electron's part around Skein's built code:
 *   1. main: imports the app's `main` entry with `electron` resolved to the
 *      recording fake (fake-electron-module.mjs), then emits `ready`;
 *   2. renderer: evaluates the window's preload as a sandboxed CommonJS
 *      preload with a fake contextBridge/ipcRenderer wired to ipcMain;
 *   3. drives what a user would: calls through `window.skein`, a sub-frame and
 *      a foreign page calling, the app protocol, a menu command, a failed
 *      load, a second launch, and quitting;
 * and writes what it observed (JSON) to $SKEIN_FAKE_ELECTRON_REPORT. The
 * smoke test (shell.smoke.test.ts) makes the assertions.
 */
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { registerHooks } from 'node:module';
import { dirname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import vm from 'node:vm';

const args = process.argv.slice(2);
if (args.includes('--version')) {
  console.log('v45.4.1');
  process.exit(0);
}

const platform = process.env.SKEIN_FAKE_ELECTRON_PLATFORM || process.platform;
Object.defineProperty(process, 'platform', { value: platform });
const reportFile = process.env.SKEIN_FAKE_ELECTRON_REPORT;
const moduleUrl = new URL('./fake-electron-module.mjs', import.meta.url).href;
registerHooks({
  resolve(specifier, context, next) {
    if (specifier === 'electron') return { url: moduleUrl, shortCircuit: true };
    return next(specifier, context);
  },
});
const electron = await import(moduleUrl);
const { fake } = electron;

const appDir = resolve(args.find((a) => !a.startsWith('-')) ?? '.');
fake.appDir = appDir;
fake.packaged = process.env.SKEIN_FAKE_ELECTRON_PACKAGED === '1';

const report = { platform, packaged: fake.packaged, argv: args, appDir, errors: [], steps: [] };
let written = false;
function finish(code) {
  if (!written) {
    written = true;
    report.log = fake.log;
    if (reportFile) writeFileSync(reportFile, JSON.stringify(report, null, 2));
  }
  process.exit(code);
}
const fail = (error) => {
  report.errors.push(error instanceof Error ? `${error.message}\n${error.stack}` : String(error));
  finish(1);
};
process.on('uncaughtException', fail);
process.on('unhandledRejection', fail);
setTimeout(() => fail(new Error('the fake Electron gave up after 60 s')), 60_000).unref();

const waitFor = (predicate, what, ms = 20_000) =>
  new Promise((done, reject) => {
    const start = Date.now();
    const poll = () => {
      const value = predicate();
      if (value) return done(value);
      if (Date.now() - start > ms) return reject(new Error(`timed out waiting for ${what}`));
      setTimeout(poll, 10);
    };
    poll();
  });

// --- 1. main
const pkg = JSON.parse(readFileSync(resolve(appDir, 'package.json'), 'utf8'));
report.entry = resolve(appDir, pkg.main);
await import(pathToFileURL(report.entry).href);
report.steps.push('main loaded');
electron.emitReady();
const win = await waitFor(
  () => electron.BrowserWindow.getAllWindows()[0]?.loads.length && electron.BrowserWindow.getAllWindows()[0],
  'the window to load',
);
report.appName = electron.app.getName();
report.userData = electron.app.getPath('userData');
report.window = { options: win.options, url: win.loads[0] };

// --- 2. the renderer's preload
const preloadPath = win.options.webPreferences?.preload;
report.preload = {
  path: preloadPath,
  exists: !!preloadPath && existsSync(preloadPath),
  commonjs: false,
  requires: [],
  exposed: [],
};
const mainFrame = { url: win.loads[0], parent: null };
const exposed = {};
const listeners = new Map();
const invokeFrom = async (frame, channel, input) => {
  const handler = fake.handlers.get(channel);
  if (!handler)
    throw new Error(`Error invoking remote method '${channel}': Error: No handler registered for '${channel}'`);
  return structuredClone(
    await handler({ senderFrame: frame, sender: win.webContents, frameId: 1, processId: 1 }, structuredClone(input)),
  );
};
win.webContents.deliver = (channel, payload) => {
  for (const listener of listeners.get(channel) ?? []) listener({ sender: null }, payload);
};
const ipcRenderer = {
  invoke: (channel, input) => invokeFrom(mainFrame, channel, input),
  on(channel, listener) {
    (listeners.get(channel) ?? listeners.set(channel, new Set()).get(channel)).add(listener);
    return ipcRenderer;
  },
  removeListener(channel, listener) {
    listeners.get(channel)?.delete(listener);
    return ipcRenderer;
  },
};
const contextBridge = {
  exposeInMainWorld(key, api) {
    report.preload.exposed.push(key);
    exposed[key] = api;
  },
};
if (report.preload.exists) {
  const source = readFileSync(preloadPath, 'utf8');
  try {
    // a sandboxed preload is a CommonJS script; `import` in it is a syntax error
    const wrapper = vm.runInThisContext(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
      filename: preloadPath,
    });
    report.preload.commonjs = true;
    const module = { exports: {} };
    const require = (id) => {
      report.preload.requires.push(id);
      if (id === 'electron') return { contextBridge, ipcRenderer };
      throw new Error(`module not found: ${id} (a sandboxed preload only gets electron)`);
    };
    wrapper.call(module.exports, module.exports, require, module, preloadPath, dirname(preloadPath));
  } catch (error) {
    report.preload.error = String(error);
  }
}
const skein = exposed.skein;
report.bridge = skein
  ? Object.entries(skein).flatMap(([ns, fns]) =>
      Object.entries(fns)
        .filter(([, f]) => typeof f === 'function')
        .map(([name]) => `${ns}.${name}`),
    )
  : [];
report.handled = [...fake.handlers.keys()];

// --- 3. what a user does
if (skein) {
  report.info = await skein.app.info();
  const menuSeen = [];
  skein.events.on('menu', (command) => menuSeen.push(command));
  report.calls = {
    subFrame: await invokeFrom({ url: mainFrame.url, parent: mainFrame }, 'skein:app.info', undefined),
    otherOrigin: await invokeFrom({ url: 'https://evil.example/', parent: null }, 'skein:app.info', undefined),
  };
  // the menu: every item with a click handler is a Skein command for the renderer
  const clicked = [];
  const walk = (items) => {
    for (const item of items ?? []) {
      if (typeof item.click === 'function') {
        clicked.push(item.label);
        item.click();
      }
      walk(Array.isArray(item.submenu) ? item.submenu : []);
    }
  };
  walk(fake.menuTemplate);
  report.menu = { clicked, received: menuSeen, labels: (fake.menuTemplate ?? []).map((m) => m.label ?? m.role) };
  // a demo call: starts the sandbox, and main's request goes out through net.fetch
  report.demoCall = await skein.api.call({ operation: 'trends', params: { woeid: 1, count: 30 } });
  report.fetched = [...fake.fetched];
}

// the app protocol, asked as Chromium would
const serve = fake.protocolHandlers.get('skein');
report.protocol = [];
if (serve) {
  const ask = async (url, method = 'GET') => {
    const res = await serve(new Request(url, { method }));
    const body = res.body ? Buffer.from(await res.arrayBuffer()).toString('utf8') : '';
    const entry = {
      url,
      method,
      status: res.status,
      contentType: res.headers.get('content-type'),
      csp: res.headers.get('content-security-policy'),
      body: body.slice(0, 4000),
    };
    report.protocol.push(entry);
    return entry;
  };
  const index = await ask('skein://app/');
  const script = /<script[^>]+src="\.?\/?([^"]+)"/.exec(index.body)?.[1];
  const style = /<link[^>]+rel="stylesheet"[^>]+href="\.?\/?([^"]+)"/.exec(index.body)?.[1];
  if (script) await ask(`skein://app/${script}`);
  if (style) await ask(`skein://app/${style}`);
  await ask('skein://app/..%2f..%2fpackage.json');
  await ask('skein://app/%2e%2e/%2e%2e/package.json');
  await ask('skein://app/..%5c..%5cpackage.json');
  await ask('skein://evil/index.html');
  await ask('skein://app/index.html', 'POST');
}
// as Electron asks: the permission, then the requesting frame's details
const askPermission = (permission, requestingUrl) =>
  new Promise((done) =>
    fake.permissionRequest
      ? fake.permissionRequest(win.webContents, permission, done, { requestingUrl, isMainFrame: true })
      : done('no handler'),
  );
report.permission = await askPermission('media', win.loads[0]);
report.clipboardWrite = {
  own: await askPermission('clipboard-sanitized-write', win.loads[0]),
  other: await askPermission('clipboard-sanitized-write', 'https://evil.example/'),
  read: await askPermission('clipboard-read', win.loads[0]),
};

// a failed load: the window must show, with an error page
win.webContents.emit('did-fail-load', {}, -6, 'ERR_FILE_NOT_FOUND', win.loads[0], true);
await waitFor(() => win.loads.length > 1, 'the error page', 2_000).catch(() => undefined);
report.failedLoad = { shown: win.shown, loads: win.loads.slice(1).map((u) => u.slice(0, 40)) };

// a second launch while no window is open
const before = electron.BrowserWindow.getAllWindows().length;
win.close();
electron.app.emit('second-instance', {}, [], appDir);
report.secondInstance = { windowsBefore: before, windowsAfter: electron.BrowserWindow.getAllWindows().length };

// quitting: every window closes; on macOS the app stays until Cmd+Q
const sandboxOrigin = report.fetched?.[0] ? new URL(report.fetched[0]).origin : null;
const quit = new Promise((done) => (fake.onQuit = done));
for (const w of electron.BrowserWindow.getAllWindows()) w.close();
electron.app.emit('window-all-closed', {});
report.quitOnAllClosed = fake.log.some((e) => e.what === 'app.quit');
if (!report.quitOnAllClosed) {
  // macOS: the app stays without a window; a click on its dock icon opens one, Cmd+Q quits
  electron.app.emit('activate', {}, false);
  report.activate = { windowsAfter: electron.BrowserWindow.getAllWindows().length };
  electron.app.quit();
}
await quit;
report.quit = { willQuit: fake.log.filter((e) => e.what === 'will-quit') };
if (sandboxOrigin) {
  report.sandboxAfterQuit = await fetch(`${sandboxOrigin}/__sandbox/usage`).then(
    (res) => `answered ${res.status}`,
    () => 'closed',
  );
}
finish(0);
