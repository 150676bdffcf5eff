/**
 * INTERIM: the `api`, `credentials`, `settings`, `usage` and `cache` handlers
 * the platform needs for its own round-trip tests, until the client helper's
 * `createClientHandlers` (src/main/ipc/handlers/client.ts) replaces them in
 * core.ts. Deliberately small: one plain GET per call, no retry, no limiter,
 * no persistence. Delete this file once core.ts no longer imports it.
 */
import { DEFAULT_PRICES, OPERATIONS, creditsFor, paramsSchema, toQueryString } from '../../../shared/api';
import { SkeinError } from '../../../shared/errors';
import type { ApiCallOutput, CredentialsStatus, Handlers, Mode, Settings, UsageSnapshot } from '../../../shared/ipc';

export interface InterimClientDeps {
  mode: Mode;
  /** base URL of the API (the sandbox's in demo mode) */
  baseUrl(): Promise<string>;
  apiKey?: string | undefined;
  fetch: typeof fetch;
  now(): number;
}

type ClientNamespaces = Pick<Handlers, 'api' | 'credentials' | 'settings' | 'usage' | 'cache'>;

export function createInterimClientHandlers(deps: InterimClientDeps): ClientNamespaces {
  let key = deps.apiKey;
  let settings: Settings = {
    mode: deps.mode,
    baseUrl: 'https://api.example.invalid',
    requestsPerSecond: 1,
    prices: { ...DEFAULT_PRICES },
    persistKeyWithoutKeyring: false,
  };
  const status = (): CredentialsStatus => ({
    configured: key !== undefined,
    storage: key === undefined ? 'none' : 'session',
    reason: 'kept in memory until Skein quits',
    secureStorageAvailable: false,
  });
  const usage = (): UsageSnapshot => {
    const zero = { calls: 0, credits: 0, usd: 0 };
    return { session: zero, lifetime: zero, byOperation: [], recent: [] };
  };

  return {
    api: {
      call: async ({ operation, params, callId }): Promise<ApiCallOutput> => {
        const op = OPERATIONS[operation];
        const typed = paramsSchema(operation).parse(params);
        const started = deps.now();
        const url = `${(await deps.baseUrl()).replace(/\/$/, '')}${op.path}?${toQueryString(operation, typed)}`;
        const res = await deps.fetch(url, { headers: key ? { 'x-api-key': key } : {} });
        if (res.status === 501) throw new SkeinError('not-available', `${op.title} is not available yet`, { httpStatus: 501 });
        if (!res.ok) throw new SkeinError('upstream', `The API answered HTTP ${res.status}`, { httpStatus: res.status });
        const body = (await res.json()) as Record<string, unknown>;
        const collection = body[op.collectionKey];
        const items = Array.isArray(collection) ? collection : [];
        return {
          operation,
          items,
          data: Array.isArray(collection) ? null : (collection ?? null),
          paging: op.paged
            ? { hasNextPage: body.has_next_page === true, nextCursor: typeof body.next_cursor === 'string' && body.next_cursor ? body.next_cursor : null, stop: null }
            : null,
          report: { duplicatesRemoved: 0, dropped: [], notFound: [] },
          meta: {
            callId: callId ?? `${operation}-${started}`,
            fromCache: false,
            fetchedAt: started,
            httpStatus: res.status,
            credits: creditsFor({ operation, httpStatus: res.status, items: items.length }, settings.prices),
            durationMs: deps.now() - started,
            attempts: 1,
          },
        };
      },
      cancel: () => ({ cancelled: false }),
    },
    credentials: {
      status,
      set: ({ key: k }) => {
        key = k;
        return status();
      },
      clear: () => {
        key = undefined;
        return status();
      },
    },
    settings: {
      get: () => settings,
      update: (patch) => (settings = { ...settings, ...patch }),
    },
    usage: { get: usage, reset: usage },
    cache: { clear: () => ({ cleared: 0 }) },
  };
}
