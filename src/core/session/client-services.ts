/**
 * The client side of main, composed: settings, key custody, usage meter,
 * pacing and the API client, wired to each other. Electron-free: core.ts
 * builds it for the app and for the e2e host alike; the bridge handlers
 * (`src/core/api/handlers.ts`, `settings.ts`) are thin over it.
 */
import { join } from 'node:path';
import type { Mode } from '../../shared/ipc/app';
import { SkeinError, makeError } from '../../shared/errors';
import { baseUrlOrigin, type CredentialsStatus, type Settings } from '../../shared/ipc/settings';
import {
  createApiClient,
  type Target,
  type RequestPolicy,
  createRateLimiter,
  type RateLimiter,
  DEFAULT_STORE_BYTES,
  ResponseStore,
  type FetchLike,
  type AnswerArchive,
  type ApiClient,
} from '../api';
import { systemClock } from '../clock';
import { createLogger, type Logger, type LogLevel } from '../logger';
import { refuseAll, type Clock, type Confirm, type SecretStorage } from '../ports';
import { createKeyStore, type KeyStore } from './keys/key-store';
import { UNCONFIRMED_BASE_URL, createSettingsStore } from './settings-store';
import { createUsageMeter, type UsageMeter } from './usage/usage-meter';

export interface ClientServicesDeps {
  /** settings, usage totals and the encrypted key live here */
  userDataDir: string;
  secretStorage: SecretStorage;
  /** the embedded sandbox's base URL (demo mode); may start it */
  demoBaseUrl: () => Promise<string>;
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
  initial?: {
    baseUrl?: string | undefined;
    key?: string | undefined;
    /** the pace for this session only, as the person started it (the headless runner's `--rate`) */
    requestsPerSecond?: number | undefined;
  };
  /** asks the user in main (a native dialog): the only way to move the key or raise spending limits */
  confirm?: Confirm;
  /** the research project: the store of record on disk; without it, pages spill to a session folder */
  archive?: AnswerArchive;
  /** other secrets the logger must cut out (the coding workbench's keys, kept like the API key) */
  otherSecrets?: () => string[];
}

export interface ClientServices {
  client: ApiClient;
  keys: KeyStore;
  usage: UsageMeter;
  logger: Logger;
  /** key loaded from disk; every handler waits for it */
  ready: Promise<void>;
  mode: () => Mode;
  settings: () => Settings;
  credentials: () => Promise<CredentialsStatus>;
  updateSettings: (patch: Partial<Settings>) => Promise<Settings>;
  setKey: (key: string) => Promise<CredentialsStatus>;
  clearKey: () => Promise<CredentialsStatus>;
  /** a window closed or reloaded: cancel what it started */
  onSenderGone: (senderId: number) => void;
  /** the user asked to try now: drop the rate-limit pause of the base URL in use */
  clearPause: () => Promise<boolean>;
}

/** demo mode talks to the local sandbox: no pacing */
const DEMO_RPS = Infinity;

/** Who may be paused: one limiter per base URL, so a 429 from one service never stops another (demo and live never share). */
function limitersByBaseUrl(clock: Clock) {
  const byUrl = new Map<string, RateLimiter>();
  return (baseUrl: string, rps: number): RateLimiter => {
    let l = byUrl.get(baseUrl);
    if (!l) byUrl.set(baseUrl, (l = createRateLimiter(clock, rps)));
    else if (l.rate !== rps) l.setRate(rps);
    return l;
  };
}

const HOUR_MS = 60 * 60 * 1000;
const fmt = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: 2 });

