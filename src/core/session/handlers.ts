/**
 * Bridge handlers of the `credentials`, `settings`, `usage` and `cache` namespaces
 * (src/shared/ipc/settings.ts): thin over the client services. A missing handler is a compile error
 * (`SettingsHandlers` is cut from the contract).
 */
import type { HandlersOf } from '../../shared/ipc/define';
import type { settingsContract } from '../../shared/ipc/settings';
import type { ClientServices } from './client-services';

export type SettingsHandlers = HandlersOf<typeof settingsContract>;

export function createSettingsHandlers(services: ClientServices): SettingsHandlers {
  const { client, usage } = services;
  return {
    credentials: {
      status: () => services.credentials(),
      set: ({ key }) => services.setKey(key),
      clear: () => services.clearKey(),
    },
    settings: {
      get: async () => {
        await services.ready;
        return services.settings();
      },
      update: (patch) => services.updateSettings(patch),
    },
    usage: {
      get: () => usage.snapshot(),
      reset: () => usage.reset(),
    },
    cache: {
      clear: () => ({ cleared: client.clearStore() }),
    },
  };
}
