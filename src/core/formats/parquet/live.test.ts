/**
 * A Parquet file written while it collects (parquet/live.ts) holds what the journal's path writes: the same
 * export run fresh (live) and run capped then resumed (the journal's path, as every resume is) read back the
 * same in DuckDB — every column of every row, across row groups, with hostile cells — and the live one really
 * was written while collecting — in this thread, or as the app writes it, in a worker of its own; long posts are
 * each there once, in the order collected, where row groups end mid-page while later pages wait; a worker lost
 * mid-collection leaves the file to the journal's path, whole, and nothing of its own beside it.
 */
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ViewDescriptor } from '../../../shared/ipc/export';
import { ExportService } from '../../export/export-service';
import { FakeClock } from '../../testing/fake-clock';
import { memorySource, post, type MemoryPage } from '../../export/testing/memory-source';
import { runExport } from '../../export/testing/run-export';
import { duckdb } from '../../testing/duckdb';
import { openLiveFor, recorded, type LiveWhere } from '../../export/testing/live';
import type { OpenLive } from '../../export/live-thread';
import type { ExportManifest } from '../manifest';

const ROOT = '1000000000000000001';
const HOSTILE = ['=1+1', 'a,"b"\nc', '日本 ✓ é 🧵', '', '\u0000\u0007', '<script>x</script>'];

/** 6,000 replies in pages of 20: more than two row groups of 2,500 */
function pages(): MemoryPage[] {
  const out: MemoryPage[] = [];
  for (let p = 0; p < 300; p++) {
    const items = [];
    for (let i = 0; i < 20; i++) {
      const n = p * 20 + i;
      items.push(
        post(String(9007199254740993n + BigInt(n)), ROOT, {
          text: HOSTILE[n % HOSTILE.length],
          likeCount: n % 7 === 0 ? 1.5 : n,
          viewCount: n % 2 === 0 ? [0] : '12',
          createdAt: n % 5 === 0 ? 'not a date' : 'Mon Jan 05 10:00:00 +0000 2026',
        }),
      );
    }
    out.push({ items: p === 0 ? [post(ROOT), ...items] : items });
  }
  return out;
}

/**
 * 3,000 replies of long text, not Latin (2,700 characters, every 50th 25,000): row groups end by their text, mid-page,
 * while the pages after them are already posted to the worker
 */
function longPages(): MemoryPage[] {
  const out: MemoryPage[] = [];
  for (let p = 0; p < 150; p++) {
    const items = [];
    for (let i = 0; i < 20; i++) {
      const n = p * 20 + i;
      const text = `${n} ${'長い投稿の本文です。'.repeat(n % 50 === 0 ? 2_500 : 270)}`;
      items.push(post(String(9007199254740993n + BigInt(n)), ROOT, { text }));
    }
    out.push({ items: p === 0 ? [post(ROOT), ...items] : items });
  }
  return out;
}

const view: ViewDescriptor = { kind: 'thread', operation: 'postRepliesV2', params: { tweetId: ROOT } };

async function exportParquet(resumed: boolean, openLive?: OpenLive, made: MemoryPage[] = pages()) {
  const { dir, target, done } = await runExport(made, {
    view,
    format: 'parquet',
    resumed,
    ...(openLive ? { deps: { openLive } } : {}),
  });
  expect(done.status).toBe('complete');
  const manifest = JSON.parse(await readFile(`${target}.manifest.json`, 'utf8')) as ExportManifest;
  return { target, manifest, beside: (await readdir(dir)).sort() };
}

const DYING = new URL('../../export/testing/dying-live-worker.ts', import.meta.url);
const context = () => ({ appName: 'Skein', appVersion: '1.0.0', mode: 'demo' as const, baseUrl: 'http://127.0.0.1:1' });

const rows = (path: string) =>
  duckdb(`SELECT * EXCLUDE (retrieved_at, first_retrieved_at) FROM read_parquet('${path}') ORDER BY id`);

describe('a Parquet file written while it collects', () => {
  const where: LiveWhere[] = ['in this thread', 'in a worker'];
  it.each(where)('reads back as the journal path writes it, row for row, across row groups, %s', async (w) => {
    const opened = recorded(openLiveFor(w));
    const live = await exportParquet(false, opened.open);
    const journal = await exportParquet(true);
    expect(opened.used).toEqual([true]);
    const a = await rows(live.target);
    const b = await rows(journal.target);
    expect(a).toHaveLength(6001);
    expect(a).toEqual(b);
    expect(a.find((r) => r.id === ROOT)).toMatchObject({ id: ROOT, depth: 0n });
    // the footer says when the export was written, as the manifest does
    const meta = await duckdb(
      `SELECT decode(key) AS key, decode(value) AS value FROM parquet_kv_metadata('${live.target}') WHERE decode(key) = 'skein.exported_at'`,
    );
    expect(meta).toEqual([{ key: 'skein.exported_at', value: live.manifest.exported_at }]);
    expect(live.manifest.files).toEqual([
      live.target,
      `${live.target}.load.py`,
      `${live.target}.load.R`,
      `${live.target}.manifest.json`,
    ]);
  });

  it.each(where)(
    'holds long posts once each, in the order collected, %s',
    async (w) => {
      const opened = recorded(openLiveFor(w));
      const live = await exportParquet(false, opened.open, longPages());
      const journal = await exportParquet(true, undefined, longPages());
      // the live file was used, not left to the journal's path (a row group of 2,500 such rows ended the worker)
      expect(opened.used).toEqual([true]);
      const inFile = (path: string) => duckdb(`SELECT id, text FROM read_parquet('${path}')`);
      const a = await inFile(live.target);
      expect(a).toHaveLength(3001);
      expect(new Set(a.map((r) => r.id)).size).toBe(3001);
      expect(a).toEqual(await inFile(journal.target));
      const groups = await duckdb(`SELECT count(DISTINCT row_group_id) AS n FROM parquet_metadata('${live.target}')`);
      expect(Number(groups[0]?.n)).toBeGreaterThan(2);
    },
    60_000,
  );

  it('a worker lost mid-collection leaves the file to the journal, whole, and nothing of its own', async () => {
    const opened = recorded(openLiveFor('in a worker', DYING));
    const live = await exportParquet(false, opened.open);
    const journal = await exportParquet(true);
    expect(opened.used).toEqual([false]);
    expect(await rows(live.target)).toEqual(await rows(journal.target));
    // no hidden temp file the dead worker held open
    expect(live.beside).toEqual([
      'out.parquet',
      'out.parquet.load.R',
      'out.parquet.load.py',
      'out.parquet.manifest.json',
      'state',
    ]);
  }, 30_000);

  it('a worker lost, then Skein quitting mid-collection, leaves no hidden file beside the target', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'skein-parquet-live-'));
    const source = memorySource(pages(), { hold: 3 });
    const opened = recorded(openLiveFor('in a worker', DYING));
    const service = new ExportService({
      source,
      stateDir: join(dir, 'state'),
      clock: new FakeClock(),
      context,
      openLive: opened.open,
    });
    const target = join(dir, 'out.parquet');
    const job = await service.start({ view, format: 'parquet', scope: 'all', targetPath: target });
    await source.held;
    await service.dispose();
    expect((await service.settled(job.id)).status).toBe('interrupted');
    // the journal keeps what was collected (a resume goes on from it); the dead worker's temp file is gone
    expect(await readdir(dir)).toEqual(['state']);
  }, 30_000);
});
