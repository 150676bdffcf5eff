/**
 * Main's response store: answers kept by operation + params + cursor so that
 * going back, re-opening a view or dropping and re-reading pages never pays
 * twice. First pages (and objects) are served while fresh (`STALE_TIME_MS`
 * per operation; spaces 0 = never); later pages belong to the snapshot their
 * first page started and are kept until that first page is fetched again or
 * the store runs out of room (LRU by bytes).
 *
 * With a spill folder, what runs out of room in memory goes to disk instead of
 * away (one file per answer, structured-clone bytes) and comes back from there:
 * a reader who scrolls back through a 100,000-post thread gets every page again
 * without paying, and main's memory stays within `maxBytes`. The folder is
 * emptied at start and by `clear()`; it is bounded too (`maxBytes` of the spill).
 * Reads and writes are synchronous and small (one page, ~1 ms).
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { LRUCache } from 'lru-cache';
import type { OperationId } from '../../shared/api/catalog';
import { STALE_TIME_MS } from '../../shared/api/cache-policy';
import type { NormalizedPage } from '../../shared/api/normalize/page';

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
const DEFAULT_SPILL_BYTES = 1024 * 1024 * 1024;

export interface SpillOptions {
  /** a folder of its own: emptied at start */
  dir: string;
  /** bytes on disk before the oldest spilled answers go (default 1 GiB) */
  maxBytes?: number;
}

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
  /** answers on disk, oldest first: key → file and size */
  private readonly spilled = new Map<string, { file: string; bytes: number }>();
  private spilledBytes = 0;
  private readonly spill: Required<SpillOptions> | null;

  constructor(maxBytes = DEFAULT_STORE_BYTES, spill?: SpillOptions) {
    this.spill = spill ? { dir: spill.dir, maxBytes: spill.maxBytes ?? DEFAULT_SPILL_BYTES } : null;
    if (this.spill) {
      rmSync(this.spill.dir, { recursive: true, force: true });
      mkdirSync(this.spill.dir, { recursive: true });
    }
    this.lru = new LRUCache<string, StoredAnswer>({
      maxSize: maxBytes,
      sizeCalculation: (a) => Math.max(1, a.bytes),
      dispose: (a, key, reason) => {
        // out of room in memory: to disk, still indexed
        if (reason === 'evict' && this.spill) {
          this.toDisk(key, a);
          return;
        }
        // 'set' = replaced by a newer answer under the same key: still indexed
        if (a.cursor === null || reason === 'set') return;
        this.unindex(key, a);
      },
    });
  }

  get size(): number {
    return this.lru.size + this.spilled.size;
  }

  /** A stored answer still good to serve at `now`, or undefined. */
  get(operation: OperationId, paramsKey: string, cursor: string | null, now: number): StoredAnswer | undefined {
    const key = entryKey(operation, paramsKey, cursor);
    const hit = this.lru.get(key) ?? this.fromDisk(key);
    if (!hit) return undefined;
    if (cursor !== null) return hit;
    if (now - hit.fetchedAt < STALE_TIME_MS[operation]) return hit;
    return undefined;
  }

  /** Keep without serving-rule checks: the pages of a view in paging order, from the first. */
  peek(operation: OperationId, paramsKey: string, cursor: string | null): StoredAnswer | undefined {
    const key = entryKey(operation, paramsKey, cursor);
    return this.lru.peek(key) ?? this.fromDisk(key);
  }

  /** Keep an answer; a new first page starts a new snapshot, unless it is the same view's page asked again (`sameSnapshot`). */
  put(answer: StoredAnswer, options: { sameSnapshot?: boolean } = {}): void {
    const id = viewId(answer.operation, answer.paramsKey);
    const key = entryKey(answer.operation, answer.paramsKey, answer.cursor);
    if (answer.cursor === null) {
      // a new first page starts a new snapshot: the old later pages no longer belong to it
      if (!options.sameSnapshot) {
        for (const k of [...(this.pagesOf.get(id) ?? [])]) {
          this.lru.delete(k);
          this.dropFromDisk(k);
        }
        this.pagesOf.delete(id);
      }
    } else {
      let set = this.pagesOf.get(id);
      if (!set) this.pagesOf.set(id, (set = new Set()));
      set.add(key);
    }
    this.dropFromDisk(key);
    this.lru.set(key, answer);
  }

  /** Drop one answer (the later pages of a first page stay); true when there was one. */
  delete(operation: OperationId, paramsKey: string, cursor: string | null): boolean {
    const key = entryKey(operation, paramsKey, cursor);
    const had = this.lru.has(key) || this.spilled.has(key);
    this.lru.delete(key);
    this.dropFromDisk(key);
    return had;
  }

  /** Drop everything; returns how many answers were dropped. */
  clear(): number {
    const n = this.size;
    this.lru.clear();
    this.pagesOf.clear();
    for (const key of [...this.spilled.keys()]) this.dropFromDisk(key);
    return n;
  }

  private unindex(key: string, a: StoredAnswer): void {
    const id = viewId(a.operation, a.paramsKey);
    const set = this.pagesOf.get(id);
    set?.delete(key);
    if (set?.size === 0) this.pagesOf.delete(id);
  }

  private toDisk(key: string, a: StoredAnswer): void {
    const spill = this.spill!;
    const file = join(spill.dir, `${createHash('sha256').update(key).digest('hex').slice(0, 40)}.v8`);
    this.dropFromDisk(key);
    try {
      const bytes = serialize(a);
      writeFileSync(file, bytes);
      this.spilled.set(key, { file, bytes: bytes.length });
      this.spilledBytes += bytes.length;
    } catch {
      // a full or read-only disk: the answer is gone, as it would be without a spill
      if (a.cursor !== null) this.unindex(key, a);
      return;
    }
    while (this.spilledBytes > spill.maxBytes && this.spilled.size > 0)
      this.dropFromDisk(this.spilled.keys().next().value as string);
  }

  /** An answer from disk, back in memory (it may push others out to disk). */
  private fromDisk(key: string): StoredAnswer | undefined {
    const entry = this.spilled.get(key);
    if (!entry) return undefined;
    let answer: StoredAnswer;
    try {
      answer = deserialize(readFileSync(entry.file)) as StoredAnswer;
    } catch {
      this.dropFromDisk(key);
      return undefined;
    }
    this.dropFromDisk(key);
    this.lru.set(key, answer);
    return answer;
  }

  private dropFromDisk(key: string): void {
    const entry = this.spilled.get(key);
    if (!entry) return;
    this.spilled.delete(key);
    this.spilledBytes -= entry.bytes;
    rmSync(entry.file, { force: true });
  }
}
