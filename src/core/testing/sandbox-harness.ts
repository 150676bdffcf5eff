/**
 * Tests against the real sandbox: a client pointed at a fresh sandbox on an
 * ephemeral port, a fault header per request (what the sandbox calls
 * per-request injection), and the control plane (ledger, request log).
 */
import { startSandbox, type Sandbox, type LedgerEntry, type RequestLogEntry } from '../../sandbox';
import { createApiClient, type UsageSink } from '../api/client';
import type { RequestPolicy } from '../api/execute';
import { createRateLimiter, type RateLimiter } from '../api/policy/rate-limiter';
import type { FetchLike } from '../api/transport';
import type { AnswerArchive } from '../api/types';
import type { Clock } from '../ports';
import { FakeClock } from './fake-clock';

export interface HarnessOptions {
  requiredKey?: string;
  key?: string | null;
  clock?: Clock;
  rps?: number;
  policy?: Partial<RequestPolicy>;
  usage?: UsageSink;
  /** base URL override (e.g. a wrong path prefix) */
  baseUrl?: (sandboxUrl: string) => string;
  seed?: number;
  /** the project the client records into and reads held answers from */
  archive?: AnswerArchive;
}

export interface Harness {
  sandbox: Sandbox;
  client: ReturnType<typeof createApiClient>;
  clock: Clock;
  limiter: RateLimiter;
  /** `x-sandbox-fault` sent with the following requests (undefined: none) */
  fault: (spec: string | undefined) => void;
  /** virtual time at which each request left */
  sentAt: number[];
  ledger: () => Promise<{ calls: LedgerEntry[]; totals: { calls: number; credits: number } }>;
  requests: () => Promise<RequestLogEntry[]>;
  close: () => Promise<void>;
}

export async function sandboxHarness(opts: HarnessOptions = {}): Promise<Harness> {
  const sandbox = await startSandbox({
    port: 0,
    size: 'small',
    seed: opts.seed ?? 1,
    requiredKey: opts.requiredKey,
  });
  const clock = opts.clock ?? new FakeClock(undefined, { autoAdvance: true });
  const limiter = createRateLimiter(clock, opts.rps ?? Infinity);
  let fault: string | undefined;
  const sentAt: number[] = [];
  const doFetch: FetchLike = (url, init) => {
    sentAt.push(clock.now());
    const headers = { ...(init.headers as Record<string, string>), ...(fault ? { 'x-sandbox-fault': fault } : {}) };
    return fetch(url, { ...init, headers });
  };
  const key = opts.key === undefined ? (opts.requiredKey ?? null) : opts.key;
  const client = createApiClient({
    target: async () => ({ baseUrl: opts.baseUrl ? opts.baseUrl(sandbox.baseUrl) : sandbox.baseUrl, key, limiter }),
    fetch: doFetch,
    clock,
    random: () => 0.5,
    policy: opts.policy,
    usage: opts.usage,
    ...(opts.archive ? { archive: opts.archive } : {}),
  });
  const control = async <T>(path: string): Promise<T> => (await (await fetch(`${sandbox.baseUrl}${path}`)).json()) as T;
  return {
    sandbox,
    client,
    clock,
    limiter,
    fault: (spec) => {
      fault = spec;
    },
    sentAt,
    ledger: () => control('/__sandbox/usage'),
    requests: async () => (await control<{ requests: RequestLogEntry[] }>('/__sandbox/requests')).requests,
    close: () => sandbox.close(),
  };
}

/** wait until `cond` holds, checking after each turn of the event loop (no timers) */
export async function until(cond: () => boolean | Promise<boolean>, turns = 10_000): Promise<void> {
  for (let i = 0; i < turns; i++) {
    if (await cond()) return;
    await new Promise<void>((r) => setImmediate(r));
  }
  throw new Error('condition not met');
}
