/**
 * Verifying what a project kept: every file re-hashed from the disk and compared with the hash recorded when it
 * was kept. A file whose bytes changed, or that is gone, is reported by name; the check reads each file as a
 * stream, never whole.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { MediaStore } from './keep';

export interface VerifyReport {
  checked: number;
  /** files whose bytes no longer hash to what was recorded */
  changed: { name: string; expected: string; found: string }[];
  /** files recorded but not in the media folder */
  missing: { name: string }[];
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

export async function verifyMedia(store: Pick<MediaStore, 'files'>, folder: string): Promise<VerifyReport> {
  const report: VerifyReport = { checked: 0, changed: [], missing: [] };
  for (const f of await store.files()) {
    report.checked++;
    const found = await hashOf(join(folder, f.name));
    if (found === null) report.missing.push({ name: f.name });
    else if (found !== f.sha256) report.changed.push({ name: f.name, expected: f.sha256, found });
  }
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
