import { z } from 'zod';
import { OperationIdSchema } from '../api/catalog';
import { PriceTable } from '../api/pricing';
import { Mode } from './app';
import { fn } from './define';

/**
 * keychain: encrypted by the OS key store, kept across restarts;
 * file: on disk, only obfuscated (Linux without a keyring, user opted in);
 * session: in memory until Skein quits; none: no key.
 */
const KeyStorage = z.enum(['keychain', 'file', 'session', 'none']);
type KeyStorage = z.infer<typeof KeyStorage>;

export const CredentialsStatus = z.object({
  configured: z.boolean(),
  storage: KeyStorage,
  /** why the key is where it is, in plain words */
  reason: z.string(),
  /** false on Linux without a keyring (safeStorage `basic_text`) */
  secureStorageAvailable: z.boolean(),
});
export type CredentialsStatus = z.infer<typeof CredentialsStatus>;

/** 127.0.0.0/8, localhost, ::1: the only hosts Skein talks plain `http:` to (a local server or mock). */
function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  return h === 'localhost' || h === '::1' || /^127(?:\.\d{1,3}){3}$/.test(h);
}

/** where a base URL's key goes: scheme, host and port (the URL's origin), or null for a URL Skein refuses */
export function baseUrlOrigin(url: string): string | null {
  try {
    const u = new URL(url);
    if (u.username !== '' || u.password !== '') return null;
    if (u.protocol === 'https:' || (u.protocol === 'http:' && isLoopbackHost(u.hostname))) return u.origin;
    return null;
  } catch {
    return null;
  }
}

/** `https:`, or `http:` on loopback only: the key never crosses a network in clear text. */
const BaseUrl = z
  .url({ protocol: /^https?$/ })
  .max(2048)
  .refine((u) => baseUrlOrigin(u) !== null, {
    message:
      'The base URL must be https:// (http:// only for this computer: localhost, 127.0.0.1), without user:password@.',
  });

/** a timestamp authority's address: https only (Skein sends it a hash, never a file) */
const AuthorityUrl = z
  .url({ protocol: /^https$/ })
  .max(2048)
  .refine((u) => !/^https:\/\/[^/]*@/.test(u), { message: 'The authority’s address must not carry user:password@.' });

/** a web archive's save service: the URL to save is appended to this address; https only, no user:password@ */
const SaveServiceUrl = z
  .url({ protocol: /^https$/ })
  .max(2048)
  .refine((u) => !/^https:\/\/[^/]*@/.test(u), {
    message: 'The save service’s address must not carry user:password@.',
  });

/** the Internet Archive's Save Page Now, the save service's default address */
export const DEFAULT_SAVE_SERVICE_URL = 'https://web.archive.org/save/';
/** the fewest seconds between two requests to a save service: the bridge refuses a faster pace */
export const SAVE_PACE_FLOOR_SECONDS = 1;
export const DEFAULT_SAVE_PACE_SECONDS = 10;
/** a chosen maximum for kept videos, in bits a second */
const MaxVideoBitrate = z.number().int().positive().max(1e9);

/** requests per second: what the bridge accepts; raising the pace above the confirmed ceiling asks the user in main */
const MAX_REQUESTS_PER_SECOND = 50;

export const Settings = z.object({
  mode: Mode,
  baseUrl: BaseUrl,
  requestsPerSecond: z.number().positive().max(MAX_REQUESTS_PER_SECOND),
  /** live credits Skein may spend in any 60 minutes; raising it asks the user in main */
  creditsPerHour: z.number().positive().max(1e12),
  /** load images and video from their hosts (each load tells the host your address) */
  loadRemoteMedia: z.boolean(),
  prices: PriceTable,
  /** opt-in to keep the key on disk although the OS offers no keyring */
  persistKeyWithoutKeyring: z.boolean(),
  /**
   * the RFC 3161 timestamp authority asked for trusted time over each keeping run's manifest of hashes, and the
   * one asked when it fails (live mode; demo mode uses the sandbox's stand-in); null: none
   */
  timestampAuthority: AuthorityUrl.nullable(),
  timestampFallback: AuthorityUrl.nullable(),
  /** send each linked page to a web archive's save service when keeping a collection's linked pages (live mode) */
  saveService: z.boolean(),
  /** the save service's address; the URL to save is appended (demo mode uses the sandbox's stand-in) */
  saveServiceUrl: SaveServiceUrl,
  /** at most one request to the save service every this many seconds */
  saveServicePaceSeconds: z.number().min(SAVE_PACE_FLOOR_SECONDS).max(3600),
  /**
   * the largest video (and GIF) kept, as the highest MP4 variant at or under this many bits a second (the
   * lowest when every one is larger); null: the best there is
   */
  maxVideoBitrate: MaxVideoBitrate.nullable(),
});
export type Settings = z.infer<typeof Settings>;

export const UsageCall = z.object({
  operation: OperationIdSchema,
  paramsDigest: z.string(),
  at: z.number(),
  httpStatus: z.number().int(),
  items: z.number().int(),
  charged: z.boolean(),
  credits: z.number(),
  fromCache: z.boolean(),
  /** what the call was about: "post 1850…", "@ada · page 2" (no key, no URL) */
  subject: z.string().max(200).optional(),
});
export type UsageCall = z.infer<typeof UsageCall>;

const UsageTotals = z.object({ calls: z.number().int(), credits: z.number(), usd: z.number() });

/** something that changed how spending is counted or limited, kept so it cannot be hidden */
export const UsageEvent = z.object({
  /** epoch ms: a time a date can show */
  at: z.number().int().min(0).max(8.64e15),
  /** `other`: a kind of change a newer Skein recorded, shown by its words */
  kind: z.enum(['reset', 'prices', 'pace', 'budget', 'other']),
  /** what changed, in plain words */
  detail: z.string(),
});
export type UsageEvent = z.infer<typeof UsageEvent>;

export const UsageSnapshot = z.object({
  session: UsageTotals,
  /** live credits spent in the last 60 minutes, against the hourly budget */
  lastHour: z.object({ credits: z.number(), budget: z.number() }).optional(),
  /** meter resets, price edits, pace and budget changes, newest first */
  history: z.array(UsageEvent).optional(),
  /** changes the history keeps that this Skein cannot read (damaged): kept as they were, not shown */
  historyUnread: z.number().int().nonnegative().optional(),
  lifetime: UsageTotals,
  /** epoch ms: the lifetime totals count from then, the totals before it could not be read (kept in the file) */
  lifetimeSince: UsageEvent.shape.at.optional(),
  byOperation: z.array(z.object({ operation: OperationIdSchema, calls: z.number().int(), credits: z.number() })),
  recent: z.array(UsageCall),
});
export type UsageSnapshot = z.infer<typeof UsageSnapshot>;

export const settingsContract = {
  credentials: {
    status: fn(z.undefined(), CredentialsStatus),
    set: fn(z.object({ key: z.string().trim().min(1).max(512) }), CredentialsStatus),
    clear: fn(z.undefined(), CredentialsStatus),
  },
  settings: {
    get: fn(z.undefined(), Settings),
    update: fn(Settings.partial().strict(), Settings),
  },
  usage: {
    get: fn(z.undefined(), UsageSnapshot),
    reset: fn(z.undefined(), UsageSnapshot),
  },
  cache: {
    clear: fn(z.undefined(), z.object({ cleared: z.number().int() })),
  },
};
