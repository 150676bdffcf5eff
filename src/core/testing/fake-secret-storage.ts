/**
 * A SecretStorage for tests that really transforms the text (AES-256-GCM
 * with a per-instance key), so a test can prove the plaintext never lands
 * on disk.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { SecretBackend, SecretStorage } from '../ports';

export function fakeSecretStorage(backend: SecretBackend, available = true): SecretStorage & { rotate: () => void } {
  // one machine key shared by every instance in the process, like an OS keyring
  let key = MACHINE_KEY;
  return {
    isEncryptionAvailable: async () => available,
    backend: () => backend,
    async encryptString(plain) {
      if (!available) throw new Error('encryption is not available');
      const iv = randomBytes(12);
      const c = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([c.update(plain, 'utf8'), c.final()]);
      return new Uint8Array(Buffer.concat([iv, c.getAuthTag(), body]));
    },
    async decryptString(data) {
      const buf = Buffer.from(data);
      const d = createDecipheriv('aes-256-gcm', key, buf.subarray(0, 12));
      d.setAuthTag(buf.subarray(12, 28));
      return Buffer.concat([d.update(buf.subarray(28)), d.final()]).toString('utf8');
    },
    rotate() {
      key = randomBytes(32);
    },
  };
}

const MACHINE_KEY = randomBytes(32);
