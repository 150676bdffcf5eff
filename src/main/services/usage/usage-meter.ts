/**
 * The usage meter: every request Skein sends is recorded (operation, a
 * digest of its params, time, HTTP status, items, charged or not, estimated
 * credits from the user's price table through the shared `creditsFor`, the
 * same function the sandbox bills with). Answers from the response store are
 * listed but are not requests: 0 credits, not counted as calls. Retries are
 * requests, and counted, because the service bills them.
 *
 * Session totals live in memory; lifetime totals persist (`conf`) and count
 * live-mode requests only: demo requests cost nothing real.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { creditsFor, isCharged, type PriceTable } from '../../../shared/api/pricing';
import type { OperationId } from '../../../shared/api/catalog';
import type { Mode } from '../../../shared/ipc/app';
import type { UsageCall, UsageSnapshot } from '../../../shared/ipc/settings';
import type { AttemptRecord, UsageSink } from '../api/client';
import { openJsonStore } from '../settings/json-store';
import { callSubject, PageNumbers } from './call-subject';

export interface UsageMeterOptions {
  /** folder of the lifetime totals file; omit to keep them in memory */
  dir?: string;
  prices(): PriceTable;
  mode(): Mode;
  /** how many recent calls the snapshot lists */
  recentMax?: number;
}

export interface UsageMeter extends UsageSink {
  snapshot(): UsageSnapshot;
  /** zero the session (lifetime totals are kept) */
  reset(): UsageSnapshot;
}

const Lifetime = z.object({ calls: z.number().int().nonnegative(), credits: z.number().nonnegative() });
type Lifetime = z.infer<typeof Lifetime>;

export function paramsDigest(operation: OperationId, paramsKey: string, cursor: string | null): string {
  return createHash('sha256').update(`${operation}\u0000${paramsKey}\u0000${cursor ?? ''}`).digest('hex').slice(0, 12);
}

interface RecentCall {
  rec: AttemptRecord;
  charged: boolean;
  credits: number;
  /** which page of its list (numbered when recorded, in the order asked) */
  page: number;
  /** the listed form, made once (a SHA-256 per call is kept off the data path) */
  call: UsageCall | null;
}

function listed(r: RecentCall): UsageCall {
  r.call ??= {
    operation: r.rec.operation,
    paramsDigest: paramsDigest(r.rec.operation, r.rec.paramsKey, r.rec.cursor),
    at: r.rec.at,
    httpStatus: r.rec.httpStatus,
    items: r.rec.items,
    charged: r.charged,
    credits: r.credits,
    fromCache: r.rec.fromCache,
    subject: callSubject(r.rec.operation, r.rec.paramsKey, r.page),
  };
  return r.call;
}

export function createUsageMeter(opts: UsageMeterOptions): UsageMeter {
  const recentMax = opts.recentMax ?? 100;
  const file = openJsonStore<{ lifetime: Lifetime }>(opts.dir, 'usage');
  const stored = Lifetime.safeParse(file.read().lifetime);
  let lifetime: Lifetime = stored.success ? stored.data : { calls: 0, credits: 0 };
  let session = { calls: 0, credits: 0 };
  let byOp = new Map<OperationId, { calls: number; credits: number }>();
  /** newest first; the digest is computed when a snapshot first lists the call, not on the data path */
  let recent: RecentCall[] = [];
  const pages = new PageNumbers();

  const usd = (credits: number) => credits / opts.prices().creditsPerUsd;
  const totals = (t: { calls: number; credits: number }) => ({ calls: t.calls, credits: t.credits, usd: usd(t.credits) });

  function snapshot(): UsageSnapshot {
    return {
      session: totals(session),
      lifetime: totals(lifetime),
      byOperation: [...byOp.entries()].map(([operation, t]) => ({ operation, ...t })).sort((a, b) => b.credits - a.credits || b.calls - a.calls),
      recent: recent.map(listed),
    };
  }

  return {
    record(rec: AttemptRecord): number {
      const charged = !rec.fromCache && isCharged(rec.httpStatus);
      const credits = rec.fromCache
        ? 0
        : creditsFor({ operation: rec.operation, httpStatus: rec.httpStatus, items: rec.items, ...(rec.idsAsked !== undefined ? { idsAsked: rec.idsAsked } : {}) }, opts.prices());
      recent.unshift({ rec, charged, credits, page: pages.of(rec.operation, rec.paramsKey, rec.cursor), call: null });
      if (recent.length > recentMax) recent.length = recentMax;
      if (rec.fromCache) return 0;
      session = { calls: session.calls + 1, credits: session.credits + credits };
      const op = byOp.get(rec.operation) ?? { calls: 0, credits: 0 };
      byOp.set(rec.operation, { calls: op.calls + 1, credits: op.credits + credits });
      if (opts.mode() === 'live') {
        lifetime = { calls: lifetime.calls + 1, credits: lifetime.credits + credits };
        try {
          file.write({ lifetime });
        } catch {
          // lifetime totals are a convenience: a full disk must not fail the call
        }
      }
      return credits;
    },
    snapshot,
    reset() {
      session = { calls: 0, credits: 0 };
      byOp = new Map();
      recent = [];
      return snapshot();
    },
  };
}
