/**
 * Custody of the API key. The key lives in main's memory; on disk only as
 * safeStorage ciphertext, and only when the OS offers a real keyring, or
 * when the user explicitly accepted the weaker Linux `basic_text` storage.
 * It never reaches the renderer (which learns `CredentialsStatus` only), the
 * settings file, logs or exports.
 *
 * A key is bound to the origin (scheme, host, port) it was entered for, kept
 * with its ciphertext: main sends it to that origin only (client-services).
 */
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { CredentialsStatus } from '../../../shared/ipc/settings';
import { backendName, isRealKeyring } from './secret-storage';
import { type SecretStorage } from '../../ports';

export interface KeyStoreOptions {
  secrets: SecretStorage;
  /** where the ciphertext lives */
  file: string;
  /** the user accepted keeping the key on disk without a keyring */
  persistWithoutKeyring: () => boolean;
}

export interface KeyStore {
  /** read a stored key, if any (call once at start) */
  load: () => Promise<void>;
  /** the key for requests; never send it anywhere but the API */
  key: () => string | null;
  /** the origin the key was entered for (null: a key stored before keys were bound) */
  origin: () => string | null;
  status: () => Promise<CredentialsStatus>;
  set: (key: string, origin?: string | null) => Promise<CredentialsStatus>;
  /** the user confirmed the key for another origin (in main's dialog) */
  rebind: (origin: string) => Promise<void>;
  clear: () => Promise<CredentialsStatus>;
  /** the persist-without-keyring choice changed: store or remove the file accordingly */
  reconsider: () => Promise<CredentialsStatus>;
  /** the secrets loggers and error messages must never show */
  secrets: () => string[];
}

type Where = 'keychain' | 'file' | 'session';

export function createKeyStore(opts: KeyStoreOptions): KeyStore {
  let current: string | null = null;
  let boundTo: string | null = null;
  let where: Where | null = null;
  let loadProblem: string | null = null;

  async function protection(): Promise<{ available: boolean; keyring: boolean; name: string }> {
    let available: boolean;
    try {
      available = await opts.secrets.isEncryptionAvailable();
    } catch {
      available = false;
    }
    const backend = opts.secrets.backend();
    return { available, keyring: available && isRealKeyring(backend), name: backendName(backend) };
  }

  async function placeFor(): Promise<Where> {
    const p = await protection();
    if (p.keyring) return 'keychain';
    if (p.available && opts.persistWithoutKeyring()) return 'file';
    return 'session';
  }

  async function writeCipher(key: string): Promise<void> {
    const cipher = await opts.secrets.encryptString(key);
    await mkdir(dirname(opts.file), { recursive: true });
    const tmp = `${opts.file}.${process.pid}.tmp`;
    await writeFile(tmp, JSON.stringify({ v: 1, cipher: Buffer.from(cipher).toString('base64'), origin: boundTo }), {
      mode: 0o600,
    });
    await rename(tmp, opts.file);
  }

  async function removeFile(): Promise<void> {
    await rm(opts.file, { force: true });
  }

  async function status(): Promise<CredentialsStatus> {
    const p = await protection();
    const secureStorageAvailable = p.keyring;
    if (current === null || where === null) {
      return {
        configured: false,
        storage: 'none',
        reason:
          loadProblem ??
          (secureStorageAvailable
            ? `No key set. A key you enter is encrypted with ${p.name}.`
            : noKeyringReason(p.available, opts.persistWithoutKeyring())),
        secureStorageAvailable,
      };
    }
    const reason =
      where === 'keychain'
        ? `Encrypted with ${p.name} and kept across restarts.`
        : where === 'file'
          ? 'Kept on disk across restarts as you chose, but only obfuscated: this system offers no keyring (basic_text), so anyone who can read your files can recover it.'
          : p.available && !p.keyring
            ? 'Kept in memory until Skein quits: this system offers no keyring (basic_text). Enable “keep the key without a keyring” in Settings to store it anyway.'
            : p.available
              ? 'Kept in memory for this session only.'
              : 'Kept in memory until Skein quits: the OS offers no encryption for secrets here.';
    return { configured: true, storage: where, reason, secureStorageAvailable };
  }

  return {
    async load() {
      let text: string;
      let reEncrypt = false;
      try {
        text = await readFile(opts.file, 'utf8');
      } catch {
        return;
      }
      let parsed: { v?: unknown; cipher?: unknown; origin?: unknown };
      try {
        parsed = JSON.parse(text) as typeof parsed;
      } catch {
        parsed = {};
      }
      // a key a newer Skein kept (another version, or bound in a way this one cannot read) is neither used nor
      // bound here to another address: it stays as it is until a key is entered here
      const origin = parsed.origin;
      if (
        (parsed.v !== undefined && parsed.v !== 1) ||
        (origin !== undefined && origin !== null && typeof origin !== 'string')
      ) {
        loadProblem =
          'The stored key was kept by a newer Skein in a way this one cannot read. Enter it again to use it here (that replaces the stored one).';
        return;
      }
      try {
        if (typeof parsed.cipher !== 'string') throw new Error('no cipher');
        const cipher = Buffer.from(parsed.cipher, 'base64');
        const decrypted = opts.secrets.decrypt
          ? await opts.secrets.decrypt(cipher)
          : { result: await opts.secrets.decryptString(cipher), shouldReEncrypt: false };
        current = decrypted.result;
        boundTo = typeof parsed.origin === 'string' ? parsed.origin : null;
        where = (await protection()).keyring ? 'keychain' : 'file';
        reEncrypt = decrypted.shouldReEncrypt;
      } catch {
        current = null;
        where = null;
        loadProblem = 'The stored key could not be decrypted (the OS key store changed?). Enter it again.';
      }
      // The OS asks for a rewrite (its key rotated, or an older scheme): do it now, while it can still decrypt.
      if (reEncrypt && current !== null) await writeCipher(current).catch(() => undefined);
    },
    key: () => current,
    origin: () => boundTo,
    status,
    async rebind(origin) {
      if (current === null) return;
      boundTo = origin;
      if (where !== 'session') await writeCipher(current);
    },
    async set(key, origin = null) {
      const next = key.trim();
      boundTo = origin;
      const place = await placeFor();
      if (place === 'session') await removeFile();
      else await writeCipher(next);
      current = next;
      where = place;
      loadProblem = null;
      return status();
    },
    async clear() {
      await removeFile();
      current = null;
      boundTo = null;
      where = null;
      loadProblem = null;
      return status();
    },
    async reconsider() {
      if (current === null) return status();
      const place = await placeFor();
      if (place === where) return status();
      if (place === 'session') await removeFile();
      else await writeCipher(current);
      where = place;
      return status();
    },
    secrets: () => (current === null ? [] : [current]),
  };
}

function noKeyringReason(available: boolean, optedIn: boolean): string {
  if (!available)
    return 'No key set. This system offers no encryption for secrets: a key you enter is kept in memory until Skein quits.';
  if (optedIn)
    return 'No key set. This system offers no keyring (basic_text): as you chose, a key you enter is kept on disk, only obfuscated.';
  return 'No key set. This system offers no keyring (basic_text): a key you enter is kept in memory until Skein quits, unless you allow keeping it without a keyring.';
}
