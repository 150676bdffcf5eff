/**
 * Keeping the media of a set of posts: each URL not kept yet is fetched (fetch.ts), a few at a time, and every
 * fetch recorded in the project (tables/). A URL already kept is never fetched again, so keeping again stores
 * no byte and costs no request, and a run that was cancelled or cut off is resumed by keeping again: what
 * failed is tried once more, what was kept is not.
 *
 * Hashing happens as the bytes arrive (a few kilobytes at a time), so main's event loop only ever waits for
 * one chunk; nothing reads a whole file into memory.
 */
import { mkdir } from 'node:fs/promises';
import { fetchMedia, type FetchPolicy } from './fetch';
import { uniqueByUrl, type Candidate } from './plan';
import {
  timestampRun,
  type KeptToken,
  type ManifestEntry,
  type TimestampOutcome,
  type TimestampRecord,
  type TimestampSettings,
} from '../timestamp';
import type { FetchRecord, KeptFileRow, KeptMedia, KeptUse } from './tables/tables';

/** What keeping needs of the project's media tables (the part's calls, across the archive's thread). */
export interface MediaStore {
  recordFetch: (r: FetchRecord) => Promise<boolean>;
  keptUrls: (urls: readonly string[]) => Promise<string[]>;
  files: () => Promise<KeptFileRow[]>;
  file: (sha256: string) => Promise<KeptFileRow | null>;
  keptFor: (postIds: readonly string[]) => Promise<KeptMedia[]>;
  summary: () => Promise<{ files: number; bytes: number }>;
  usesOf: (sha256s: readonly string[]) => Promise<KeptUse[]>;
  recordTimestamp: (r: TimestampRecord) => Promise<void>;
  tokens: () => Promise<KeptToken[]>;
}

export interface KeepDeps {
  store: MediaStore;
  /** the project's media folder */
  folder: string;
  policy: FetchPolicy;
  now: () => number;
  /** fetches at once */
  concurrency?: number;
  /** trusted time for what a run keeps (absent: none is asked for, as in tests of keeping alone) */
  timestamp?: TimestampSettings;
}

export interface KeepProgress {
  /** files to fetch this time (those kept before are not counted) */
  total: number;
  done: number;
  /** files fetched whole (new or already in the folder) */
  kept: number;
  /** bytes new to the folder */
  storedBytes: number;
  failed: number;
  /** failures by reason */
  reasons: Partial<Record<string, number>>;
}

export interface KeepResult extends KeepProgress {
  alreadyKept: number;
  cancelled: boolean;
  /** the run's manifest and its token, or why there is none; null when the run kept nothing to timestamp */
  timestamp: TimestampOutcome | null;
}

export async function keepMedia(
  candidates: readonly Candidate[],
  deps: KeepDeps,
  signal?: AbortSignal,
  onProgress?: (p: KeepProgress) => void,
): Promise<KeepResult> {
  await mkdir(deps.folder, { recursive: true });
  const unique = uniqueByUrl(candidates);
  const kept = new Set(await deps.store.keptUrls(unique.map((c) => c.url)));
  const todo = unique.filter((c) => !kept.has(c.url));
  const p: KeepProgress = { total: todo.length, done: 0, kept: 0, storedBytes: 0, failed: 0, reasons: {} };
  const entries: ManifestEntry[] = [];
  onProgress?.({ ...p });
  let next = 0;
  const work = async () => {
    while (next < todo.length && !signal?.aborted) {
      const c = todo[next++] as Candidate;
      const out = await fetchMedia(c.url, deps.folder, deps.policy, signal);
      if (!out.ok && out.reason === 'cancelled') return;
      await deps.store.recordFetch({
        url: c.url,
        postId: c.postId,
        mediaKey: c.mediaKey,
        at: deps.now(),
        status: out.status,
        file: out.ok ? { sha256: out.sha256, size: out.size, mime: out.mime, name: out.name } : null,
        reason: out.ok ? null : out.reason,
        message: out.ok ? null : out.message,
      });
      p.done++;
      if (out.ok) {
        entries.push({ sha256: out.sha256, size: out.size, url: c.url });
        p.kept++;
        if (out.stored) p.storedBytes += out.size;
      } else {
        p.failed++;
        p.reasons[out.reason] = (p.reasons[out.reason] ?? 0) + 1;
      }
      onProgress?.({ ...p, reasons: { ...p.reasons } });
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, deps.concurrency ?? 4) }, work));
  // what a cancelled run kept is timestamped too: keeping again never fetches it, so it would never be
  const timestamp =
    deps.timestamp && entries.length > 0
      ? await timestampRun(entries, deps.timestamp, deps.store, deps.folder, deps.now)
      : null;
  return { ...p, alreadyKept: unique.length - todo.length, cancelled: signal?.aborted ?? false, timestamp };
}
