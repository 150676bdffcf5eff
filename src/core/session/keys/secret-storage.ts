/**
 * The OS secret store as the key store sees it: Electron's async safeStorage
 * in the app (`src/shells/electron/adapters/safe-storage.ts`), a test double in tests.
 */

/** Which protection the OS offers (Linux: `safeStorage.getSelectedStorageBackend()`). */
export type SecretBackend =
  'keychain' | 'dpapi' | 'gnome_libsecret' | 'kwallet' | 'kwallet5' | 'kwallet6' | 'basic_text' | 'unknown';

export interface SecretStorage {
  /** whether encrypt/decrypt work at all (Electron: `isAsyncEncryptionAvailable`) */
  isEncryptionAvailable: () => Promise<boolean>;
  backend: () => SecretBackend;
  encryptString: (plain: string) => Promise<Uint8Array>;
  decryptString: (encrypted: Uint8Array) => Promise<string>;
  /**
   * Decrypts and says whether the ciphertext should be written again (Electron's
   * `decryptStringAsync` answer whole: `shouldReEncrypt` when the OS key or the
   * encryption scheme changed since it was written). Optional: stores without it
   * never ask for a rewrite.
   */
  decrypt?: (encrypted: Uint8Array) => Promise<{ result: string; shouldReEncrypt: boolean }>;
}

/** true when the backend is a real keyring, not an obfuscation with a key kept beside the data */
export function isRealKeyring(backend: SecretBackend): boolean {
  return backend !== 'basic_text' && backend !== 'unknown';
}

export function backendName(backend: SecretBackend): string {
  switch (backend) {
    case 'keychain':
      return 'the macOS Keychain';
    case 'dpapi':
      return 'Windows DPAPI';
    case 'gnome_libsecret':
      return 'the Secret Service keyring (libsecret)';
    case 'kwallet':
    case 'kwallet5':
    case 'kwallet6':
      return 'KWallet';
    case 'basic_text':
      return 'no keyring (basic_text)';
    case 'unknown':
      return 'an unknown store';
  }
}
