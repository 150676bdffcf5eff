/**
 * The Electron shell, end to end, without the real Electron: `npm start` in a
 * copy of the project whose `electron` package downloads a fake distribution
 * from a local mirror. So the real start path runs: scripts/start.mjs →
 * Electron's own installer → electron-vite (build, then launch) → the fake
 * binary, which runs the built main process and preload against a recording
 * `electron` (fake-electron.mjs) and reports what it saw. Run as Linux, macOS
 * and Windows, unpackaged and packaged.
 *
 * The copy keeps the fake out of this checkout's node_modules/electron, so
 * neither `npm start` nor the Playwright `electron` project ever meets it.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { channelName, contract, contractEntries, MenuCommand } from '../../src/shared/ipc';
import { APP_ID } from '../../src/shells/electron/app-id';
import { CONTENT_SECURITY_POLICY, metaContentSecurityPolicy } from '../../src/core/protocol/assets';
import { brokenDistribution, fakeDistribution, startMirror, type Mirror } from './distribution';
import {
  VERSION,
  PROGRAM,
  PLATFORMS,
  type Run,
  makeProject,
  npmStart,
  type Fallback,
  npmStartFallback,
  type LogEntry,
  type Report,
} from './start-runs';

let project: string;
let mirror: Mirror;
let offline: Run;
let fallback: Fallback;
let cannotRun: Run;
const runs = new Map<string, { run: Run; report: Report | null }>();
const key = (platform: string, packaged: boolean) => `${platform}${packaged ? ' packaged' : ''}`;

beforeAll(async () => {
  project = mkdtempSync(join(tmpdir(), 'skein-shell-smoke-'));
  makeProject(project);
  const files: Record<string, Buffer> = {};
  for (const platform of PLATFORMS)
    files[`electron-v${VERSION}-${platform}-x64.zip`] = fakeDistribution(platform, VERSION, process.execPath, PROGRAM);
  files[`electron-v${VERSION}-linux-arm64.zip`] = brokenDistribution('linux');
  mirror = await startMirror(VERSION, files);
  // a desktop session (on Linux, start.mjs falls back to the browser shell without a display)
  const base = {
    ELECTRON_MIRROR: mirror.url,
    electron_use_remote_checksums: '1',
    electron_config_cache: join(project, '.electron-cache'),
    ELECTRON_INSTALL_ARCH: 'x64',
    DISPLAY: ':99',
  };

  // no binary can be downloaded: one sentence, no stack trace, non-zero (when told not to fall back)
  offline = await npmStart(
    project,
    { ...base, ELECTRON_MIRROR: `${mirror.url}nowhere/`, ELECTRON_INSTALL_PLATFORM: 'linux' },
    ['--no-web-fallback'],
  );
  // a binary that downloads but cannot run on this system (a missing library)
  cannotRun = await npmStart(project, { ...base, ELECTRON_INSTALL_PLATFORM: 'linux', ELECTRON_INSTALL_ARCH: 'arm64' }, [
    '--no-web-fallback',
  ]);

  let built = false;
  for (const platform of PLATFORMS) {
    for (const packaged of [false, true]) {
      const reportFile = join(project, `report-${platform}-${packaged ? 'packaged' : 'dev'}.json`);
      const env: Record<string, string> = {
        ...base,
        ELECTRON_INSTALL_PLATFORM: platform,
        SKEIN_FAKE_ELECTRON_REPORT: reportFile,
        SKEIN_FAKE_ELECTRON_PACKAGED: packaged ? '1' : '0',
        // relative, as a user might type it: main must resolve it before Electron's setPath
        SKEIN_USER_DATA_DIR: `user-data-${platform}-${packaged ? 'packaged' : 'dev'}`,
        // a packaged app never loads a dev server, whatever the environment says
        ...(packaged ? { ELECTRON_RENDERER_URL: 'http://127.0.0.1:9/' } : {}),
      };
      // the first run builds as `npm start` does; the others reuse that build
      const run = await npmStart(project, env, built ? ['--skipBuild'] : []);
      built = true;
      runs.set(key(platform, packaged), {
        run,
        report: existsSync(reportFile) ? (JSON.parse(readFileSync(reportFile, 'utf8')) as Report) : null,
      });
    }
  }

  // no display and no download: npm start says why, then serves Skein to the browser instead
  fallback = await npmStartFallback(project, {
    ...base,
    ELECTRON_MIRROR: `${mirror.url}nowhere/`,
    ELECTRON_INSTALL_PLATFORM: 'linux',
    DISPLAY: '',
  });
}, 300_000);

afterAll(async () => {
  await mirror?.close();
  if (project) rmSync(project, { recursive: true, force: true });
});

const contractChannels = contractEntries(contract)
  .map(([ns, name]) => channelName(ns, name))
  .sort();

describe('npm start without a reachable Electron download', () => {
  it('says what failed and what to do in one sentence, without a stack trace', () => {
    expect(offline.code).not.toBe(0);
    const lines = offline.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^Skein cannot open its window: downloading Electron's binary from 127\.0\.0\.1:\d+ failed \(.+\); check your network .+\.$/,
    );
    expect(offline.stderr).not.toMatch(/\n\s+at /);
  });
});

describe('npm start where Electron cannot open a window', () => {
  it('says why in one sentence, then prints a URL that shows Skein in demo mode', () => {
    expect(fallback.error, fallback.stderr).toBeUndefined();
    const lines = fallback.stderr.trim().split('\n');
    // no download (a binary of another platform may be cached from the runs above) or no display: either says why
    expect(lines[0]).toMatch(
      /^Skein cannot open its window: (downloading Electron's binary from 127\.0\.0\.1:\d+ failed \(.+\)|there is no display to open it on \(.+\)).*\.$/,
    );
    expect(lines[1]).toMatch(/^Starting Skein in your browser instead/);
    expect(fallback.stderr).not.toMatch(/\n\s+at /);
    expect(fallback.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/__skein\/auth\?secret=/);
    expect(fallback.index).toMatchObject({ status: 200 });
    expect(fallback.index?.body).toContain('<div id="root">');
    expect(fallback.info).toMatchObject({ ok: true, data: { name: 'Skein', mode: 'demo' } });
  });
});

describe('npm start with a binary that cannot run here', () => {
  it('says so in one sentence, naming what the binary reported', () => {
    expect(cannotRun.code).not.toBe(0);
    expect(mirror.requests).toContain(`/v${VERSION}/electron-v${VERSION}-linux-arm64.zip`);
    const lines = cannotRun.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^Skein cannot open its window: Electron's binary cannot run on this system \(.*libnss3\.so.*\); .+\.$/,
    );
  });
});

describe.each(PLATFORMS.flatMap((platform) => [false, true].map((packaged) => ({ platform, packaged }))))(
  'npm start as $platform (packaged: $packaged)',
  ({ platform, packaged }) => {
    const get = () => {
      const entry = runs.get(key(platform, packaged));
      if (!entry?.report) throw new Error(`no report; npm start said:\n${entry?.run.stdout}\n${entry?.run.stderr}`);
      return entry.report;
    };
    const indexOf = (log: LogEntry[], what: string) => log.findIndex((e) => e.what === what);

    it('installs the fake distribution from the mirror and runs the app through electron-vite, cleanly', () => {
      const entry = runs.get(key(platform, packaged));
      expect(entry?.run.code, `${entry?.run.stdout}\n${entry?.run.stderr}`).toBe(0);
      expect(mirror.requests).toContain(`/v${VERSION}/electron-v${VERSION}-${platform}-x64.zip`);
      const report = get();
      expect(report.errors).toEqual([]);
      expect(report.platform).toBe(platform);
      expect(report.packaged).toBe(packaged);
      // the app folder is launched, so the app is named from its package.json
      expect(report.appName).toBe('Skein');
    });

    it('registers the scheme before ready; protocol, permissions, IPC and menu after ready and before the window loads', () => {
      const { log } = get();
      const scheme = log.find((e) => e.what === 'protocol.registerSchemesAsPrivileged');
      expect(scheme?.ready).toBe(false);
      expect(scheme?.schemes).toEqual([
        expect.objectContaining({
          scheme: 'skein',
          privileges: expect.objectContaining({ standard: true, secure: true }),
        }),
      ]);
      const load = indexOf(log, 'BrowserWindow.loadURL');
      expect(load).toBeGreaterThan(indexOf(log, 'ready'));
      for (const what of [
        'session.protocol.handle',
        'session.setPermissionRequestHandler',
        'session.setPermissionCheckHandler',
        'ipcMain.handle',
        'Menu.setApplicationMenu',
      ]) {
        const at = indexOf(log, what);
        expect(at, what).toBeGreaterThan(-1);
        expect(log[at]?.ready, what).toBe(true);
        expect(at, `${what} before the window loads`).toBeLessThan(load);
      }
      expect(log.filter((e) => e.what === 'ipcMain.handle').every((e) => e.ready && log.indexOf(e) < load)).toBe(true);
    });

    it('resolves a relative SKEIN_USER_DATA_DIR; sets the AppUserModelId on Windows only', () => {
      const report = get();
      expect(report.userData).toBe(join(project, `user-data-${platform}-${packaged ? 'packaged' : 'dev'}`));
      const ids = report.log.filter((e) => e.what === 'app.setAppUserModelId').map((e) => e.id);
      expect(ids).toEqual(platform === 'win32' ? [APP_ID] : []);
    });

    it('opens the hardened window on skein://app with a CommonJS preload that exposes window.skein only', () => {
      const report = get();
      expect(report.window.url).toBe('skein://app/index.html');
      expect(report.window.options.webPreferences).toMatchObject({
        contextIsolation: true,
        sandbox: true,
        nodeIntegration: false,
        webSecurity: true,
        webviewTag: false,
      });
      expect(report.preload.path).toMatch(/[\\/]out[\\/]preload[\\/]index\.cjs$/);
      expect(report.preload.exists).toBe(true);
      expect(report.preload.error).toBeUndefined();
      expect(report.preload.commonjs).toBe(true);
      expect([...new Set(report.preload.requires)]).toEqual(['electron']);
      expect(report.preload.exposed).toEqual(['skein']);
      expect(report.permission).toBe(false);
      // the one permission granted: writing text to the clipboard, from Skein's own page only
      expect(report.clipboardWrite).toEqual({ own: true, other: false, read: false });
    });

    it('handles exactly the contract’s channels, and the preload bridges exactly those', () => {
      const report = get();
      expect([...report.handled].sort()).toEqual(contractChannels);
      const bridged = report.bridge
        .filter((f) => f !== 'events.on')
        .map((f) => channelName(...(f.split('.') as [string, string])));
      expect(bridged.sort()).toEqual(contractChannels);
      expect(report.bridge).toContain('events.on');
      expect(report.info).toMatchObject({ ok: true, data: { name: 'Skein', platform } });
    });

    it('refuses a call from a sub-frame or another origin', () => {
      const { calls } = get();
      expect(calls.subFrame).toMatchObject({ ok: false, error: { code: 'forbidden' } });
      expect(calls.otherOrigin).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    });

    it('delivers menu commands to the renderer', () => {
      const { menu } = get();
      expect(menu.clicked.length).toBeGreaterThan(3);
      expect(menu.received).toHaveLength(menu.clicked.length);
      for (const command of menu.received) expect(MenuCommand.options).toContain(command);
    });

    it('serves skein://app/ with the CSP (header and <meta>) and the right types; refuses traversal, other hosts and non-GET', () => {
      const [index, ...rest] = get().protocol;
      expect(index).toMatchObject({ status: 200, contentType: 'text/html; charset=utf-8' });
      // the header names the demo sandbox's exact origin for images and media, never any other local port
      expect(index?.csp?.replace(/ http:\/\/127\.0\.0\.1:\d+/g, '')).toBe(CONTENT_SECURITY_POLICY);
      expect(index?.body).toContain('<div id="root">');
      const meta = /<meta http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(index?.body ?? '')?.[1];
      expect(meta?.replaceAll('&#39;', "'")).toBe(metaContentSecurityPolicy());
      const byType = (pattern: RegExp) => rest.find((r) => pattern.test(r.url));
      expect(byType(/\.js$/)).toMatchObject({ status: 200, contentType: 'text/javascript; charset=utf-8' });
      expect(byType(/\.css$/)).toMatchObject({ status: 200, contentType: 'text/css; charset=utf-8' });
      const refused = rest.filter((r) => /%2f|%2e|%5c|evil/i.test(r.url) || r.method !== 'GET');
      expect(refused).toHaveLength(5);
      for (const answer of refused) {
        expect(answer.status, answer.url).toBe(404);
        expect(answer.body).not.toContain('"name": "skein"');
      }
    });

    it('sends main’s requests through net.fetch; a failed load shows the window with an error', () => {
      const report = get();
      expect(report.demoCall).toMatchObject({ ok: true });
      expect(report.fetched.some((u) => u.startsWith('http://127.0.0.1:'))).toBe(true);
      // the demo sandbox ran in its worker thread (built out/main/sandbox-worker.js), not on main's
      expect(runs.get(key(platform, packaged))?.run.stderr).not.toMatch(/sandbox worker could not start/);
      expect(report.failedLoad.shown).toBe(true);
      expect(report.failedLoad.loads[0]).toMatch(/^data:text\/html/);
    });

    it('opens a window on a second launch while none is open, and (macOS) on activate', () => {
      const report = get();
      expect(report.secondInstance).toEqual({ windowsBefore: 1, windowsAfter: 1 });
      if (platform === 'darwin') expect(report.activate).toEqual({ windowsAfter: 1 });
    });

    it('quits when the last window closes (not on macOS), after the core is disposed', () => {
      const report = get();
      expect(report.quitOnAllClosed).toBe(platform !== 'darwin');
      // main holds the quit until the core's dispose is done, then quits again
      expect(report.quit.willQuit.map((q) => q.prevented)).toEqual([true, false]);
      expect(report.sandboxAfterQuit).toBe('closed');
    });
  },
);
