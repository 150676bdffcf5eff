/**
 * Settings that survive a restart, kept with `conf` (atomic writes, JSON in
 * the user-data folder). Never the API key: that lives with the key store.
 *
 * Defaults, and why:
 * - mode: not stored until the user picks one; until then Skein is in demo
 *   mode while no key is set and in live mode once one is.
 * - baseUrl: the spec does not publish the live service's address, so the
 *   default is a placeholder in the reserved `.invalid` domain that can never
 *   resolve; live calls refuse it until the user enters their provider's URL.
 * - requestsPerSecond: 0.2 (one request per 5 s), the live service's pace on
 *   a free balance: the only rate safe for every account. Paid balances allow
 *   3–20 req/s; the user raises it. Demo mode is not paced at all.
 * - creditsPerHour: 200,000 (2 USD at the default price table): a day's
 *   reading at the free pace fits, a runaway loop does not. Live mode only.
 * - loadRemoteMedia: on (images are much of what a post says); off keeps
 *   every image host from learning the user's address.
 * - timestampAuthority, timestampFallback: none. Which authority to trust with
 *   the hashes of a project's files is the researcher's choice (their
 *   institution may run one); until one is set, keeping says plainly that no
 *   trusted time was asked for. Demo mode always uses the sandbox's stand-in.
 * - saveService: off. Sending a linked page to a web archive tells that
 *   archive which pages the project links to; it is the researcher's choice.
 *   Its address defaults to the Internet Archive's Save Page Now, its pace to
 *   one request every 10 s (the bridge refuses under 1 s). Demo mode always
 *   sends to the sandbox's stand-in.
 * - maxVideoBitrate: none (the best variant). Keeping is for evidence, where
 *   the best copy matters more than the disk; a researcher short of space
 *   chooses a maximum.
 * - paceCeiling (not a setting: main's own record): the highest pace the
 *   user confirmed in main's dialog; the renderer may set any pace up to it.
 */
import { z } from 'zod';
import { DEFAULT_PRICES, PriceTable } from '../../shared/api/pricing';
import { Mode } from '../../shared/ipc/app';
import { DEFAULT_SAVE_PACE_SECONDS, DEFAULT_SAVE_SERVICE_URL, Settings } from '../../shared/ipc/settings';
import { openJsonStore } from '../files/json-store';

export const UNCONFIRMED_BASE_URL = 'https://social-data-api.invalid';
export const DEFAULT_REQUESTS_PER_SECOND = 0.2;
export const DEFAULT_CREDITS_PER_HOUR = 200_000;

/** what is on disk: every field optional (absent = default), mode absent = "not chosen" */
const Stored = z.object({
  mode: Mode.optional(),
  baseUrl: Settings.shape.baseUrl.optional(),
  requestsPerSecond: Settings.shape.requestsPerSecond.optional(),
  creditsPerHour: Settings.shape.creditsPerHour.optional(),
  loadRemoteMedia: z.boolean().optional(),
  paceCeiling: Settings.shape.requestsPerSecond.optional(),
  prices: PriceTable.optional(),
  persistKeyWithoutKeyring: z.boolean().optional(),
  timestampAuthority: Settings.shape.timestampAuthority.optional(),
  timestampFallback: Settings.shape.timestampFallback.optional(),
  saveService: z.boolean().optional(),
  saveServiceUrl: Settings.shape.saveServiceUrl.optional(),
  saveServicePaceSeconds: Settings.shape.saveServicePaceSeconds.optional(),
  maxVideoBitrate: Settings.shape.maxVideoBitrate.optional(),
});
type Stored = z.infer<typeof Stored>;

export interface SettingsStore {
  /** the settings in effect; `keyConfigured` decides the mode while the user has not picked one */
  get: (keyConfigured: boolean) => Settings;
  /** whether the user picked a mode */
  readonly modeChosen: boolean;
  /** validate and persist a change; returns the settings in effect */
  update: (patch: Partial<Settings>, keyConfigured: boolean) => Settings;
  /** the highest pace the user confirmed (main only: not a setting the renderer can write) */
  paceCeiling: () => number;
  setPaceCeiling: (rps: number) => void;
  /** the file the settings live in (null: the folder is unusable, kept in memory) */
  readonly path: string | null;
}

