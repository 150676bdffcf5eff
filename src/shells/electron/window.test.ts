import { describe, expect, it } from 'vitest';
import {
  appOrigins,
  externalTarget,
  isAllowedNavigation,
  isLoadFailure,
  loadErrorPage,
  permissionDecision,
  windowOptions,
} from './window';

describe('windowOptions', () => {
  it('pins the hardened web preferences', () => {
    const prefs = windowOptions('/app/out/preload/index.cjs').webPreferences;
    expect(prefs?.preload).toBe('/app/out/preload/index.cjs');
    // isolation on; every way for page code to reach node or weaken the web's rules off
    for (const on of ['contextIsolation', 'sandbox', 'webSecurity'] as const) expect(prefs?.[on], on).toBe(true);
    const off = [
      ...['nodeIntegration', 'nodeIntegrationInWorker', 'nodeIntegrationInSubFrames'],
      ...['allowRunningInsecureContent', 'webviewTag', 'experimentalFeatures', 'navigateOnDragDrop'],
    ] as const;
    for (const key of off) expect(prefs?.[key], key).toBe(false);
    expect(prefs?.enableBlinkFeatures).toBe('');
    expect(prefs).not.toHaveProperty('additionalArguments');
    expect(prefs).not.toHaveProperty('partition');
  });

  it('opens hidden until the first paint and keeps a usable minimum size', () => {
    const o = windowOptions('/p.cjs');
    expect(o.show).toBe(false);
    expect(o.minWidth).toBeGreaterThanOrEqual(640);
  });
});

describe('navigation guards', () => {
  const origins = appOrigins();

  it('stays within the app origin', () => {
    expect(isAllowedNavigation('skein://app/index.html', origins)).toBe(true);
    expect(isAllowedNavigation('https://example.com/', origins)).toBe(false);
    expect(isAllowedNavigation('file:///etc/passwd', origins)).toBe(false);
    expect(isAllowedNavigation('skein://other/index.html', origins)).toBe(false);
  });

  it('adds the dev server origin only when one is given', () => {
    expect(appOrigins('http://localhost:5173/')).toEqual(['skein://app', 'http://localhost:5173']);
    expect(isAllowedNavigation('http://localhost:5173/#/x', appOrigins('http://localhost:5173/'))).toBe(true);
    expect(isAllowedNavigation('http://localhost:5173/', origins)).toBe(false);
  });

  it('sends only https links without credentials to the system browser unasked', () => {
    expect(externalTarget('https://example.com/a')).toBe('https://example.com/a');
    for (const url of [
      'http://example.com',
      'https://bank.example:pw@evil.example/',
      'javascript:alert(1)',
      'file:///etc/passwd',
      'skein://app/',
      'mailto:a@b.c',
      'nonsense',
    ]) {
      expect(externalTarget(url)).toBeNull();
    }
  });

  it('denies every permission but writing text to the clipboard from our own top frame', () => {
    const origins = appOrigins();
    const ours = { url: 'skein://app/index.html#/list/1', isMainFrame: true };
    for (const p of ['media', 'geolocation', 'notifications', 'clipboard-read', 'openExternal'])
      expect(permissionDecision(p, ours, origins)).toBe(false);
    expect(permissionDecision('clipboard-sanitized-write', ours, origins)).toBe(true);
    // another origin, a sub-frame or an unknown requester never writes to the clipboard
    expect(
      permissionDecision('clipboard-sanitized-write', { url: 'https://evil.example/', isMainFrame: true }, origins),
    ).toBe(false);
    expect(
      permissionDecision('clipboard-sanitized-write', { url: 'skein://app.evil/', isMainFrame: true }, origins),
    ).toBe(false);
    expect(permissionDecision('clipboard-sanitized-write', { ...ours, isMainFrame: false }, origins)).toBe(false);
    expect(permissionDecision('clipboard-sanitized-write', { url: undefined, isMainFrame: true }, origins)).toBe(false);
    // the dev server is ours only when Skein was started with it
    const dev = { url: 'http://localhost:5173/', isMainFrame: true };
    expect(permissionDecision('clipboard-sanitized-write', dev, origins)).toBe(false);
    expect(permissionDecision('clipboard-sanitized-write', dev, appOrigins('http://localhost:5173'))).toBe(true);
  });
});

describe('a failed first load', () => {
  it('counts only a main-frame failure that is not an abort nor the error page itself', () => {
    expect(isLoadFailure(-6, true, 'skein://app/index.html')).toBe(true);
    expect(isLoadFailure(-3, true, 'skein://app/index.html')).toBe(false);
    expect(isLoadFailure(-6, false, 'skein://app/index.html')).toBe(false);
    expect(isLoadFailure(-6, true, 'data:text/html,x')).toBe(false);
  });

  it('shows what failed as text, with no script', () => {
    const page = decodeURIComponent(
      loadErrorPage('skein://app/index.html', 'ERR_FILE_NOT_FOUND <script>alert(1)</script>').replace(
        /^data:text\/html;charset=utf-8,/,
        '',
      ),
    );
    expect(page).toContain('skein://app/index.html failed: ERR_FILE_NOT_FOUND &lt;script&gt;');
    expect(page).not.toContain('<script');
    expect(page).toContain("default-src 'none'");
  });
});
