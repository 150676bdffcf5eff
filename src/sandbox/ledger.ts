/**
 * What the sandbox saw and charged. The ledger prices every `/social/` call
 * with the shared `creditsFor`, the same function the app's meter uses, so a
 * test can compare the two. Both keep their newest entries only (totals are
 * exact regardless).
 */
import { creditsFor, creditsToUsd, DEFAULT_PRICES, type OperationId, type PriceTable } from '../shared/api';

export interface LedgerEntry {
  seq: number;
  /** sandbox clock, epoch ms */
  at: number;
  operation: OperationId;
  /** HTTP status; 0 when the request was never answered (hang, reset) */
  status: number;
  /** items in the answer's collection (1 for a `data` object, 0 for errors and unreadable bodies) */
  items: number;
  /** ids asked for, batch lookups only */
  idsAsked?: number;
  credits: number;
  faults?: string[];
}

interface Totals {
  calls: number;
  credits: number;
  usd: number;
  items: number;
  byOperation: Partial<Record<OperationId, { calls: number; credits: number; items: number }>>;
}

export class UsageLedger {
  private entries: LedgerEntry[] = [];
  private seq = 0;
  private totals: Totals = emptyTotals();

  constructor(
    readonly prices: PriceTable = DEFAULT_PRICES,
    private readonly keep = 10_000,
  ) {}

  record(e: Omit<LedgerEntry, 'seq' | 'credits'>): LedgerEntry {
    const credits = creditsFor(
      { operation: e.operation, httpStatus: e.status, items: e.items, idsAsked: e.idsAsked },
      this.prices,
    );
    const entry: LedgerEntry = { seq: ++this.seq, ...e, credits };
    this.entries.push(entry);
    if (this.entries.length > this.keep * 1.5) this.entries = this.entries.slice(-this.keep);
    const t = this.totals;
    t.calls++;
    t.credits += credits;
    t.items += e.items;
    const op = (t.byOperation[e.operation] ??= { calls: 0, credits: 0, items: 0 });
    op.calls++;
    op.credits += credits;
    op.items += e.items;
    return entry;
  }

  snapshot(): { calls: LedgerEntry[]; totals: Totals; prices: PriceTable } {
    return {
      calls: this.entries.slice(-this.keep),
      totals: { ...this.totals, usd: creditsToUsd(this.totals.credits, this.prices) },
      prices: this.prices,
    };
  }

  reset(): void {
    this.entries = [];
    this.totals = emptyTotals();
  }
}

function emptyTotals(): Totals {
  return { calls: 0, credits: 0, usd: 0, items: 0, byOperation: {} };
}

export interface RequestLogEntry {
  seq: number;
  at: number;
  method: string;
  url: string;
  operation: OperationId | null;
  status: number;
  ms: number;
  /** whether an x-api-key header came (its value is never kept) */
  key: 'none' | 'sent';
  faults?: string[];
}

export class RequestLog {
  private entries: RequestLogEntry[] = [];
  private seq = 0;

  constructor(private readonly keep = 2_000) {}

  add(e: Omit<RequestLogEntry, 'seq'>): void {
    this.entries.push({ seq: ++this.seq, ...e });
    if (this.entries.length > this.keep * 1.5) this.entries = this.entries.slice(-this.keep);
  }

  list(): RequestLogEntry[] {
    return this.entries.slice(-this.keep);
  }

  clear(): void {
    this.entries = [];
  }
}

export interface MediaLogEntry {
  seq: number;
  at: number;
  /** the path and query asked for */
  url: string;
  status: number;
  /** who asked (its User-Agent): the page showing a photo, or Skein keeping it */
  agent: string;
}

/** The media files asked for, newest last, the last 10,000 kept. */
export class MediaLog {
  private entries: MediaLogEntry[] = [];
  private seq = 0;

  add(e: Omit<MediaLogEntry, 'seq'>): void {
    this.entries.push({ seq: ++this.seq, ...e });
    if (this.entries.length > 15_000) this.entries = this.entries.slice(-10_000);
  }

  list(): MediaLogEntry[] {
    return this.entries.slice(-10_000);
  }

  clear(): void {
    this.entries = [];
  }
}
