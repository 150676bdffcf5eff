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
export const KeyStorage = z.enum(['keychain', 'file', 'session', 'none']);
export type KeyStorage = z.infer<typeof KeyStorage>;

export const CredentialsStatus = z.object({
  configured: z.boolean(),
  storage: KeyStorage,
  /** why the key is where it is, in plain words */
  reason: z.string(),
  /** false on Linux without a keyring (safeStorage `basic_text`) */
  secureStorageAvailable: z.boolean(),
});
export type CredentialsStatus = z.infer<typeof CredentialsStatus>;

export const Settings = z.object({
  mode: Mode,
  baseUrl: z.url({ protocol: /^https?$/ }),
  requestsPerSecond: z.number().positive().max(50),
  prices: PriceTable,
  /** opt-in to keep the key on disk although the OS offers no keyring */
  persistKeyWithoutKeyring: z.boolean(),
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

export const UsageTotals = z.object({ calls: z.number().int(), credits: z.number(), usd: z.number() });

export const UsageSnapshot = z.object({
  session: UsageTotals,
  lifetime: UsageTotals,
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
