/**
 * Main's response store: answers kept by operation + params + cursor so that
 * going back, re-opening a view or dropping and re-reading pages never pays
 * twice. First pages (and objects) are served while fresh (`STALE_TIME_MS`
 * per operation; spaces 0 = never); later pages belong to the snapshot their
 * first page started and are kept until that first page is fetched again or
 * the store runs out of room (LRU by bytes).
 */
import { LRUCache } from 'lru-cache';
import type { OperationId } from '../../../shared/api/catalog';
import { STALE_TIME_MS } from '../../../shared/api/cache-policy';
import type { NormalizedPage } from './normalize/page';

export interface StoredAnswer {
  operation: OperationId;
  /** canonical params without cursor */
  paramsKey: string;
  cursor: string | null;
  fetchedAt: number;
  httpStatus: number;
  /** the parsed body as received */
  body: unknown;
  page: NormalizedPage;
  /** size of the body as received */
  bytes: number;
}

export const DEFAULT_STORE_BYTES = 64 * 1024 * 1024;

function viewId(operation: OperationId, paramsKey: string): string {
  return `${operation}\u0000${paramsKey}`;
}

function entryKey(operation: OperationId, paramsKey: string, cursor: string | null): string {
  return `${viewId(operation, paramsKey)}\u0000${cursor ?? ''}`;
}

export class ResponseStore {
  private readonly lru: LRUCache<string, StoredAnswer>;
  /** view → keys of its later pages */
  private readonly pagesOf = new Map<string, Set<string>>();

  constructor(maxBytes = DEFAULT_STORE_BYTES) {
    this.lru = new LRUCache<string, StoredAnswer>({
      maxSize: maxBytes,
      sizeCalculation: (a) => Math.max(1, a.bytes),
      dispose: (a, key, reason) => {
        // 'set' = replaced by a newer answer under the same key: still indexed
        if (a.cursor === null || reason === 'set') return;
        const id = viewId(a.operation, a.paramsKey);
        const set = this.pagesOf.get(id);
        set?.delete(key);
        if (set?.size === 0) this.pagesOf.delete(id);
      },
    });
  }

  get size(): number {
    return this.lru.size;
  }

  /** A stored answer still good to serve at `now`, or undefined. */
  get(operation: OperationId, paramsKey: string, cursor: string | null, now: number): StoredAnswer | undefined {
    const key = entryKey(operation, paramsKey, cursor);
    const hit = this.lru.get(key);
    if (!hit) return undefined;
    if (cursor !== null) return hit;
    if (now - hit.fetchedAt < STALE_TIME_MS[operation]) return hit;
    return undefined;
  }

  /** Keep without serving-rule checks: the pages of a view in paging order, from the first. */
  peek(operation: OperationId, paramsKey: string, cursor: string | null): StoredAnswer | undefined {
    return this.lru.peek(entryKey(operation, paramsKey, cursor));
  }

  put(answer: StoredAnswer): void {
    const id = viewId(answer.operation, answer.paramsKey);
    const key = entryKey(answer.operation, answer.paramsKey, answer.cursor);
    if (answer.cursor === null) {
      // a new first page starts a new snapshot: the old later pages no longer belong to it
      for (const k of [...(this.pagesOf.get(id) ?? [])]) this.lru.delete(k);
      this.pagesOf.delete(id);
    } else {
      let set = this.pagesOf.get(id);
      if (!set) this.pagesOf.set(id, (set = new Set()));
      set.add(key);
    }
    this.lru.set(key, answer);
  }

  /** Drop everything; returns how many answers were dropped. */
  clear(): number {
    const n = this.lru.size;
    this.lru.clear();
    this.pagesOf.clear();
    return n;
  }
}