export function createSettingsStore(opts: { dir: string; configName?: string }): SettingsStore {
  // keys a newer Skein added are the store's to keep: written back as they were
  const file = openJsonStore<Stored>(opts.dir, opts.configName ?? 'settings', {
    owns: Object.keys(Stored.shape) as Array<keyof Stored>,
  });

  /**
   * What is stored, read from the file once and then kept: Skein is the file's only writer, and
   * every API call asks for the settings (mode, target, prices) several times, so a file read and
   * a schema check per ask were a measurable part of a page's cost in main.
   */
  let stored: Stored | null = null;
  const read = (): Stored => (stored ??= readFile());

  /**
   * What this Skein does not read of its own settings: a value it cannot read (a mode it has no word for), prices
   * for what it does not price. Written back as they were, so that going back to an older Skein for a while loses
   * none of them (a newer Skein's own settings the JSON store keeps).
   */
  let unread: { fields: Record<string, unknown>; prices: Record<string, unknown> } = { fields: {}, prices: {} };

  /** each stored field checked on its own: one bad value falls back to its default, not the whole file */
  const readFile = (): Stored => {
    const raw: Record<string, unknown> = file.read();
    const out: Record<string, unknown> = {};
    const fields: Record<string, unknown> = {};
    for (const key of Object.keys(Stored.shape) as Array<keyof Stored>) {
      if (!Object.hasOwn(raw, key)) continue;
      const parsed = Stored.shape[key].safeParse(raw[key]);
      if (!parsed.success) fields[key] = raw[key];
      else if (parsed.data !== undefined) out[key] = parsed.data;
    }
    const prices =
      typeof raw.prices === 'object' && raw.prices !== null && !Array.isArray(raw.prices)
        ? Object.fromEntries(Object.entries(raw.prices).filter(([k]) => !Object.hasOwn(PriceTable.shape, k)))
        : {};
    unread = { fields, prices };
    return out;
  };

  const write = (next: Stored): Stored => {
    const checkedNext = Stored.parse(next);
    const kept = Object.fromEntries(
      Object.entries(unread.fields).filter(([k]) => checkedNext[k as keyof Stored] === undefined),
    );
    const prices = checkedNext.prices ? { prices: { ...unread.prices, ...checkedNext.prices } } : {};
    // the type is this Skein's fields; the file also keeps what it does not read
    file.write({ ...kept, ...checkedNext, ...prices });
    stored = checkedNext;
    return checkedNext;
  };

  const effective = (s: Stored, keyConfigured: boolean): Settings => ({
    mode: s.mode ?? (keyConfigured ? 'live' : 'demo'),
    baseUrl: s.baseUrl ?? UNCONFIRMED_BASE_URL,
    requestsPerSecond: s.requestsPerSecond ?? DEFAULT_REQUESTS_PER_SECOND,
    creditsPerHour: s.creditsPerHour ?? DEFAULT_CREDITS_PER_HOUR,
    loadRemoteMedia: s.loadRemoteMedia ?? true,
    prices: { ...DEFAULT_PRICES, ...s.prices },
    persistKeyWithoutKeyring: s.persistKeyWithoutKeyring ?? false,
    timestampAuthority: s.timestampAuthority ?? null,
    timestampFallback: s.timestampFallback ?? null,
    saveService: s.saveService ?? false,
    saveServiceUrl: s.saveServiceUrl ?? DEFAULT_SAVE_SERVICE_URL,
    saveServicePaceSeconds: s.saveServicePaceSeconds ?? DEFAULT_SAVE_PACE_SECONDS,
    maxVideoBitrate: s.maxVideoBitrate ?? null,
  });

  return {
    get path() {
      return file.path;
    },
    get modeChosen() {
      return read().mode !== undefined;
    },
    get: (keyConfigured) => effective(read(), keyConfigured),
    paceCeiling: () => {
      const s = read();
      return s.paceCeiling ?? Math.max(DEFAULT_REQUESTS_PER_SECOND, s.requestsPerSecond ?? 0);
    },
    setPaceCeiling(rps) {
      write({ ...read(), paceCeiling: Settings.shape.requestsPerSecond.parse(rps) });
    },
    update(patch, keyConfigured) {
      const checked = Settings.partial().strict().parse(patch);
      const next: Stored = { ...read(), ...checked };
      if (checked.baseUrl !== undefined) next.baseUrl = checked.baseUrl.replace(/\/+$/, '');
      return effective(write(next), keyConfigured);
    },
  };
}
