/**
 * Verifying what a project kept: every file re-hashed from the disk and compared with the hash recorded when it
 * was kept. A file whose bytes changed, or that is gone, is reported by name; the check reads each file as a
 * stream, never whole. Then every timestamp token kept (timestamp.ts): its manifest still the bytes that were
 * timestamped, the token still the one kept and still verifying against its certificate, and every file the
 * manifest names still kept unchanged.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { MediaStore } from './keep';
import { checkTokens, type TokenProblem } from '../timestamp';
import type { KeptUse } from './tables/tables';

/** A kept file whose bytes are no longer what was kept, with the posts it was kept for. */
export interface VerifyProblem {
  name: string;
  /** the SHA-256 recorded when it was kept */
  expected: string;
  size: number;
  keptAt: number;
  /** the posts it was fetched for: post, media key, URL */
  uses: Omit<KeptUse, 'sha256'>[];
}

export interface VerifyReport {
  checked: number;
  /** the size of the files checked, as kept */
  bytes: number;
  /** files whose bytes still hash to what was recorded */
  matched: number;
  /** files whose bytes no longer hash to what was recorded */
  changed: (VerifyProblem & { found: string })[];
  /** files recorded but not in the media folder */
  missing: VerifyProblem[];
  /** the timestamp tokens checked, and those that no longer prove what they proved */
  tokens: { checked: number; problems: TokenProblem[] };
}

async function hashOf(path: string): Promise<string | null> {
  const hash = createHash('sha256');
  try {
    for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT') return null;
    throw error;
  }
  return hash.digest('hex');
}

/**
 * Every kept file re-hashed (streamed, one at a time, the event loop given back between files so a window stays
 * responsive), and each one changed or missing named with the posts it was kept for: the one check both the
 * runner's `skein verify` and the app's "Check kept files" make.
 */
export async function verifyMedia(
  store: Pick<MediaStore, 'files' | 'usesOf' | 'tokens'>,
  folder: string,
  onProgress?: (checked: number, total: number) => void,
): Promise<VerifyReport> {
  const report: VerifyReport = {
    checked: 0,
    bytes: 0,
    matched: 0,
    changed: [],
    missing: [],
    tokens: { checked: 0, problems: [] },
  };
  const files = await store.files();
  const bad: (VerifyProblem & { found: string | null })[] = [];
  const intact = new Set<string>();
  for (const f of files) {
    const found = await hashOf(join(folder, f.name));
    report.checked++;
    report.bytes += f.size;
    if (found === f.sha256) intact.add(f.sha256);
    if (found === f.sha256) report.matched++;
    else bad.push({ name: f.name, expected: f.sha256, size: f.size, keptAt: f.firstKeptAt, uses: [], found });
    onProgress?.(report.checked, files.length);
    await yieldToLoop();
  }
  const usesBy = new Map<string, VerifyProblem['uses']>();
  for (const u of await store.usesOf(bad.map((b) => b.expected))) {
    const list = usesBy.get(u.sha256) ?? [];
    list.push({ postId: u.postId, mediaKey: u.mediaKey, url: u.url });
    usesBy.set(u.sha256, list);
  }
  for (const { found, ...b } of bad) {
    b.uses = usesBy.get(b.expected) ?? [];
    if (found === null) report.missing.push(b);
    else report.changed.push({ ...b, found });
  }
  report.tokens = await checkTokens(await store.tokens(), folder, intact);
  return report;
}

/** the largest kept file the viewer is sent across the bridge (a longer video is opened from its folder) */
const VIEWABLE_BYTES = 8 * 1024 * 1024;

export interface KeptBytes {
  sha256: string;
  mime: string;
  keptAt: number;
  /** the bytes, or null when the file is missing or too large to show here */
  bytes: Buffer | null;
  /** whether the bytes on disk still hash to what was kept */
  intact: boolean;
}

/** A kept file's bytes for the viewer, read from the media folder and checked against its hash. */
export async function readKept(
  store: Pick<MediaStore, 'file'>,
  folder: string,
  sha256: string,
): Promise<KeptBytes | null> {
  const row = await store.file(sha256);
  if (!row) return null;
  const path = join(folder, row.name);
  const size = await stat(path).then(
    (s) => s.size,
    () => -1,
  );
  if (size < 0 || size > VIEWABLE_BYTES) {
    const found = size < 0 ? null : await hashOf(path);
    return { sha256, mime: row.mime, keptAt: row.firstKeptAt, bytes: null, intact: found === sha256 };
  }
  const bytes = await readFile(path);
  const intact = createHash('sha256').update(bytes).digest('hex') === sha256;
  return { sha256, mime: row.mime, keptAt: row.firstKeptAt, bytes, intact };
}
