/**
 * Collections and re-exports: an export written through the core becomes a collection
 * of the project, in order; a collection re-exported to JSONL, CSV, Parquet, ids only and a Gephi network
 * makes no call, and DuckDB reads back exactly the archive's items — with the archive on main's thread, and
 * with it in its worker and each re-export written in a worker of its own (so encoding never blocks main).
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { duckdb } from './testing/duckdb';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import type { ExportJob } from '../shared/ipc';
import { createCore, type CoreDeps } from '.';
import { createDispatcher } from './bridge/dispatch';
import type { Sandbox } from '../sandbox';
import { testCoreDeps } from './testing/core-deps';
import { ArchiveQuery } from '../shared/ipc/archive';
import { startArchiveThread } from './archive/thread';
import { post, rec, repliesAnswer } from './archive/testing/answers';
import { reexportInWorker, STREAMING_HEAP } from './export/reexport-thread';

const dirs: string[] = [];
const sandboxes: Sandbox[] = [];
afterAll(async () => {
  for (const s of sandboxes) await s.close();
  dirs.forEach((d) => rmSync(d, { recursive: true, force: true }));
});

const workers: Partial<CoreDeps> = {
  workers: {
    archive: new URL('./compose/archive-worker.ts', import.meta.url),
    reexport: new URL('./compose/reexport-worker.ts', import.meta.url),
    execArgv: ['--import', 'tsx'],
  },
};

describe.each([
  ['on main', {}],
  ['in workers', workers],
])('collections and re-exports (%s)', (_, threads: Partial<CoreDeps>) => {
  it(
    'keeps an export as a collection and writes it again without a call; DuckDB reads it back',
    { timeout: 60_000 },
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'skein-reexport-'));
      dirs.push(dir);
      let nextPath = join(dir, 'replies.json');
      const jobs: ExportJob[] = [];
      const core = createCore(
        testCoreDeps(dir, sandboxes, {
          ...threads,
          chooseSavePath: async () => nextPath,
          emit: (name, payload) => {
            if (name === 'export') jobs.push(payload as ExportJob);
          },
        }),
      );
      const dispatch = createDispatcher(core.handlers).dispatch;
      const call = async (channel: string, input: unknown) => {
        const res = await dispatch(channel, input, { senderId: 1 });
        if (!res.ok) throw new Error(`${channel}: ${res.error.message}`);
        return res.data as Record<string, unknown>;
      };
      const ex = (await call('skein:demo.examples', undefined)) as { bigThreadPostId: string };
      const view = {
        kind: 'directReplies',
        operation: 'postReplies',
        params: { tweetId: ex.bigThreadPostId },
        title: 'Replies',
      };
      await call('skein:export.start', { view, format: 'json', scope: 'loaded' });
      // the first page only ('loaded'): a partial export of a longer list, written
      await expect.poll(() => jobs.at(-1)?.status, { timeout: 30_000 }).toBe('partial');
      // a thread's items carry their place in it: { root_id, parent_id, depth, item }
      const exported = JSON.parse(readFileSync(join(dir, 'replies.json'), 'utf8')) as {
        items: Array<{ depth: number; item: { id: string } }>;
      };
      const ids = exported.items.map((i) => i.item.id);
      expect(ids.length).toBeGreaterThan(0);

      // the job shows done once the file is whole; the project keeps its collection just after
      const kept = async () =>
        (await call('skein:archive.collections', {})) as unknown as Array<{ id: number; items: number }>;
      await expect.poll(async () => (await kept())[0]?.items, { timeout: 10_000 }).toBe(ids.length);
      const collections = await kept();
      expect(collections).toHaveLength(1);

      const callsBefore = core.client.usage.snapshot().session.calls;
      nextPath = join(dir, 'again.jsonl');
      const jsonl = await call('skein:archive.export', { collection: collections[0]!.id, format: 'jsonl' });
      expect(jsonl).toMatchObject({ items: ids.length });
      nextPath = join(dir, 'again.csv');
      await call('skein:archive.export', { collection: collections[0]!.id, format: 'csv', csvFlavour: 'analysis' });
      expect(core.client.usage.snapshot().session.calls).toBe(callsBefore);

      const fromJsonl = await duckdb(`SELECT item.id AS id FROM read_json_auto('${join(dir, 'again.jsonl')}')`);
      expect(fromJsonl.map((r) => String(r.id))).toEqual(ids);
      const fromCsv = await duckdb(`SELECT id FROM read_csv('${join(dir, 'again.csv')}', types={'id': 'VARCHAR'})`);
      expect(fromCsv.map((r) => String(r.id))).toEqual(ids);

      nextPath = join(dir, 'again.parquet');
      await call('skein:archive.export', { collection: collections[0]!.id, format: 'parquet' });
      expect(core.client.usage.snapshot().session.calls).toBe(callsBefore);
      const fromParquet = await duckdb(`SELECT id FROM read_parquet('${join(dir, 'again.parquet')}')`);
      expect(fromParquet.map((r) => String(r.id))).toEqual(ids);

      // dehydrated: the collection's post ids, one per line, and a network for Gephi, still without a call
      nextPath = join(dir, 'again.txt');
      await call('skein:archive.export', { collection: collections[0]!.id, format: 'ids', idsOf: 'posts' });
      expect(readFileSync(join(dir, 'again.txt'), 'utf8').trimEnd().split('\n')).toEqual(ids);
      nextPath = join(dir, 'net.csv');
      const net = await call('skein:archive.export', { collection: collections[0]!.id, format: 'gephi-csv' });
      expect(net).toMatchObject({ file: join(dir, 'net.nodes.csv'), items: ids.length });
      const edges = await duckdb(
        `SELECT count(*) AS n FROM read_csv('${join(dir, 'net.edges.csv')}', all_varchar = true) e
         JOIN read_csv('${join(dir, 'net.nodes.csv')}', all_varchar = true) s ON s.Id = e.Source`,
      );
      expect(Number(edges[0]?.n)).toBeGreaterThan(0);
      const manifest = JSON.parse(readFileSync(join(dir, 'net.nodes.csv.manifest.json'), 'utf8')) as {
        files: string[];
      };
      expect(manifest.files).toEqual([
        join(dir, 'net.nodes.csv'),
        join(dir, 'net.edges.csv'),
        join(dir, 'net.nodes.csv.manifest.json'),
      ]);
      expect(core.client.usage.snapshot().session.calls).toBe(callsBefore);

      // replies answer the thread's root, which the export does not hold: once the project holds the root
      // (opened once), the network links each reply to its author
      const replyEdges = async (file: string) =>
        Number(
          (await duckdb(`SELECT count(*) AS n FROM read_csv('${file}', all_varchar = true) WHERE Kind = 'reply'`))[0]
            ?.n,
        );
      expect(await replyEdges(join(dir, 'net.edges.csv'))).toBe(0);
      const root = await call('skein:api.call', {
        operation: 'postsByIds',
        params: { tweet_ids: ex.bigThreadPostId },
        callId: 'root',
      });
      const rootAuthor = (root.items as Array<{ author: { id: string } }>)[0]!.author.id;
      nextPath = join(dir, 'net2.csv');
      await call('skein:archive.export', { collection: collections[0]!.id, format: 'gephi-csv' });
      const toRoot = await duckdb(
        `SELECT count(*) AS n FROM read_csv('${join(dir, 'net2.edges.csv')}', all_varchar = true)
         WHERE Kind = 'reply' AND Target = '${rootAuthor}'`,
      );
      expect(Number(toRoot[0]?.n)).toBeGreaterThan(0);
      await core.dispose();
    },
  );

  it(
    'leaves out items whose kept JSON is damaged, counts and names them; every file still reads',
    { timeout: 60_000 },
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'skein-reexport-damaged-'));
      dirs.push(dir);
      const first = createCore(testCoreDeps(dir, sandboxes, threads));
      const ask = async (core: ReturnType<typeof createCore>, channel: string, input: unknown) => {
        const res = await createDispatcher(core.handlers).dispatch(channel, input, { senderId: 1 });
        if (!res.ok) throw new Error(`${channel}: ${res.error.message}`);
        return res.data as Record<string, unknown>;
      };
      const ex = (await ask(first, 'skein:demo.examples', undefined)) as { bigThreadPostId: string };
      await ask(first, 'skein:api.call', {
        operation: 'postReplies',
        params: { tweetId: ex.bigThreadPostId },
        callId: 'a',
      });
      const state = (await ask(first, 'skein:projects.state', undefined)) as { demo: { location: string } };
      await first.dispose();
      // damaged in the project: text that is no JSON, and JSON that is no object
      const db = new DatabaseSync(state.demo.location);
      const posts = db.prepare(`SELECT rowid, id FROM items WHERE kind = 'post' ORDER BY rowid`).all() as Array<{
        rowid: number;
        id: string;
      }>;
      db.prepare(`UPDATE items SET raw = '{"id": "<b>cut' WHERE rowid = ?`).run(posts[1]!.rowid);
      db.prepare(`UPDATE items SET raw = '[1, 2]' WHERE rowid = ?`).run(posts[2]!.rowid);
      db.close();
      const damaged = [posts[1]!.id, posts[2]!.id];

      let nextPath = '';
      const core = createCore(testCoreDeps(dir, sandboxes, { ...threads, chooseSavePath: async () => nextPath }));
      for (const format of ['jsonl', 'csv', 'parquet', 'gexf'] as const) {
        nextPath = join(dir, `out.${format}`);
        const written = await ask(core, 'skein:archive.export', { project: 'demo', format });
        expect(written, format).toMatchObject({ items: posts.length - 2, damaged: 2 });
        const manifest = JSON.parse(readFileSync(`${nextPath}.manifest.json`, 'utf8')) as {
          source: { left_out_damaged: { items: number; ids: string[] } };
        };
        expect(manifest.source.left_out_damaged).toMatchObject({ items: 2, ids: damaged });
      }
      // the search lists them where they fall, said so
      const hits = (await ask(core, 'skein:archive.search', { project: 'demo' })) as {
        hits: Array<{ id: string; unread?: true }>;
      };
      expect(
        hits.hits
          .filter((h) => h.unread)
          .map((h) => h.id)
          .sort(),
      ).toEqual([...damaged].sort());
      await core.dispose();
      const fromJsonl = await duckdb(`SELECT count(*) AS n FROM read_json_auto('${join(dir, 'out.jsonl')}')`);
      expect(Number(fromJsonl[0]?.n)).toBe(posts.length - 2);
      const fromCsv = await duckdb(`SELECT id FROM read_csv('${join(dir, 'out.csv')}', types={'id': 'VARCHAR'})`);
      expect(fromCsv.map((r) => String(r.id))).not.toContain(damaged[0]);
      const fromParquet = await duckdb(`SELECT count(*) AS n FROM read_parquet('${join(dir, 'out.parquet')}')`);
      expect(Number(fromParquet[0]?.n)).toBe(posts.length - 2);
    },
  );
});

describe('a re-export held to its heap', () => {
  it(
    'stops in plain words when its heap is too small, writing nothing; a streaming heap writes the same export',
    { timeout: 60_000 },
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'skein-reexport-heap-'));
      dirs.push(dir);
      const thread = await startArchiveThread({
        entry: new URL('./compose/archive-worker.ts', import.meta.url),
        reexportEntry: new URL('./compose/reexport-worker.ts', import.meta.url),
        execArgv: ['--import', 'tsx'],
      });
      try {
        await thread.call('open', 'current', { path: join(dir, 'p.skein'), name: 'P', kind: 'live' });
        const input = {
          handle: 'current' as const,
          query: ArchiveQuery.parse({}),
          format: 'parquet' as const,
          target: join(dir, 'one.parquet'),
          context: { appName: 'Skein', appVersion: 'test', mode: 'live' as const, baseUrl: 'https://api.example' },
          now: Date.now(),
          title: 'the whole project',
          project: { name: 'P', location: join(dir, 'p.skein') },
        };
        const small = { maxOldGenerationSizeMb: 48, maxYoungGenerationSizeMb: 8 };
        // the small heap is enough for the worker and an ordinary post: what it cannot hold is the export below
        thread.ingest('current', rec(repliesAnswer([post('99', 'an ordinary post')])));
        await thread.call('flush');
        await expect(reexportInWorker(thread.offMain!, input, small)).resolves.toMatchObject({ items: 1 });
        // 3,000 posts of 20 KB of text, one Parquet row group in memory: many ordinary allocations, none of them
        // big (one huge string at the limit can abort the whole process, nodejs/node#47224, which no export risks)
        for (let first = 0; first < 3_000; first += 100) {
          const page = Array.from({ length: 100 }, (_, i) =>
            post(String(1_000 + first + i), `${i} ${'x'.repeat(20_000)}`),
          );
          thread.ingest('current', rec(repliesAnswer(page), { cursor: `c${first}` }));
        }
        await thread.call('flush');
        const tooBig = { ...input, target: join(dir, 'small.parquet') };
        await expect(reexportInWorker(thread.offMain!, tooBig, small)).rejects.toMatchObject({
          code: 'internal',
          message: expect.stringMatching(/^The export needed more memory than Skein gives one export \(56 MB\)/),
        });
        expect(existsSync(tooBig.target)).toBe(false);
        // nor half of it: the stopped worker's hidden temp file, which could be hundreds of MB, is cleared at once
        expect(readdirSync(dir).filter((name) => name.includes('skein-tmp'))).toEqual([]);
        const target = join(dir, 'whole.parquet');
        await expect(reexportInWorker(thread.offMain!, { ...input, target }, STREAMING_HEAP)).resolves.toMatchObject({
          items: 3_001,
        });
        const rows = await duckdb(`SELECT count(*) AS n, sum(length(text)) AS chars FROM read_parquet('${target}')`);
        expect(Number(rows[0]?.n)).toBe(3_001);
        expect(Number(rows[0]?.chars)).toBeGreaterThan(3_000 * 20_000);
      } finally {
        await thread.close();
      }
    },
  );
});