export function createClientServices(deps: ClientServicesDeps): ClientServices {
  const clock = deps.clock ?? systemClock;
  const confirm = deps.confirm ?? refuseAll;
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
  /** the origin the key in use was entered for: a key given at start-up belongs to the start-up base URL */
  let sessionKeyOrigin = baseUrlOrigin(override.baseUrl ?? settings().baseUrl);
  const keyOrigin = () =>
    keys.key() !== null ? keys.origin() : sessionKeyFromStart !== null ? sessionKeyOrigin : null;

  const secrets = () => [
    ...keys.secrets(),
    ...(sessionKeyFromStart ? [sessionKeyFromStart] : []),
    ...(deps.otherSecrets?.() ?? []),
  ];
  const logger = createLogger({
    write: (line, level) => deps.writeLog?.(line, level),
    secrets,
    level: deps.logLevel ?? 'warn',
    now: () => clock.now(),
  });

  const usage = createUsageMeter({
    dir: deps.userDataDir,
    prices: () => settings().prices,
    mode,
    now: () => clock.now(),
    budget: () => settings().creditsPerHour,
  });
  const limiterFor = limitersByBaseUrl(clock);
  const rateFor = (s: Settings) =>
    s.mode === 'demo' ? DEMO_RPS : (override.requestsPerSecond ?? Math.min(s.requestsPerSecond, store.paceCeiling()));
  const ready = keys
    .load()
    .then(async () => {
      // a key stored before keys were bound belongs to the base URL it was used with
      const origin = baseUrlOrigin(settings().baseUrl);
      if (keys.key() !== null && keys.origin() === null && origin !== null) await keys.rebind(origin);
    })
    .catch((e: unknown) => logger.error('could not read the stored key', e));

  /** live spending in the last hour against the budget: past it, no request leaves */
  function checkBudget(s: Settings): void {
    const spent = usage.spentSince(clock.now() - HOUR_MS);
    if (spent < s.creditsPerHour) return;
    const retryAt = usage.budgetFreesAt(HOUR_MS, s.creditsPerHour) ?? clock.now() + HOUR_MS;
    throw makeError(
      'rate-limited',
      `Skein's budget of ${fmt(s.creditsPerHour)} credits an hour is spent (${fmt(spent)} in the last 60 minutes).`,
      {
        retryAt,
        action: 'Wait, or raise the hourly budget in Settings (Skein asks you to confirm).',
      },
    );
  }

  async function target(): Promise<Target> {
    await ready;
    const s = settings();
    if (s.mode === 'demo') {
      const baseUrl = await deps.demoBaseUrl();
      return { baseUrl, key: null, limiter: limiterFor(baseUrl, DEMO_RPS) };
    }
    if (s.baseUrl === UNCONFIRMED_BASE_URL) {
      throw makeError(
        'validation',
        'Live mode needs the address of the Social Data Read API: the spec does not publish it.',
        {
          fields: [{ field: 'baseUrl', message: 'enter the base URL your API provider gave you' }],
          action: 'Open Settings and enter the base URL, or switch to Demo mode.',
        },
      );
    }
    const origin = baseUrlOrigin(s.baseUrl);
    if (origin === null)
      throw makeError('validation', 'The base URL must be https:// (http:// only for localhost).', {
        action: 'Open Settings and correct the base URL.',
      });
    const key = currentKey();
    if (key !== null && keyOrigin() !== origin) {
      // main never sends the key to an origin it was not entered for, whatever the renderer set
      throw makeError(
        'unauthorized',
        `Your API key was entered for ${keyOrigin() ?? 'another address'}; Skein does not send it to ${origin}.`,
        {
          action: 'Enter the key again in Settings to use it with this address.',
        },
      );
    }
    const paced = limiterFor(s.baseUrl, rateFor(s));
    return {
      baseUrl: s.baseUrl,
      key,
      limiter: {
        get rate() {
          return paced.rate;
        },
        setRate: (r) => paced.setRate(r),
        pauseUntil: (at, why) => paced.pauseUntil(at, why),
        pausedUntil: () => paced.pausedUntil(),
        pauseReason: () => paced.pauseReason(),
        clearPause: () => paced.clearPause(),
        async acquire(signal) {
          checkBudget(settings());
          await paced.acquire(signal);
          checkBudget(settings());
        },
      },
    };
  }

  const client = createApiClient({
    target,
    // pages that leave memory are served again from the project (the one store on disk, docs/archive.md);
    // without a project they wait in a session folder: a reader scrolling back never pays twice
    store: deps.archive
      ? new ResponseStore(DEFAULT_STORE_BYTES)
      : new ResponseStore(DEFAULT_STORE_BYTES, { dir: join(deps.userDataDir, 'cache', 'pages') }),
    archive: deps.archive,
    fetch: deps.fetch,
    clock,
    random: deps.random,
    policy: deps.policy,
    usage,
    logger: logger,
    secrets,
  });

  /** asks the user; a no leaves the setting as it was */
  async function ask(title: string, detail: string, confirmLabel: string): Promise<void> {
    if (await confirm({ title, detail, confirmLabel })) return;
    throw new SkeinError('cancelled', `Not changed: ${title.replace(/\?$/, '')} was not confirmed.`, {
      action: 'Change it again and confirm in the dialog Skein shows.',
    });
  }

  /** what needs the user's own yes before the patch is saved; returns what to do once it is */
  async function confirmPatch(patch: Partial<Settings>, before: Settings): Promise<Array<() => Promise<void> | void>> {
    const after: Array<() => Promise<void> | void> = [];
    if (patch.baseUrl !== undefined && override.baseUrl === undefined) {
      const to = baseUrlOrigin(patch.baseUrl.replace(/\/+$/, ''));
      const from = keyOrigin();
      if (to !== null && currentKey() !== null && from !== to) {
        await ask(
          `Send your API key to ${to}?`,
          `Your key was entered for ${from ?? 'another address'}. Skein will send it to ${to} with every live call. Say no unless you typed this address yourself.`,
          'Send my key there',
        );
        after.push(() => (keys.key() !== null ? keys.rebind(to) : void (sessionKeyOrigin = to)));
      }
    }
    if (patch.requestsPerSecond !== undefined && patch.requestsPerSecond > store.paceCeiling()) {
      const rps = patch.requestsPerSecond;
      const hourly = Math.round(rps * 3600);
      await ask(
        `Allow up to ${fmt(rps)} requests per second?`,
        `Skein may then send up to ${fmt(hourly)} paid requests an hour (the hourly budget of ${fmt(before.creditsPerHour)} credits still applies).`,
        'Allow',
      );
      after.push(() => store.setPaceCeiling(rps));
    }
    if (patch.requestsPerSecond !== undefined && patch.requestsPerSecond !== before.requestsPerSecond) {
      after.push(() =>
        usage.note(
          'pace',
          `Pace set from ${fmt(before.requestsPerSecond)} to ${fmt(patch.requestsPerSecond ?? 0)} requests per second.`,
        ),
      );
    }
    if (patch.creditsPerHour !== undefined && patch.creditsPerHour !== before.creditsPerHour) {
      const to = patch.creditsPerHour;
      if (to > before.creditsPerHour) {
        await ask(
          `Raise the budget to ${fmt(to)} credits an hour?`,
          `About ${fmt(to / before.prices.creditsPerUsd)} USD an hour at your price table, from ${fmt(before.creditsPerHour)} credits.`,
          'Raise the budget',
        );
      }
      after.push(() =>
        usage.note('budget', `Hourly budget set from ${fmt(before.creditsPerHour)} to ${fmt(to)} credits.`),
      );
    }
    if (patch.persistKeyWithoutKeyring === true && !before.persistKeyWithoutKeyring) {
      await ask(
        'Keep the API key on disk without a keyring?',
        'This system offers no keyring: the key would only be obfuscated, and anyone who can read your files could recover it.',
        'Keep it on disk',
      );
    }
    if (patch.prices !== undefined) {
      const changed = (Object.keys(patch.prices) as Array<keyof Settings['prices']>).filter(
        (k) => patch.prices?.[k] !== before.prices[k],
      );
      if (changed.length > 0) {
        const list = changed.map((k) => `${k} ${fmt(before.prices[k])} → ${fmt(patch.prices?.[k] ?? 0)}`).join(', ');
        after.push(() => usage.note('prices', `Price table edited: ${list}.`));
      }
    }
    return after;
  }

  /** a key set or cleared replaces the one given at start-up; answers kept under the old key are dropped */
  async function replaceKey(change: () => Promise<CredentialsStatus>): Promise<CredentialsStatus> {
    await ready;
    const status = await change();
    sessionKeyFromStart = null;
    client.clearStore();
    return status;
  }

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
      return {
        ...status,
        configured: true,
        storage: 'session',
        reason: 'Given when Skein started and kept in memory for this session only.',
      };
    },
    async updateSettings(patch) {
      await ready;
      const before = settings();
      const then = await confirmPatch(patch, before);
      store.update(patch, keyConfigured() || override.baseUrl !== undefined);
      for (const step of then) await step();
      const after = settings();
      if (before.mode !== after.mode || before.baseUrl !== after.baseUrl) client.clearStore();
      if (before.persistKeyWithoutKeyring !== after.persistKeyWithoutKeyring) await keys.reconsider();
      return after;
    },
    setKey: (key) =>
      replaceKey(() => {
        // a key makes live the default mode only while none was picked: saving one never switches the mode in
        // force behind the person's back (the Mode control shows it, and they switch when they mean to)
        if (!store.modeChosen) store.update({ mode: mode() }, keyConfigured() || override.baseUrl !== undefined);
        // the key belongs to the address it is entered for; live mode's base URL, or the start-up one
        return keys.set(key, baseUrlOrigin(settings().baseUrl));
      }),
    clearKey: () => replaceKey(() => keys.clear()),
    onSenderGone(senderId) {
      client.cancelSender(senderId);
    },
    async clearPause() {
      await ready;
      const s = settings();
      const baseUrl = s.mode === 'demo' ? await deps.demoBaseUrl() : s.baseUrl;
      return limiterFor(baseUrl, rateFor(s)).clearPause();
    },
  };
}
