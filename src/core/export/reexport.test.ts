/**
 * A re-export reads the archive in chunks while it writes: every item once, in the archive's order,
 * across chunk boundaries, with the worker's reader closed at the end (a stand-in thread counts the calls).
 * Every row keeps its provenance: read back by DuckDB from the CSV, JSONL and Parquet written from a real
 * project, each row says when the project first and last received its item and which request returned it
 * last, and the manifest lists those requests.
 */
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ArchiveQuery } from '../../shared/ipc/archive';
import { reexport } from './from-archive';
import type { ArchiveThread } from '../archive';
import { archiveSource } from '../compose/archive-reader';
import { startArchiveThread } from '../archive';
import { repliesPage } from '../archive/testing/answers';
import type { ExportManifest, SourceRequestEntry } from '../formats';
import { duckdb } from '../testing/duckdb';

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
      if (method === 'requestsOpen') return 8;
      if (method === 'requestsNext') return [];
      if (method === 'damagedItems') return { count: 0, ids: [] };
      if (method === 'readNext') {
        const max = args[1] as number;
        const rows = [];
        for (; rows.length < max && next < count; next++)
          rows.push({
            id: String(next),
            raw: JSON.stringify({ id: String(next), text: `post ${next}` }),
            place: null,
            firstSeen: 0,
            lastSeen: 0,
            request: null,
          });
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
    expect(calls).toEqual([
      'requestsOpen',
      'requestsNext',
      'readClose',
      'damagedItems',
      'readOpen',
      'readNext',
      'readNext',
      'readNext',
      'readClose',
    ]);
  });
});

