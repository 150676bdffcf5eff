/**
 * Verifying what a project kept: every file re-hashed from the disk and compared with the hash recorded when it
 * was kept. A file whose bytes changed, or that is gone, is reported by name; the check reads each file as a
 * stream, never whole.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
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
