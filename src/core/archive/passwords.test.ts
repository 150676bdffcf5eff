import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeSecretStorage } from '../testing/fake-secret-storage';
import { createPasswordStore } from './passwords';

const dirs: string[] = [];
const fileIn = () => {
  const dir = mkdtempSync(join(tmpdir(), 'skein-passwords-'));
  dirs.push(dir);
  return join(dir, 'project-passwords.json');
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('team projects’ passwords', () => {
  it('survive a restart as the keyring’s ciphertext, never as text', async () => {
    const file = fileIn();
    const secrets = fakeSecretStorage('gnome_libsecret');
    expect(await createPasswordStore(secrets, file).set('team-1', 'pw-canary-31')).toBe('keyring');
    expect(readFileSync(file, 'utf8')).not.toContain('pw-canary-31');
    expect(await createPasswordStore(secrets, file).get('team-1')).toBe('pw-canary-31');
  });

  it('leave a newer Skein’s file as it was: a password given here is kept for the session', async () => {
    const file = fileIn();
    const newer = JSON.stringify({ v: 2, entries: { 'team-1': { cipher: 'AAAA', scheme: 'v2' } } });
    writeFileSync(file, newer);
    const store = createPasswordStore(fakeSecretStorage('gnome_libsecret'), file);
    expect(await store.set('team-2', 'pw-canary-32')).toBe('session');
    expect(await store.get('team-2')).toBe('pw-canary-32');
    await store.forget('team-1');
    expect(readFileSync(file, 'utf8')).toBe(newer);
  });
});
