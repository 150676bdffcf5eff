/** What the key store says of the OS secret store (the `SecretStorage` port, `core/ports.ts`). */
import type { SecretBackend } from '../../ports';

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
