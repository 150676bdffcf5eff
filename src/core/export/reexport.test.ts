/**
 * A re-export reads the archive in chunks while it writes: every item once, in the archive's order,
 * across chunk boundaries, with the worker's reader closed at the end (a stand-in thread counts the calls).
 */
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ArchiveQuery } from '../../shared/ipc/archive';
import { reexport } from './from-archive';
import type { ArchiveThread } from '../archive';
import { archiveSource } from '../compose/archive-reader';

function fakeThread(count: number) {
  const calls: string[] = [];
  let next = 0;
  const thread = {
    inWorker: true,
    ingest: () => undefined,
    close: async () => undefined,
    call: async (method: string, ...args: unknown[]) => {
      calls.push(method);
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (method === 'readOpen') return 7;
      if (method === 'readNext') {
        const max = args[1] as number;
        const rows = [];
        for (; rows.length < max && next < count; next++)
          rows.push({ id: String(next), raw: JSON.stringify({ id: String(next), text: `post ${next}` }), place: null });
        return rows;
      }
      return undefined;
    },
  };
  // wired as core/index.ts wires the archive's thread
  return { thread: archiveSource(thread as unknown as ArchiveThread), calls };
}

describe('reexport', () => {
  it('writes every item once and in order across chunks, asking for the next chunk while it writes', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'skein-reexport-unit-'));
    const target = join(dir, 'all.jsonl');
    const { thread, calls } = fakeThread(2_500);
    const { items } = await reexport(thread, {
      handle: 'current',
      query: ArchiveQuery.parse({}),
      format: 'jsonl',
      target,
      context: { appName: 'Skein', appVersion: 'test', mode: 'live', baseUrl: 'https://api.example' },
      now: Date.UTC(2026, 10, 24),
      title: 'All',
      project: { name: 'P', location: dir },
    });
    expect(items).toBe(2_500);
    const ids = (await readFile(target, 'utf8'))
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { item: { id: string } }).item.id);
    expect(ids).toEqual(Array.from({ length: 2_500 }, (_, i) => String(i)));
    // three chunks of 1,000 and the short last one ends it; the reader is closed after the last read
    expect(calls).toEqual(['readOpen', 'readNext', 'readNext', 'readNext', 'readClose']);
  });
});
