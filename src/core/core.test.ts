import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { DemoExamples } from '../shared/ipc';
import { createCore, lazy, type CoreDeps, type SandboxHandle } from '.';
import { createDispatcher } from './bridge/dispatch';
import { openExternalSafely } from './app/handlers';

const dataDirs: string[] = [];
afterAll(() => dataDirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

const examples: DemoExamples = {
  bigThreadPostId: '1',
  wideThreadPostId: '11',
  muchQuotedPostId: '2',
  mediaPostId: '3',
  profile: { id: '4', userName: 'demo' },
  communityId: '5',
  listId: '6',
  runningSpaceId: '7',
  endedSpaceId: '8',
  scheduledSpaceId: '9',
};

function deps(overrides: Partial<CoreDeps> = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), 'skein-core-'));
  dataDirs.push(dataDir);
  const close = vi.fn(async () => {});
  const startSandbox = vi.fn(async (): Promise<SandboxHandle> => ({
    baseUrl: 'http://127.0.0.1:1',
    port: 1,
    examples,
    close,
  }));
  const openExternal = vi.fn(async () => {});
  const d: CoreDeps = {
    userDataDir: dataDir,
    secretStorage: {
      isEncryptionAvailable: async () => false,
      backend: () => 'basic_text',
      encryptString: async () => new Uint8Array(),
      decryptString: async () => '',
    },
    openExternal,
    app: { name: 'Skein', version: '1.2.3', platform: 'linux' },
    startSandbox,
    chooseSavePath: async () => null,
    emit: () => {},
    ...overrides,
  };
  return { d, startSandbox, openExternal, close };
}

const ctx = { senderId: 1 };

describe('createCore', () => {
  it('reports name, version, platform and demo mode without starting the sandbox', async () => {
    const { d, startSandbox } = deps();
    const core = createCore(d);
    const res = await createDispatcher(core.handlers).dispatch('skein:app.info', undefined, ctx);
    expect(res).toEqual({ ok: true, data: { name: 'Skein', version: '1.2.3', platform: 'linux', mode: 'demo' } });
    expect(startSandbox).not.toHaveBeenCalled();
  });

  it('starts the demo sandbox once, on first need, and closes it on dispose', async () => {
    const { d, startSandbox, close } = deps();
    const core = createCore(d);
    const dispatch = createDispatcher(core.handlers).dispatch;
    const [a, b] = await Promise.all([
      dispatch('skein:demo.examples', undefined, ctx),
      dispatch('skein:demo.examples', undefined, ctx),
    ]);
    expect(a).toEqual({ ok: true, data: examples });
    expect(b).toEqual(a);
    expect(startSandbox).toHaveBeenCalledOnce();
    await core.dispose();
    expect(close).toHaveBeenCalledOnce();
  });

  it('never starts a sandbox when pointed at another server, and has no demo examples', async () => {
    const { d, startSandbox } = deps({ apiBaseUrl: 'http://127.0.0.1:9' });
    const core = createCore(d);
    const dispatch = createDispatcher(core.handlers).dispatch;
    expect(await dispatch('skein:app.info', undefined, ctx)).toMatchObject({ ok: true, data: { mode: 'live' } });
    expect(await dispatch('skein:demo.examples', undefined, ctx)).toEqual({ ok: true, data: null });
    expect(await core.sandbox()).toBeNull();
    expect(startSandbox).not.toHaveBeenCalled();
  });

  it('opens only http(s) links in the system browser', async () => {
    const { d, openExternal } = deps();
    const dispatch = createDispatcher(createCore(d).handlers).dispatch;
    expect(await dispatch('skein:app.openExternal', { url: 'https://example.com/a?b=1' }, ctx)).toEqual({
      ok: true,
      data: { opened: true },
    });
    expect(openExternal).toHaveBeenCalledWith('https://example.com/a?b=1');
    for (const url of ['javascript:alert(1)', 'file:///etc/passwd', 'skein://app/index.html', 'smb://host/share']) {
      expect(await dispatch('skein:app.openExternal', { url }, ctx)).toMatchObject({
        ok: false,
        error: { code: 'bad-input' },
      });
    }
    expect(openExternal).toHaveBeenCalledOnce();
  });
});

describe('openExternalSafely', () => {
  it('refuses anything but http(s) even when called directly', async () => {
    const open = vi.fn(async () => {});
    expect((await openExternalSafely('file:///etc/passwd', open)).opened).toBe(false);
    expect((await openExternalSafely('https://example.com', open)).opened).toBe(true);
    expect(open).toHaveBeenCalledWith('https://example.com/');
  });

  it('opens http only after the user’s yes in main, and never a link with user:password@ (attacks: downgrade, look-alike host)', async () => {
    const open = vi.fn(async () => {});
    const asked: string[] = [];
    const say = (yes: boolean) => async (r: { title: string }) => (asked.push(r.title), yes);
    expect(await openExternalSafely('http://plain.example/', open, say(false))).toMatchObject({
      opened: false,
      refused: expect.stringMatching(/http/),
    });
    expect(await openExternalSafely('http://plain.example/', open)).toMatchObject({ opened: false });
    expect(open).not.toHaveBeenCalled();
    expect(await openExternalSafely('http://plain.example/', open, say(true))).toEqual({ opened: true });
    expect(asked[0]).toContain('plain.example');
    expect(await openExternalSafely('https://bank.example:pw@evil.example/', open, say(true))).toMatchObject({
      opened: false,
    });
    expect(await openExternalSafely('https://user@evil.example/', open, say(true))).toMatchObject({ opened: false });
    expect(open).toHaveBeenCalledOnce();
  });
});

describe('lazy', () => {
  it('retries after a failed start', async () => {
    const start = vi.fn().mockRejectedValueOnce(new Error('port busy')).mockResolvedValueOnce(42);
    const value = lazy(start);
    await expect(value.get()).rejects.toThrow('port busy');
    await expect(value.get()).resolves.toBe(42);
    await expect(value.get()).resolves.toBe(42);
    expect(start).toHaveBeenCalledTimes(2);
  });
});
