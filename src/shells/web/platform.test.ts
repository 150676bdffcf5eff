import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createKeyStore } from '../../core/session/keys/key-store';
import { parseWebShellArgs } from './cli';
import {
  canOpenBrowser,
  defaultUserDataDir,
  exportsFolderSaver,
  freePath,
  safeFileName,
  shellSecretStorage,
  terminalConfirm,
} from './platform';
import { isLoopback, readCookie, secretsEqual } from './security';
import { PassThrough } from 'node:stream';

const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'skein-shell-platform-'));
  dirs.push(dir);
  return dir;
};

describe('the save "dialog" of the browser shell', () => {
  it('writes only inside the exports folder, whatever name it is handed', async () => {
    const dir = tempDir();
    const choose = exportsFolderSaver(join(dir, 'exports'));
    for (const hostile of [
      '../../.bashrc',
      '/etc/passwd',
      'C:\\Windows\\evil.csv',
      '..',
      '.hidden.csv',
      'a\u0000b.csv',
      '',
    ]) {
      const path = await choose({ defaultPath: hostile });
      expect(path?.startsWith(join(dir, 'exports') + '/')).toBe(true);
      // eslint-disable-next-line no-control-regex
      expect(path?.slice(join(dir, 'exports').length + 1)).not.toMatch(/[/\\\u0000]|^\./);
    }
  });

  it('never overwrites an earlier export', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'thread.csv'), '');
    writeFileSync(join(dir, 'thread (2).csv'), '');
    expect(freePath(dir, 'thread.csv')).toBe(join(dir, 'thread (3).csv'));
    expect(freePath(dir, 'new.json')).toBe(join(dir, 'new.json'));
    expect(safeFileName('my <view>?.csv')).toBe('my _view__.csv');
  });
});

describe('the key in the browser shell', () => {
  it('stays in memory unless the user opts into a file only they can read', async () => {
    const dir = tempDir();
    let optedIn = false;
    const keys = createKeyStore({
      secrets: shellSecretStorage(),
      file: join(dir, 'api-key.json'),
      persistWithoutKeyring: () => optedIn,
    });
    expect(await keys.set('sk-live-1234567890')).toMatchObject({ configured: true, storage: 'session' });
    expect(() => statSync(join(dir, 'api-key.json'))).toThrow();
    optedIn = true;
    expect(await keys.reconsider()).toMatchObject({ storage: 'file' });
    expect(statSync(join(dir, 'api-key.json')).mode & 0o777).toBe(0o600);
    const again = createKeyStore({
      secrets: shellSecretStorage(),
      file: join(dir, 'api-key.json'),
      persistWithoutKeyring: () => true,
    });
    await again.load();
    expect(again.key()).toBe('sk-live-1234567890');
  });

  it('does not mistake a key file of the desktop app for its own', async () => {
    await expect(shellSecretStorage().decryptString(new Uint8Array([1, 2, 3]))).rejects.toThrow();
  });
});

describe('where the shell keeps things and what it can open', () => {
  it('keeps its settings beside the desktop app, not in them', () => {
    expect(defaultUserDataDir('linux', { XDG_CONFIG_HOME: '/x' }, '/home/u')).toBe('/x/Skein/web-shell');
    expect(defaultUserDataDir('darwin', {}, '/Users/u')).toBe('/Users/u/Library/Application Support/Skein/web-shell');
  });

  it('opens no browser on a Linux box without a display', () => {
    expect(canOpenBrowser('linux', {})).toBe(false);
    expect(canOpenBrowser('linux', { DISPLAY: ':0' })).toBe(true);
  });
});

describe('the command line', () => {
  it('defaults to loopback, any free port, and opening the browser', () => {
    expect(parseWebShellArgs([])).toMatchObject({ host: '127.0.0.1', port: 0, open: true, hostGiven: false });
    expect(parseWebShellArgs(['--web', '--port', '8123', '--no-open'])).toMatchObject({ port: 8123, open: false });
    expect(parseWebShellArgs(['--host', '10.0.0.5'])).toMatchObject({ host: '10.0.0.5', hostGiven: true });
    expect(parseWebShellArgs(['--port', 'http'])).toMatchObject({ error: expect.stringMatching(/--port/) });
    expect(parseWebShellArgs(['--bogus'])).toHaveProperty('error');
  });
});

describe('the gate helpers', () => {
  it('compares secrets whole, and reads only the named cookie', () => {
    expect(secretsEqual('abc', 'abc')).toBe(true);
    expect(secretsEqual('abd', 'abc')).toBe(false);
    expect(secretsEqual('ab', 'abc')).toBe(false);
    expect(secretsEqual('', '')).toBe(false);
    expect(secretsEqual(null, 'abc')).toBe(false);
    expect(readCookie('a=1; skein-shell-5=s3; b=2', 'skein-shell-5')).toBe('s3');
    expect(readCookie('xskein-shell-5=s3', 'skein-shell-5')).toBeNull();
    expect(['127.0.0.1', '127.1.2.3', '::1', 'localhost'].every(isLoopback)).toBe(true);
    expect(['10.0.0.1', '0.0.0.0', '::', 'localhost.evil.example', '127.0.0.1.nip.io'].some(isLoopback)).toBe(false);
  });
});

describe('terminalConfirm: the question the page cannot answer', () => {
  const request = {
    title: 'Send your API key to https://b.example?',
    detail: 'It was entered for https://a.example.',
    confirmLabel: 'Send it',
  };
  const terminal = (typed: string[], tty = true) => {
    const input = Object.assign(new PassThrough(), { isTTY: tty });
    const output = new PassThrough();
    let shown = '';
    output.on('data', (d: Buffer) => {
      shown += d.toString();
      // answer each prompt as a person would, one line at a time
      if (shown.trimEnd().endsWith('to cancel:') && typed.length) input.write(`${typed.shift()}\n`);
    });
    return { input, output, shown: () => shown };
  };

  it('says yes only when yes is typed in the terminal, one question at a time', async () => {
    const t = terminal(['yes', 'no', 'y']);
    const confirm = terminalConfirm(t.input, t.output);
    expect(await Promise.all([confirm(request), confirm(request), confirm(request)])).toEqual([true, false, true]);
    expect(t.shown()).toContain('Send your API key to https://b.example?');
    expect(t.shown()).toContain('Send it? Type yes to confirm');
  });

  it('refuses without a terminal (no one can be asked)', async () => {
    const t = terminal(['yes'], false);
    expect(await terminalConfirm(t.input, t.output)(request)).toBe(false);
    expect(t.shown()).toBe('');
  });
});