describe('a re-export keeps per-row provenance', () => {
  const T1 = Date.UTC(2026, 10, 20, 8);
  const T2 = Date.UTC(2026, 10, 21, 9);
  const T3 = Date.UTC(2026, 10, 22, 10);

  async function project() {
    const dir = await mkdtemp(join(tmpdir(), 'skein-reexport-prov-'));
    const thread = await startArchiveThread();
    await thread.call('open', 'current', { path: join(dir, 'p.skein'), name: 'P', kind: 'live' });
    // posts 0-2 on a first page; 3-4 on the next page of another listing; 1-2 again, later, in a third answer
    thread.ingest('current', repliesPage(0, 3, T1));
    thread.ingest('current', repliesPage(3, 2, T2, 'c3'));
    thread.ingest('current', repliesPage(1, 2, T3));
    await thread.call('flush');
    return { dir, thread };
  }

  const write = async (thread: ArchiveThread, dir: string, format: string, file: string, options = {}) => {
    const target = join(dir, file);
    await reexport(archiveSource(thread), {
      handle: 'current',
      query: ArchiveQuery.parse({}),
      format,
      options,
      target,
      context: { appName: 'Skein', appVersion: 'test', mode: 'live', baseUrl: 'https://api.example' },
      now: Date.UTC(2026, 10, 24),
      title: 'All',
      project: { name: 'P', location: dir },
    });
    return target;
  };

  it('every row says when it was first and last received and the request that last returned it', async () => {
    const { dir, thread } = await project();
    try {
      const csv = await write(thread, dir, 'csv', 'all.csv', { csvFlavour: 'analysis' });
      const manifest = JSON.parse(await readFile(`${csv}.manifest.json`, 'utf8')) as ExportManifest;
      // the three requests the items were last returned by, oldest first, never the key
      expect(manifest.source?.requests).toEqual([
        expect.objectContaining({
          operation: 'postReplies',
          params: { tweetId: '0' },
          cursor: null,
          fetched_at: iso(T1),
          items: 3,
        }),
        expect.objectContaining({
          operation: 'postReplies',
          params: { tweetId: '3' },
          cursor: 'c3',
          fetched_at: iso(T2),
          items: 2,
        }),
        expect.objectContaining({
          operation: 'postReplies',
          params: { tweetId: '1' },
          cursor: null,
          fetched_at: iso(T3),
          items: 2,
        }),
      ]);
      expect(manifest.row_provenance?.fields.page).toMatch(/source\.requests/);
      expect(manifest.row_provenance?.fields.first_retrieved_at).toMatch(/first received/);

      const expected = [
        // id, first retrieved, last retrieved, the request (its index), its cursor
        ['1000000000', iso(T1), iso(T1), 0, ''],
        ['1000000001', iso(T1), iso(T3), 2, ''],
        ['1000000002', iso(T1), iso(T3), 2, ''],
        ['1000000003', iso(T2), iso(T2), 1, 'c3'],
        ['1000000004', iso(T2), iso(T2), 1, 'c3'],
      ];
      const fromCsv = await duckdb(
        `SELECT id, first_retrieved_at AS f, retrieved_at AS l, page, cursor, operation FROM read_csv('${csv}', all_varchar = true) ORDER BY id`,
      );
      expect(fromCsv.map((r) => [r.id, r.f, r.l, Number(r.page), r.cursor ?? ''])).toEqual(expected);
      expect(new Set(fromCsv.map((r) => r.operation))).toEqual(new Set(['postReplies']));

      const jsonl = await write(thread, dir, 'jsonl', 'all.jsonl');
      const fromJsonl = await duckdb(
        `SELECT item.id AS id, __skein.first_retrieved_at AS f, __skein.retrieved_at AS l, __skein.page AS page, __skein.cursor AS cursor
         FROM read_json('${jsonl}', records = true, columns = {__skein: 'STRUCT(retrieved_at VARCHAR, operation VARCHAR, page INTEGER, cursor VARCHAR, first_retrieved_at VARCHAR)', item: 'STRUCT(id VARCHAR)'}) ORDER BY id`,
      );
      expect(fromJsonl.map((r) => [r.id, r.f, r.l, r.page, r.cursor])).toEqual(expected);

      const parquet = await write(thread, dir, 'parquet', 'all.parquet');
      const fromParquet = await duckdb(
        `SELECT id, strftime(first_retrieved_at, '%Y-%m-%dT%H:%M:%S.%gZ') AS f, strftime(retrieved_at, '%Y-%m-%dT%H:%M:%S.%gZ') AS l, page, cursor
         FROM read_parquet('${parquet}') ORDER BY id`,
      );
      expect(fromParquet.map((r) => [r.id, r.f, r.l, Number(r.page), r.cursor])).toEqual(expected);
    } finally {
      await thread.close();
    }
  });

  it('lists every request when they are more than one read of the archive holds, each row pointing at its own', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'skein-reexport-many-'));
    const thread = await startArchiveThread();
    try {
      await thread.call('open', 'current', { path: join(dir, 'p.skein'), name: 'P', kind: 'live' });
      // one post per answer: 2,345 requests, read from the archive 1,000 at a time
      const n = 2_345;
      for (let i = 0; i < n; i++) thread.ingest('current', repliesPage(i, 1, T1 + i * 1000, i === 0 ? null : `c${i}`));
      await thread.call('flush');
      const jsonl = await write(thread, dir, 'jsonl', 'all.jsonl');
      const manifest = JSON.parse(await readFile(`${jsonl}.manifest.json`, 'utf8')) as ExportManifest;
      // read back from the file: a list
      const listed = (manifest.source?.requests ?? []) as readonly SourceRequestEntry[];
      expect(listed.map((r) => [r.fetched_at, r.cursor, r.params])).toEqual(
        Array.from({ length: n }, (_, i) => [iso(T1 + i * 1000), i === 0 ? null : `c${i}`, { tweetId: String(i) }]),
      );
      const rows = (await readFile(jsonl, 'utf8'))
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { item: { id: string }; __skein: { page: number; cursor: string } });
      expect(rows).toHaveLength(n);
      const wrong = rows.filter((r) => {
        const i = Number(r.item.id) - 1_000_000_000;
        return r.__skein.page !== i || r.__skein.cursor !== (i === 0 ? '' : `c${i}`);
      });
      expect(wrong).toEqual([]);
    } finally {
      await thread.close();
    }
  });
});

const iso = (ms: number) => new Date(ms).toISOString();
