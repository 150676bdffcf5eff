import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ArchiveQuery } from '../../shared/ipc/archive';
import type { OpenInit } from './host';
import { STORES } from './testing/stores';

const CHILD = join(dirname(fileURLToPath(import.meta.url)), 'testing', 'ingest-child.ts');
const PAGES = 40;
const POSTS_PER_BATCH = PAGES * 20;

/** Runs an ingesting child and kills it (SIGKILL) right after batch `after` is committed, with the next one under way. */
function ingestThenKill(init: OpenInit, after: number, first = 0): Promise<{ committed: number; where: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', CHILD, JSON.stringify(init), String(PAGES), String(first)],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
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

describe.each(STORES)('crash safety on $name', (s) => {
  beforeAll(() => s.setup(), 120_000);
  afterAll(() => s.teardown());
  const run = s.skip ? describe.skip : describe;

  run(`(${s.skip ?? 'running'})`, () => {
    it(
      'kill -9 mid-ingest loses at most the batch under way, never damages the project, nor what another wrote',
      { timeout: 90_000 },
      async () => {
        // a file's log is copied into it on a thread beside the writer, after each batch: killed at a few points
        for (const after of s.name === 'postgres' ? [3] : [1, 3, 6]) await killAndCheck(after);
      },
    );

    async function killAndCheck(after: number): Promise<void> {
      const init = s.fresh();
      // two writers at once on a team project (one on a file: SQLite's one writer at a time)
      const [a, b] = await Promise.all([
        ingestThenKill(init, after),
        ...(s.name === 'postgres' ? [ingestThenKill(init, 2, 10_000_000)] : []),
      ]);
      expect(a?.where).toBe('worker');
      if (init.store !== 'postgres') {
        const { DatabaseSync } = await import('node:sqlite');
        const check = new DatabaseSync(init.path, { readOnly: true });
        expect(check.prepare('PRAGMA quick_check').get()).toEqual({ quick_check: 'ok' });
        check.close();
      }
      // it opens again, and holds every committed batch whole: nothing half-written
      const p = await s.open(init);
      const { items, requests } = await p.summary();
      const committed = (a?.committed ?? 0) + 1 + (b ? b.committed + 1 : 0);
      const writers = b ? 2 : 1;
      expect(items).toBeGreaterThanOrEqual(committed * POSTS_PER_BATCH);
      expect(items).toBeLessThanOrEqual((committed + writers) * POSTS_PER_BATCH);
      expect(items % 20).toBe(0);
      expect(items).toBe(requests * 20);
      // the chart's counts hold exactly the committed posts: the chart of all of them (read from the counts)
      // equals those of replies and of the rest added up (read from the posts)
      const chart = async (over: object) => {
        const a = await p.activity(ArchiveQuery.parse(over), 'day', 0);
        return { total: a.total, undated: a.undated, dated: a.buckets.map((b) => [b.start, b.count] as const) };
      };
      const [whole, replies, rest] = [await chart({}), await chart({ reply: true }), await chart({ reply: false })];
      expect(whole.total).toBe(items);
      expect(whole.total).toBe(replies.total + rest.total);
      expect(whole.undated).toBe(replies.undated + rest.undated);
      const added = new Map<number, number>();
      for (const [start, n] of [...replies.dated, ...rest.dated]) if (n) added.set(start, (added.get(start) ?? 0) + n);
      expect(new Map(whole.dated.filter(([, n]) => n))).toEqual(added);
      await p.close();
    }
  });
});
