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
 *
 * Spending cannot be hidden: live credits of the last hour are kept apart
 * from the session (a reset does not touch them; the hourly budget reads
 * them), and resets, price edits, pace and budget changes are kept in a
 * persisted history that the usage view lists.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { creditsFor, isCharged, type PriceTable } from '../../../shared/api/pricing';
import type { OperationId } from '../../../shared/api/catalog';
import type { Mode } from '../../../shared/ipc/app';
import { UsageEvent, type UsageCall, type UsageSnapshot } from '../../../shared/ipc/settings';
import type { AttemptRecord, UsageSink } from '../../api';
import { openJsonStore } from '../../files/json-store';
import { recordFields } from '../../files/unread-record';
import { callSubject, PageNumbers } from './call-subject';

export interface UsageMeterOptions {
  /** folder of the lifetime totals file; omit to keep them in memory */
  dir?: string;
  prices: () => PriceTable;
  mode: () => Mode;
  /** how many recent calls the snapshot lists */
  recentMax?: number;
  /** epoch ms (the history's and the hourly window's clock); default Date.now */
  now?: () => number;
  /** the hourly credit budget the snapshot reports against */
  budget?: () => number;
}

export interface UsageMeter extends UsageSink {
  snapshot: () => UsageSnapshot;
  /** zero the session (lifetime totals, the last hour's spending and the history are kept; the reset is recorded) */
  reset: () => UsageSnapshot;
  /** live credits charged since `epochMs` */
  spentSince: (epochMs: number) => number;
  /** when spending within `windowMs` falls under `budget` again (null: it is under already) */
  budgetFreesAt: (windowMs: number, budget: number) => number | null;
  /** record a change of how spending is counted or limited */
  note: (kind: UsageEvent['kind'], detail: string) => void;
}

const HISTORY_MAX = 200;
const HOUR_MS = 60 * 60 * 1000;

const Lifetime = z.object({ calls: z.number().int().nonnegative(), credits: z.number().nonnegative() });
type Lifetime = z.infer<typeof Lifetime>;
/**
 * totals this Skein could not read, as the file had them, and when it began counting again; totals damaged again
 * keep the ones set aside before as `earlier` (as they were), so nothing a person could still add up is lost
 */
const LifetimeUnread = z.looseObject({
  value: z.unknown(),
  since: UsageEvent.shape.at,
  earlier: z.unknown().optional(),
});
type LifetimeUnread = z.infer<typeof LifetimeUnread>;
interface UsageFile extends Record<string, unknown> {
  lifetime: Lifetime;
  history?: unknown[];
  lifetimeUnread?: LifetimeUnread;
}

/** A change of the history as the file keeps it (written back as it was), and as it is shown (null: unreadable). */
interface KeptEvent {
  written: unknown;
  shown: UsageEvent | null;
}

/**
 * A change another Skein recorded: one of a kind this Skein has no word for (a newer Skein's) is shown by its time
 * and words as `other`; a damaged one is counted, not shown. Both are written back as they were.
 */
function keptEvent(written: unknown): KeptEvent {
  const read = UsageEvent.safeParse(written);
  if (read.success) return { written, shown: read.data };
  const other = UsageEvent.safeParse({ ...(typeof written === 'object' ? written : {}), kind: 'other' });
  return { written, shown: other.success ? other.data : null };
}

