/**
 * Electron's safeStorage (the async API of Electron 45) as the key store's
 * `SecretStorage`. Call after the app is ready: before, Linux reports the
 * backend as `unknown`.
 */
import { safeStorage } from 'electron';
import type { SecretBackend, SecretStorage } from '../../../core';

export function electronSecretStorage(platform: NodeJS.Platform = process.platform): SecretStorage {
  return {
    isEncryptionAvailable: () => safeStorage.isAsyncEncryptionAvailable(),
    backend(): SecretBackend {
      if (platform === 'darwin') return 'keychain';
      if (platform === 'win32') return 'dpapi';
      if (platform === 'linux') return safeStorage.getSelectedStorageBackend();
      return 'unknown';
    },
    encryptString: (plain) => safeStorage.encryptStringAsync(plain),
    decryptString: async (encrypted) => (await safeStorage.decryptStringAsync(Buffer.from(encrypted))).result,
    decrypt: async (encrypted) => {
      const { result, shouldReEncrypt } = await safeStorage.decryptStringAsync(Buffer.from(encrypted));
      return { result, shouldReEncrypt };
    },
  };
}
