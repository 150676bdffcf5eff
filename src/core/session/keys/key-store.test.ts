import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeSecretStorage } from '../../testing/fake-secret-storage';
import { createKeyStore } from './key-store';
import type { SecretBackend } from '../../ports';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function setup(backend: SecretBackend, opts: { available?: boolean; optIn?: boolean; dir?: string } = {}) {
  const dir = opts.dir ?? mkdtempSync(join(tmpdir(), 'skein-keys-'));
  if (!opts.dir) dirs.push(dir);
  let optIn = opts.optIn ?? false;
  const secrets = fakeSecretStorage(backend, opts.available ?? true);
  const store = createKeyStore({ secrets, file: join(dir, 'api-key.json'), persistWithoutKeyring: () => optIn });
  return { dir, store, secrets, setOptIn: (v: boolean) => (optIn = v) };
}

const files = (dir: string) =>
  readdirSync(dir)
    .map((f) => readFileSync(join(dir, f), 'utf8'))
    .join('\n');

describe('key store', () => {
  it('with a real keyring: encrypted on disk, kept across restarts, never in plaintext', async () => {
    const key = 'CANARY-keyring-1234';
    const a = setup('gnome_libsecret');
    expect(await a.store.set(key)).toMatchObject({
      configured: true,
      storage: 'keychain',
      secureStorageAvailable: true,
    });
    expect(files(a.dir)).not.toContain(key);
    expect(statSync(join(a.dir, 'api-key.json')).mode & 0o777).toBe(0o600);
    const b = setup('gnome_libsecret', { dir: a.dir });
    await b.store.load();
    expect(b.store.key()).toBe(key);
    expect((await b.store.status()).storage).toBe('keychain');
  });

  it('on basic_text: session only, and it says so', async () => {
    const a = setup('basic_text');
    const status = await a.store.set('CANARY-basic');
    expect(status).toMatchObject({ configured: true, storage: 'session', secureStorageAvailable: false });
    expect(status.reason).toMatch(/basic_text/);
    expect(readdirSync(a.dir)).toEqual([]);
    const b = setup('basic_text', { dir: a.dir });
    await b.store.load();
    expect(b.store.key()).toBeNull();
  });

  it('on basic_text with the opt-in: on disk, obfuscated, and it says how weak that is', async () => {
    const a = setup('basic_text', { optIn: true });
    const status = await a.store.set('CANARY-optin');
    expect(status.storage).toBe('file');
    expect(status.reason).toMatch(/only obfuscated/);
    expect(files(a.dir)).not.toContain('CANARY-optin');
    a.setOptIn(false);
    expect((await a.store.reconsider()).storage).toBe('session');
    expect(readdirSync(a.dir)).toEqual([]);
    expect(a.store.key()).toBe('CANARY-optin');
  });

  it('without any encryption: memory only', async () => {
    const a = setup('unknown', { available: false, optIn: true });
    expect((await a.store.set('CANARY-none')).storage).toBe('session');
    expect(readdirSync(a.dir)).toEqual([]);
  });

  it('clears the key from memory and disk', async () => {
    const a = setup('keychain');
    await a.store.set('CANARY-clear');
    expect(await a.store.clear()).toMatchObject({ configured: false, storage: 'none' });
    expect(a.store.key()).toBeNull();
    expect(readdirSync(a.dir)).toEqual([]);
    expect(a.store.secrets()).toEqual([]);
  });

  it('tells the user when a stored key cannot be decrypted', async () => {
    const a = setup('keychain');
    await a.store.set('CANARY-rotated');
    const b = setup('keychain', { dir: a.dir });
    b.secrets.rotate();
    await b.store.load();
    expect(b.store.key()).toBeNull();
    expect((await b.store.status()).reason).toMatch(/could not be decrypted/);
  });

  it('neither uses nor binds elsewhere a key a newer Skein kept in a way it cannot read, and says so', async () => {
    const a = setup('keychain');
    await a.store.set('CANARY-newer', 'https://api.example.org');
    const kept = JSON.parse(readFileSync(join(a.dir, 'api-key.json'), 'utf8')) as Record<string, unknown>;
    for (const newer of [
      { ...kept, v: 2 },
      { ...kept, origin: { scheme: 'https', host: 'api.example.org', paths: ['/v2'] } },
    ]) {
      writeFileSync(join(a.dir, 'api-key.json'), JSON.stringify(newer));
      const b = setup('keychain', { dir: a.dir });
      await b.store.load();
      expect(b.store.key()).toBeNull();
      expect(b.store.origin()).toBeNull();
      expect((await b.store.status()).reason).toMatch(/kept by a newer Skein/);
      // left as it was until a key is entered here
      expect(JSON.parse(readFileSync(join(a.dir, 'api-key.json'), 'utf8'))).toEqual(newer);
    }
  });

  it('writes the key again when the OS store asks for a re-encryption (shouldReEncrypt)', async () => {
    const a = setup('keychain');
    await a.store.set('CANARY-reencrypt');
    const before = readFileSync(join(a.dir, 'api-key.json'), 'utf8');
    const secrets = fakeSecretStorage('keychain');
    let encrypted = 0;
    const store = createKeyStore({
      secrets: {
        ...secrets,
        encryptString: async (plain) => {
          encrypted += 1;
          return secrets.encryptString(plain);
        },
        decrypt: async (data) => ({ result: await secrets.decryptString(data), shouldReEncrypt: true }),
      },
      file: join(a.dir, 'api-key.json'),
      persistWithoutKeyring: () => false,
    });
    await store.load();
    expect(store.key()).toBe('CANARY-reencrypt');
    expect(encrypted).toBe(1);
    const after = readFileSync(join(a.dir, 'api-key.json'), 'utf8');
    expect(after).not.toBe(before);
    expect(after).not.toContain('CANARY');
  });
});
