import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ArchiveProject } from './project';

const CHILD = join(dirname(fileURLToPath(import.meta.url)), 'testing', 'ingest-child.ts');
const PAGES = 40;
const POSTS_PER_BATCH = PAGES * 20;

let dir: string;
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'skein-crash-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the ingesting child and kills it (SIGKILL) right after batch `after` is committed, with the next one under way. */
function ingestThenKill(path: string, after: number): Promise<{ committed: number; where: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, path, String(PAGES)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    let result: { committed: number; where: string } | null = null;
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const matches = [...out.matchAll(/committed (\d+) (\w+)/g)];
      const last = matches.at(-1);
      if (!result && last && Number(last[1]) >= after) {
        result = { committed: Number(last[1]), where: last[2] ?? '' };
        child.kill('SIGKILL');
      }
    });
    child.once('exit', () => (result ? resolve(result) : reject(new Error(`the child ended early: ${out}`))));
  });
}

describe('crash safety', () => {
  it(
    'kill -9 mid-ingest loses at most the batch under way and never damages the file',
    { timeout: 60_000 },
    async () => {
      const path = join(dir, 'crash.skein');
      const { committed, where } = await ingestThenKill(path, 3);
      expect(where).toBe('worker');
      const check = new DatabaseSync(path, { readOnly: true });
      expect(check.prepare('PRAGMA quick_check').get()).toEqual({ quick_check: 'ok' });
      check.close();
      // it opens again, and holds every committed batch whole: nothing half-written
      const p = new ArchiveProject(path, { name: 'x', kind: 'live', now: 0 });
      const { items, requests } = p.summary();
      expect(items).toBeGreaterThanOrEqual((committed + 1) * POSTS_PER_BATCH);
      expect(items).toBeLessThanOrEqual((committed + 2) * POSTS_PER_BATCH);
      expect(items % 20).toBe(0);
      expect(items).toBe(requests * 20);
      p.close();
    },
  );
});
