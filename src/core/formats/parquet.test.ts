/**
 * Parquet read back by DuckDB equals the items: the same rows the CSV export builds (plain ids, exact text,
 * hostile text included), typed columns, provenance, and a large export partitioned by collected date.
 */
import { mkdtemp, readdir, readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { duckdb } from '../testing/duckdb';
import { describe, expect, it } from 'vitest';
import type { ViewDescriptor } from '../../shared/ipc/export';
import { FakeClock } from '../testing/fake-clock';
import { ExportService } from '../export/export-service';
import type { JournalItem } from '../walk';
import type { ExportManifest, ManifestPage } from './manifest';
import { writeParquet } from './parquet';
import { memorySource, post, type MemoryPage } from '../export/testing/memory-source';
import { planView } from '../export/views';
import { sidecarPath } from './format';

const context = () => ({ appName: 'Skein', appVersion: '0.1.0', mode: 'demo' as const, baseUrl: 'http://127.0.0.1:1' });
const HOSTILE = 'a,"b"\r\n<script>alert(1)</script> \u0000\u0007 \ud800 =1+1 \u202Eevil 日本';
const BIG = '9223372036854775807';

const pages: MemoryPage[] = [
  {
    items: [
      post('1234567890123456789', null, { text: HOSTILE, likeCount: 7, viewCount: '12', isReply: false }),
      post('9007199254740993', '1234567890123456789', { likeCount: 1.5, retweetCount: -3, viewCount: [0] }),
    ],
  },
  { items: [post(BIG, '9007199254740993', { author: { id: BIG, userName: 'x', name: null } })] },
];

describe('Parquet export', () => {
  it('reads back in DuckDB equal to the items: plain exact ids, hostile text, typed counts, provenance', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'skein-parquet-'));
    const service = new ExportService({
      source: memorySource(pages),
      stateDir: join(dir, 'state'),
      clock: new FakeClock(),
      context,
    });
    const target = join(dir, 'x.parquet');
    const view: ViewDescriptor = {
      kind: 'thread',
      operation: 'postRepliesV2',
      params: { tweetId: '1234567890123456789' },
    };
    const job = await service.start({ view, format: 'parquet', scope: 'all', targetPath: target });
    const done = await service.settled(job.id);
    expect(done.status).toBe('complete');
    expect(done.files).toEqual([target, `${target}.load.py`, `${target}.load.R`, sidecarPath(target)]);
    const manifest = JSON.parse(await readFile(sidecarPath(target), 'utf8')) as ExportManifest;
    expect(manifest.format).toBe('parquet');
    expect(manifest.parquet?.partitioned).toBe(false);

    const rows = await duckdb(
      `SELECT id, text, author_id, likeCount, retweetCount, viewCount, isReply, depth, parent_id,
              CAST(created_at AS VARCHAR) AS created, CAST(retrieved_at AS VARCHAR) AS retrieved, page, cursor,
              typeof(likeCount) AS like_type, typeof(created_at) AS created_type
       FROM read_parquet('${target}')`,
    );
    expect(rows.map((r) => r.id)).toEqual(['1234567890123456789', '9007199254740993', BIG]);
    expect(rows[0]?.text).toBe(HOSTILE.replace('\ud800', '\ufffd'));
    expect(rows[2]?.author_id).toBe(BIG);
    expect(rows[0]?.likeCount).toBe(7n);
    expect(rows[0]?.viewCount).toBe(12n);
    // a hostile non-integer count is left empty, never rounded; a negative one is kept as sent
    expect(rows[1]?.likeCount).toBeNull();
    expect(rows[1]?.retweetCount).toBe(-3n);
    expect(rows[0]?.isReply).toBe(false);
    expect(rows[1]?.parent_id).toBe('1234567890123456789');
    expect(rows[0]?.like_type).toBe('BIGINT');
    expect(rows[0]?.created_type).toMatch(/^TIMESTAMP/);
    expect(String(rows[0]?.created)).toMatch(/^2026-11-22 02:13:21/);
    expect(rows.map((r) => r.page)).toEqual([0n, 0n, 1n]);
    expect(rows[2]?.cursor).toBe('c1');
  });

  it('odd and hostile items never throw: non-objects, wrong types, out-of-range numbers and dates are empty cells', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'skein-parquet-odd-'));
    const raws: unknown[] = [
      null,
      [1, 2],
      'a string',
      { id: 5, author: 'x', likeCount: 1e300, replyCount: Number.MAX_SAFE_INTEGER, viewCount: '99999999999999999999' },
      { id: '6', createdAt: 'Sun Nov 22 99:99:99 +0000 2026', text: 'x'.repeat(100_000), isReply: 'yes' },
    ];
    const items: JournalItem[] = raws.map((r, i) => ({ id: String(i), position: 'null', raw: JSON.stringify(r) }));
    const manifest = {
      app: { name: 'Skein', version: '0.1.0' },
      exported_at: '2026-11-23T00:00:00.000Z',
      view: { kind: 'timeline', title: null, operation: 'userTimeline', path: '/x' },
      pages: [{ fetched_at: '2026-11-23T00:00:00.000Z', items_kept: raws.length, cursor: null }],
      counts: { items: raws.length },
    } as unknown as ExportManifest;
    const plan = planView({ kind: 'timeline', operation: 'userTimeline', params: { userId: '1' } });
    const target = join(dir, 'odd.parquet');
    await writeParquet(
      target,
      {
        items: () =>
          (async function* () {
            yield* items;
          })(),
      },
      manifest,
      plan,
    );
    const rows = await duckdb(
      `SELECT id, likeCount, replyCount, viewCount, created_at, isReply, length(text) AS len FROM read_parquet('${target}')`,
    );
    expect(rows).toHaveLength(5);
    expect(rows[3]).toMatchObject({
      id: '5',
      likeCount: null,
      replyCount: BigInt(Number.MAX_SAFE_INTEGER),
      viewCount: null,
    });
    expect(rows[4]).toMatchObject({ id: '6', created_at: null, isReply: null, len: 100_000n });
    expect(rows[0]?.id).toBeNull();
  });

  it('a large export is a folder partitioned by collected date that DuckDB reads with hive partitioning', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'skein-parquet-part-'));
    const day = (d: number) => Date.UTC(2026, 10, 20 + d, 12);
    const items: JournalItem[] = [];
    const manifestPages: Array<Pick<ManifestPage, 'fetched_at' | 'items_kept' | 'cursor'>> = [];
    for (let p = 0; p < 3; p++) {
      manifestPages.push({ fetched_at: new Date(day(p)).toISOString(), items_kept: 4, cursor: p ? `c${p}` : null });
      for (let i = 0; i < 4; i++) {
        const id = String(1_700_000_000_000_000_000n + BigInt(p * 10 + i));
        items.push({ id, position: 'null', raw: JSON.stringify(post(id, null, { text: `day ${p} <b>&</b>` })) });
      }
    }
    const manifest = {
      app: { name: 'Skein', version: '0.1.0' },
      exported_at: new Date(day(3)).toISOString(),
      view: { kind: 'timeline', title: null, operation: 'userTimeline', path: '/x' },
      pages: manifestPages,
      counts: { items: items.length },
    } as unknown as ExportManifest;
    const plan = planView({ kind: 'timeline', operation: 'userTimeline', params: { userId: '1' } });
    const target = join(dir, 'big.parquet');
    const source = {
      items: () =>
        (async function* () {
          yield* items;
        })(),
    };
    await writeParquet(target, source, manifest, plan, undefined, { partitionAbove: 5 });
    expect((await stat(target)).isDirectory()).toBe(true);
    expect((await readdir(target)).sort()).toEqual([
      'collected_date=2026-11-20',
      'collected_date=2026-11-21',
      'collected_date=2026-11-22',
    ]);
    // nothing staged is left beside it
    expect((await readdir(dir)).filter((n) => n.startsWith('.'))).toEqual([]);
    const rows = await duckdb(
      `SELECT CAST(collected_date AS VARCHAR) AS day, count(*) AS n, min(text) AS text
       FROM read_parquet('${target}/**/*.parquet', hive_partitioning = true) GROUP BY ALL ORDER BY day`,
    );
    expect(rows).toEqual([
      { day: '2026-11-20', n: 4n, text: 'day 0 <b>&</b>' },
      { day: '2026-11-21', n: 4n, text: 'day 1 <b>&</b>' },
      { day: '2026-11-22', n: 4n, text: 'day 2 <b>&</b>' },
    ]);
    const ids = await duckdb(`SELECT id FROM read_parquet('${target}/**/*.parquet') ORDER BY id`);
    expect(ids.map((r) => r.id)).toEqual(items.map((i) => i.id));
  });
});