export function paramsDigest(operation: OperationId, paramsKey: string, cursor: string | null): string {
  return createHash('sha256')
    .update(`${operation}\u0000${paramsKey}\u0000${cursor ?? ''}`)
    .digest('hex')
    .slice(0, 12);
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
  const now = opts.now ?? Date.now;
  const file = openJsonStore<UsageFile>(opts.dir, 'usage', { owns: ['lifetime', 'history'] });
  const onDisk = file.read();
  const stored = Lifetime.safeParse(onDisk.lifetime);
  let lifetime: Lifetime = stored.success ? stored.data : { calls: 0, credits: 0 };
  /** what a newer Skein keeps beside the totals (written back as it was) */
  const lifetimeOthers = stored.success ? recordFields(onDisk.lifetime) : {};
  /**
   * totals this Skein could not read (damaged): kept in the file as they were, beside the totals counted since, so
   * that a person can still add them up; the view says from when its totals count
   */
  const lifetimeUnread: LifetimeUnread | undefined =
    onDisk.lifetime !== undefined && !stored.success
      ? {
          value: onDisk.lifetime,
          since: now(),
          ...(onDisk.lifetimeUnread !== undefined ? { earlier: onDisk.lifetimeUnread } : {}),
        }
      : LifetimeUnread.safeParse(onDisk.lifetimeUnread).data;
  const history: KeptEvent[] = (Array.isArray(onDisk.history) ? onDisk.history : [])
    .slice(0, HISTORY_MAX)
    .map(keptEvent);
  /** live charges, oldest first, pruned past an hour */
  const spending: Array<{ at: number; credits: number }> = [];
  const prune = () => {
    const cutoff = now() - HOUR_MS;
    let i = 0;
    while (i < spending.length && (spending[i]?.at ?? 0) < cutoff) i++;
    if (i > 0) spending.splice(0, i);
  };
  const persist = () => {
    try {
      file.write({
        lifetime: { ...lifetimeOthers, ...lifetime },
        history: history.map((e) => e.written),
        ...(lifetimeUnread ? { lifetimeUnread } : {}),
      });
    } catch {
      // lifetime totals are a convenience: a full disk must not fail the call
    }
  };
  // damaged totals are set aside at once, so that the time counting began again stays the same across starts
  if (onDisk.lifetime !== undefined && !stored.success) persist();
  const spentSince = (epochMs: number) => {
    prune();
    let sum = 0;
    for (const s of spending) if (s.at >= epochMs) sum += s.credits;
    return sum;
  };
  let session = { calls: 0, credits: 0 };
  let byOp = new Map<OperationId, { calls: number; credits: number }>();
  /** newest first; the digest is computed when a snapshot first lists the call, not on the data path */
  let recent: RecentCall[] = [];
  const pages = new PageNumbers();

  const usd = (credits: number) => credits / opts.prices().creditsPerUsd;
  const totals = (t: { calls: number; credits: number }) => ({
    calls: t.calls,
    credits: t.credits,
    usd: usd(t.credits),
  });

  function snapshot(): UsageSnapshot {
    return {
      session: totals(session),
      lifetime: totals(lifetime),
      byOperation: [...byOp.entries()]
        .map(([operation, t]) => ({ operation, ...t }))
        .sort((a, b) => b.credits - a.credits || b.calls - a.calls),
      recent: recent.map(listed),
      lastHour: opts.budget ? { credits: spentSince(now() - HOUR_MS), budget: opts.budget() } : undefined,
      history: history.flatMap((e) => (e.shown ? [e.shown] : [])),
      historyUnread: history.filter((e) => !e.shown).length,
      ...(lifetimeUnread ? { lifetimeSince: lifetimeUnread.since } : {}),
    };
  }

  function note(kind: UsageEvent['kind'], detail: string): void {
    const event: UsageEvent = { at: now(), kind, detail };
    history.unshift({ written: event, shown: event });
    if (history.length > HISTORY_MAX) history.length = HISTORY_MAX;
    persist();
  }

  return {
    record(rec: AttemptRecord): number {
      const charged = !rec.fromCache && isCharged(rec.httpStatus);
      // an attempt is a charge as the shared price table reads it (operation, status, items, ids asked)
      const credits = rec.fromCache ? 0 : creditsFor(rec, opts.prices());
      recent.unshift({ rec, charged, credits, page: pages.of(rec.operation, rec.paramsKey, rec.cursor), call: null });
      if (recent.length > recentMax) recent.length = recentMax;
      if (rec.fromCache) return 0;
      session = { calls: session.calls + 1, credits: session.credits + credits };
      const op = byOp.get(rec.operation) ?? { calls: 0, credits: 0 };
      byOp.set(rec.operation, { calls: op.calls + 1, credits: op.credits + credits });
      if (opts.mode() === 'live') {
        lifetime = { calls: lifetime.calls + 1, credits: lifetime.credits + credits };
        if (credits > 0) spending.push({ at: now(), credits });
        persist();
      }
      return credits;
    },
    snapshot,
    spentSince,
    budgetFreesAt(windowMs, budget) {
      let spent = spentSince(now() - windowMs);
      if (spent < budget) return null;
      for (const s of spending) {
        spent -= s.credits;
        if (spent < budget) return s.at + windowMs;
      }
      return null;
    },
    note,
    reset() {
      note(
        'reset',
        `Session counters reset (${session.calls} calls, ${session.credits.toLocaleString('en-US')} credits this session).`,
      );
      session = { calls: 0, credits: 0 };
      byOp = new Map();
      recent = [];
      return snapshot();
    },
  };
}
