/**
 * The client side of main, composed: settings, key custody, usage meter,
 * pacing and the API client, wired to each other. Electron-free: core.ts
 * builds it for the app and for the e2e host alike; the bridge handlers
 * (`src/main/ipc/handlers/client.ts`) are thin over it.
 */
import { join } from 'node:path';
import type { Mode } from '../../shared/ipc/app';
import type { CredentialsStatus, Settings } from '../../shared/ipc/settings';
import { createApiClient, type Target } from './api/client';
import type { RequestPolicy } from './api/execute';
import { makeError } from './api/policy/classify';
import { createRateLimiter } from './api/policy/rate-limiter';
import { DEFAULT_STORE_BYTES, ResponseStore } from './api/response-store';
import type { FetchLike } from './api/transport';
import type { ApiClient } from './api/types';
import { systemClock, type Clock } from './clock';
import { createKeyStore, type KeyStore } from './keys/key-store';
import type { SecretStorage } from './keys/secret-storage';
import { createLogger, type Logger, type LogLevel } from './logger';
import { UNCONFIRMED_BASE_URL, createSettingsStore } from './settings/settings-store';
import { createUsageMeter, type UsageMeter } from './usage/usage-meter';

export interface ClientServicesDeps {
  /** settings, usage totals and the encrypted key live here */
  userDataDir: string;
  secretStorage: SecretStorage;
  /** the embedded sandbox's base URL (demo mode); may start it */
  demoBaseUrl(): Promise<string>;
  fetch: FetchLike;
  clock?: Clock;
  random?: () => number;
  policy?: Partial<RequestPolicy>;
  /** finished, redacted log lines */
  writeLog?: (line: string, level: LogLevel) => void;
  logLevel?: LogLevel;
  /**
   * Start-up overrides (command line / environment, the e2e host): a base URL
   * that wins over the setting and makes live the default mode, and a key
   * kept for this session only.
   */
  initial?: { baseUrl?: string | undefined; key?: string | undefined };
}

export interface ClientServices {
  client: ApiClient;
  keys: KeyStore;
  usage: UsageMeter;
  logger: Logger;
  /** key loaded from disk; every handler waits for it */
  ready: Promise<void>;
  mode(): Mode;
  settings(): Settings;
  credentials(): Promise<CredentialsStatus>;
  updateSettings(patch: Partial<Settings>): Promise<Settings>;
  setKey(key: string): Promise<CredentialsStatus>;
  clearKey(): Promise<CredentialsStatus>;
  /** a window closed or reloaded: cancel what it started */
  onSenderGone(senderId: number): void;
}

/** demo mode talks to the local sandbox: no pacing */
export const DEMO_RPS = Infinity;

export function createClientServices(deps: ClientServicesDeps): ClientServices {
  const clock = deps.clock ?? systemClock;
  const store = createSettingsStore({ dir: deps.userDataDir });
  const override = deps.initial ?? {};
  let sessionKeyFromStart = override.key?.trim() || null;

  const keys = createKeyStore({
    secrets: deps.secretStorage,
    file: join(deps.userDataDir, 'api-key.json'),
    persistWithoutKeyring: () => store.get(false).persistKeyWithoutKeyring,
  });
  const keyConfigured = () => keys.key() !== null || sessionKeyFromStart !== null;
  const settings = (): Settings => {
    const s = store.get(keyConfigured() || override.baseUrl !== undefined);
    return override.baseUrl ? { ...s, baseUrl: override.baseUrl } : s;
  };
  const mode = () => settings().mode;
  const currentKey = () => keys.key() ?? sessionKeyFromStart;

  const secrets = () => [...keys.secrets(), ...(sessionKeyFromStart ? [sessionKeyFromStart] : [])];
  const logger = createLogger({
    write: (line, level) => deps.writeLog?.(line, level),
    secrets,
    level: deps.logLevel ?? 'warn',
    now: () => clock.now(),
  });

  const usage = createUsageMeter({ dir: deps.userDataDir, prices: () => settings().prices, mode });
  const limiter = createRateLimiter(clock, mode() === 'demo' ? DEMO_RPS : settings().requestsPerSecond);
  const ready = keys.load().catch((e: unknown) => logger.error('could not read the stored key', e));

  async function target(): Promise<Target> {
    await ready;
    const s = settings();
    limiter.setRate(s.mode === 'demo' ? DEMO_RPS : s.requestsPerSecond);
    if (s.mode === 'demo') return { baseUrl: await deps.demoBaseUrl(), key: null };
    if (s.baseUrl === UNCONFIRMED_BASE_URL) {
      throw makeError('validation', 'Live mode needs the address of the Social Data Read API: the spec does not publish it.', {
        fields: [{ field: 'baseUrl', message: 'enter the base URL your API provider gave you' }],
        action: 'Open Settings and enter the base URL, or switch to Demo mode.',
      });
    }
    return { baseUrl: s.baseUrl, key: currentKey() };
  }

  const client = createApiClient({
    target,
    // pages that leave memory wait on disk for the session: a reader scrolling back never pays twice
    store: new ResponseStore(DEFAULT_STORE_BYTES, { dir: join(deps.userDataDir, 'cache', 'pages') }),
    fetch: deps.fetch,
    clock,
    limiter,
    ...(deps.random ? { random: deps.random } : {}),
    ...(deps.policy ? { policy: deps.policy } : {}),
    usage,
    logger: logger,
    secrets,
  });

  return {
    client,
    keys,
    usage,
    logger: logger,
    ready,
    mode,
    settings,
    async credentials() {
      await ready;
      const status = await keys.status();
      if (status.configured || sessionKeyFromStart === null) return status;
      return { ...status, configured: true, storage: 'session', reason: 'Given when Skein started and kept in memory for this session only.' };
    },
    async updateSettings(patch) {
      await ready;
      const before = settings();
      store.update(patch, keyConfigured() || override.baseUrl !== undefined);
      const after = settings();
      if (before.mode !== after.mode || before.baseUrl !== after.baseUrl) client.clearStore();
      if (before.persistKeyWithoutKeyring !== after.persistKeyWithoutKeyring) await keys.reconsider();
      limiter.setRate(after.mode === 'demo' ? DEMO_RPS : after.requestsPerSecond);
      return after;
    },
    async setKey(key) {
      await ready;
      const status = await keys.set(key);
      sessionKeyFromStart = null;
      client.clearStore();
      return status;
    },
    async clearKey() {
      await ready;
      const status = await keys.clear();
      sessionKeyFromStart = null;
      client.clearStore();
      return status;
    },
    onSenderGone(senderId) {
      client.cancelSender(senderId);
    },
  };
}
