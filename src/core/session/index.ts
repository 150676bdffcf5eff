/**
 * The session's public surface: the client services (settings, key custody, usage meter, the paced API
 * client, wired together) and the bridge handlers of `credentials`, `settings`, `usage` and `cache`.
 */
export { createClientServices, type ClientServices } from './client-services';
export { createSettingsHandlers } from './handlers';
export { createKeyStore } from './keys/key-store';
