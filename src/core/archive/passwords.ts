/**
 * The passwords of team projects, kept like the API key (session/keys/key-store.ts): in main's memory, and on
 * disk only as the OS key store's ciphertext (safeStorage in the app) when a real keyring encrypts it; without
 * one, for this session only. Never in the list of projects, the page, logs or exports: a project's location
 * is its address without a password, and the page only learns whether one is kept.
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { SecretStorage } from '../ports';

export interface PasswordStore {
  get: (project: string) => Promise<string | null>;
  /** kept; says whether it survives a restart (encrypted by a keyring) */
  set: (project: string, password: string) => Promise<'keyring' | 'session'>;
  forget: (project: string) => Promise<void>;
  /** every password known, for redaction */
  secrets: () => string[];
}

/** backends that only obfuscate (Linux `basic_text`) are not a keyring: the password stays in memory */
async function keyring(secrets: SecretStorage): Promise<boolean> {
  try {
    if (!(await secrets.isEncryptionAvailable())) return false;
  } catch {
    return false;
  }
  const backend = secrets.backend();
  return backend !== 'basic_text' && backend !== 'unknown';
}

export function createPasswordStore(secrets: SecretStorage, file: string): PasswordStore {
  const memory = new Map<string, string>();
  let loaded: Promise<Record<string, string>> | null = null;
  /**
   * a file a newer Skein wrote (another version): never written over, so going back to this Skein for a while loses
   * none of the passwords it keeps; the passwords given here are kept for the session instead
   */
  let newer = false;
  const onDisk = (): Promise<Record<string, string>> =>
    (loaded ??= readFile(file, 'utf8')
      .then((text) => {
        const parsed = JSON.parse(text) as { v?: unknown; entries?: unknown } | null;
        if (parsed === null || typeof parsed !== 'object') return {};
        if (parsed.v !== 1) {
          newer = true;
          return {};
        }
        return parsed.entries && typeof parsed.entries === 'object' ? (parsed.entries as Record<string, string>) : {};
      })
      .catch((): Record<string, string> => ({})));
  const save = async (entries: Record<string, string>) => {
    await mkdir(dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    await writeFile(tmp, JSON.stringify({ v: 1, entries }), { mode: 0o600 });
    await rename(tmp, file);
    loaded = Promise.resolve(entries);
  };
  return {
    async get(project) {
      const known = memory.get(project);
      if (known !== undefined) return known;
      const cipher = (await onDisk())[project];
      if (typeof cipher !== 'string') return null;
      try {
        const plain = await secrets.decryptString(Buffer.from(cipher, 'base64'));
        memory.set(project, plain);
        return plain;
      } catch {
        return null; // the OS key store changed: the password is asked again
      }
    },
    async set(project, password) {
      memory.set(project, password);
      const entries = { ...(await onDisk()) };
      if (newer) return 'session';
      if (await keyring(secrets)) {
        entries[project] = Buffer.from(await secrets.encryptString(password)).toString('base64');
        await save(entries);
        return 'keyring';
      }
      if (project in entries) {
        delete entries[project];
        await save(entries);
      }
      return 'session';
    },
    async forget(project) {
      memory.delete(project);
      const entries = { ...(await onDisk()) };
      if (!newer && project in entries) {
        delete entries[project];
        await save(entries);
      }
    },
    secrets: () => [...memory.values()],
  };
}
