/**
 * The export side of the recorded-shapes property: posts of every recorded shape, each with one field (nested ones
 * included) replaced by "", {}, null or a value of another type, served by a local API and exported through
 * Skein's real client and export jobs: every one of them is in the JSONL (its raw item byte for byte), in the
 * CSV and in the Parquet file (read back by DuckDB, as a researcher would), and none is counted as dropped.
 */
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ODD_VALUES, VALID_POSTS, replaceablePaths, withField } from '../../shared/api/fixtures/one-field';
import type { ViewDescriptor } from '../../shared/ipc/export';
import type { ExportManifest } from '../formats';
import { decodeCsvId } from '../formats/csv/rows';
import { duckdb } from '../testing/duckdb';
import { sandboxExporter } from './testing/sandbox-export';

const PAGE = 50;
const PAGES = 6;

/** 300 posts, each a valid post with one field replaced, each under an id of its own */
const posts: Array<Record<string, unknown>> = fc
  .sample(
    fc
      .constantFrom(...VALID_POSTS)
      .chain((post) =>
        fc.tuple(
          fc.constant(post),
          fc.constantFrom(...replaceablePaths(post)),
          fc.oneof(fc.constantFrom(...ODD_VALUES), fc.anything({ maxDepth: 2 })),
        ),
      ),
    { numRuns: PAGE * PAGES, seed: 34 },
  )
  .map(([post, path, value], i) => ({
    ...(withField(post, path, value) as Record<string, unknown>),
    id: String(1_950_000_000_000_000_000n + BigInt(i)),
  }));

let server: Server;
let baseUrl = '';
beforeAll(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const page = Number(url.searchParams.get('cursor') ?? '0');
    const last = page === PAGES - 1;
    res.writeHead(url.pathname === '/social/tweet/quotes' ? 200 : 404, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        tweets: posts.slice(page * PAGE, (page + 1) * PAGE),
        has_next_page: !last,
        next_cursor: last ? '' : String(page + 1),
        status: 'success',
        msg: 'success',
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const view: ViewDescriptor = {
  kind: 'quotes',
  operation: 'postQuotes',
  params: { tweetId: '1800000000000000001' },
  title: 'one odd field',
};

async function exported(format: 'jsonl' | 'csv' | 'parquet'): Promise<{ path: string; manifest: ExportManifest }> {
  const { dir, service } = await sandboxExporter(baseUrl);
  const path = join(dir, `odd.${format}`);
  const job = await service.start({ view, format, scope: 'all', targetPath: path });
  const done = await service.settled(job.id);
  expect(done.error).toBeNull();
  const manifest = JSON.parse(await readFile(`${path}.manifest.json`, 'utf8')) as ExportManifest;
  return { path, manifest };
}

const ids = posts.map((p) => String(p.id));

describe('one odd field never drops a post from its export', () => {
  it('JSONL: every post, its raw item byte for byte; none dropped', async () => {
    const { path, manifest } = await exported('jsonl');
    const lines = (await readFile(path, 'utf8')).trimEnd().split('\n');
    const items = lines.map((l) => (JSON.parse(l) as { item: Record<string, unknown> }).item);
    expect(items.map((i) => i.id)).toEqual(ids);
    expect(items.map((i) => JSON.stringify(i))).toEqual(posts.map((p) => JSON.stringify(p)));
    expect(manifest.counts).toMatchObject({ items: posts.length, dropped: 0 });
  });

  it('CSV: a row for every post', async () => {
    const { path } = await exported('csv');
    const rows = parse<Record<string, string>>(await readFile(path, 'utf8'), { bom: true, columns: true });
    expect(rows.map((r) => decodeCsvId(r.id!))).toEqual(ids);
  });

  it('Parquet, read by DuckDB: a row for every post', async () => {
    const { path } = await exported('parquet');
    const rows = await duckdb(`SELECT id FROM read_parquet('${path}')`);
    expect(rows.map((r) => r.id)).toEqual(ids);
  });
});
