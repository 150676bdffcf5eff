/**
 * A CSV written while it collects (`csv-live.ts`) is byte for byte the CSV the journal's path writes: the
 * same export run fresh (live) and run capped then resumed (the journal's path, as every resume is) give
 * the same file, for hostile cells, both flavours, the column presets, threads and people — written in this
 * thread, where the app writes it too (a page's lines cost that thread less than handing the page to a worker).
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ExportOptions, ViewDescriptor } from '../../../shared/ipc/export';
import { FakeClock } from '../../testing/fake-clock';
import { ExportService } from '../../export/export-service';
import { memorySource, post, type MemoryPage } from '../../export/testing/memory-source';
import { runExport } from '../../export/testing/run-export';
import { liveViews, openLiveFor, recorded, type LiveWhere } from '../../export/testing/live';
import type { OpenLive } from '../../export/live-thread';
import { TEXT_CHUNK_CHARS } from '../../files/atomic-file';

const ROOT = '1000000000000000001';
const HOSTILE = ['=1+1', '@SUM(A1)', '-2', 'a,"b"\nc', '\tTAB', 'line\r\nbreak', '日本 ✓ é 🧵', '', '="123"'];

function threadPages(): MemoryPage[] {
  const pages: MemoryPage[] = [];
  for (let p = 0; p < 4; p++) {
    const items = [];
    for (let i = 0; i < 5; i++) {
      const n = p * 5 + i;
      const id = String(9007199254740993n + BigInt(n));
      items.push(
        post(id, n % 3 === 0 ? ROOT : String(9007199254740993n + BigInt(Math.max(0, n - 1))), {
          text: HOSTILE[n % HOSTILE.length],
          createdAt:
            n % 4 === 0 ? 'Sun Feb 30 02:13:21 +0000 2026' : n % 4 === 1 ? null : 'Mon Jan 05 10:00:00 +0200 2026',
          viewCount: n % 2 === 0 ? [0] : '12',
          likeCount: n % 5 === 0 ? -0 : 1e21,
          quoted_tweet: n % 4 === 2 ? { id: '7', author: { id: '8', userName: '=x' } } : null,
          entities: { hashtags: [{ text: '#=tag' }, null], user_mentions: [{ screen_name: 'ann' }] },
        }),
      );
    }
    pages.push({ items: p === 0 ? [post(ROOT), ...items, { no: 'id' }] : items });
  }
  return pages;
}

function peoplePages(): MemoryPage[] {
  return [0, 1, 2].map((p) => ({
    items: HOSTILE.map((text, i) => ({
      type: 'user',
      id: String(3000000000000000000n + BigInt(p * 100 + i)),
      userName: `u${p}${i}`,
      name: text,
      description: text,
      createdAt: 'Mon Jan 05 10:00:00 +0000 2015',
      followers: i,
      pinnedTweetIds: ['1', '="2"'],
    })),
  }));
}

/** pages of 200 people whose lines are longer than a chunk of text handed to the file (`TEXT_CHUNK_CHARS`) */
function longPeoplePages(): MemoryPage[] {
  return [0, 1].map((p) => ({
    items: Array.from({ length: 200 }, (_, i) => ({
      type: 'user',
      id: String(3000000000000000000n + BigInt(p * 1000 + i)),
      userName: `long${p}${i}`,
      name: HOSTILE[i % HOSTILE.length],
      description: `${HOSTILE[(i + 3) % HOSTILE.length]} 🧵 ${'research, "data"\n'.repeat(10 + (i % 7))}`,
      createdAt: 'Mon Jan 05 10:00:00 +0000 2015',
      followers: i,
    })),
  }));
}

const context = () => ({ appName: 'Skein', appVersion: '1.0.0', mode: 'demo' as const, baseUrl: 'http://127.0.0.1:1' });

async function exportCsv(
  pages: MemoryPage[],
  view: ViewDescriptor,
  options: ExportOptions,
  resumed: boolean,
  openLive?: OpenLive,
) {
  const { dir, target, done } = await runExport(pages, {
    view,
    format: 'csv',
    options,
    resumed,
    ...(openLive ? { deps: { openLive } } : {}),
  });
  expect(done.status).toBe('complete');
  return { bytes: await readFile(target), beside: (await readdir(dir)).sort() };
}

const { thread, people } = liveViews(ROOT);

/** A thread's CSV export waiting for its third page, its first two kept. */
async function heldAtThirdPage() {
  const dir = await mkdtemp(join(tmpdir(), 'skein-csv-live-'));
  const source = memorySource(threadPages(), { hold: 2 });
  const service = new ExportService({ source, stateDir: join(dir, 'state'), clock: new FakeClock(), context });
  const target = join(dir, 'out.csv');
  const job = await service.start({ view: thread, format: 'csv', scope: 'all', targetPath: target });
  await source.held;
  return { dir, service, target, job };
}

describe('a CSV written while it collects', () => {
  const longPages = longPeoplePages();
  const cases: Array<[string, MemoryPage[], ViewDescriptor, ExportOptions]> = [
    ['thread, spreadsheet', threadPages(), thread, {}],
    ['thread, analysis, one line per row', threadPages(), thread, { csvFlavour: 'analysis', oneLinePerRow: true }],
    ['thread, twarc columns', threadPages(), thread, { csvColumns: 'twarc' }],
    ['thread, 4CAT columns', threadPages(), thread, { csvColumns: '4cat', csvFlavour: 'analysis' }],
    ['people, spreadsheet', peoplePages(), people, {}],
    ['people, pages longer than a chunk of text', longPages, people, { csvFlavour: 'analysis' }],
  ];
  // opened in this thread, and as the app opens it (`liveInWorker`, which keeps a CSV on the export's thread)
  const where: Array<[string, LiveWhere]> = [
    ['in this thread', 'in this thread'],
    ['as the app opens it', 'in a worker'],
  ];
  const placed = where.flatMap(([label, w]) =>
    cases.map(([name, pages, view, options]) => [`${name}, ${label}`, pages, view, options, w] as const),
  );
  it.each(placed)(
    '%s: the same bytes as the journal writes',
    { timeout: 30_000 },
    async (_name, pages, view, options, w) => {
      const live = recorded(openLiveFor(w));
      const written = await exportCsv(pages, view, options, false, live.open);
      const journaled = await exportCsv(pages, view, options, true);
      // the file was the one written while collecting, not the journal's path's
      expect(live.used).toEqual([true]);
      expect(written.bytes.length).toBeGreaterThan(500);
      if (pages === longPages) expect(written.bytes.length).toBeGreaterThan(2 * 3 * TEXT_CHUNK_CHARS);
      expect(written.bytes.equals(journaled.bytes)).toBe(true);
    },
  );

  it('as the app opens it, is written on the export’s own thread: a file worker that would die is never started', async () => {
    const dying = new URL('../../export/testing/dying-live-worker.ts', import.meta.url);
    const live = recorded(openLiveFor('in a worker', dying));
    const written = await exportCsv(threadPages(), thread, {}, false, live.open);
    const journaled = await exportCsv(threadPages(), thread, {}, true);
    // the live file was used: no worker took its pages (the dying one would have lost it at the third)
    expect(live.used).toEqual([true]);
    expect(written.bytes.equals(journaled.bytes)).toBe(true);
  }, 30_000);

  it('a live file lost while collecting (another export to the same path) leaves the file to the journal', async () => {
    const { dir, service, target, job } = await heldAtThirdPage();
    for (const name of await readdir(dir)) if (name.startsWith('.out.csv.skein-tmp-')) await rm(join(dir, name));
    await service.cancel(job.id);
    expect((await service.settled(job.id)).status).toBe('partial');
    expect(await readFile(target, 'utf8')).toContain(String(9007199254740993n + 9n));
  });

  it('is written beside the target as pages are kept, and a cancel keeps what was collected', async () => {
    const { dir, service, target, job } = await heldAtThirdPage();
    // the live file is open beside the target while the third page is awaited
    expect((await readdir(dir)).some((n) => n.startsWith('.out.csv.skein-tmp-'))).toBe(true);
    await service.cancel(job.id);
    expect((await service.settled(job.id)).status).toBe('partial');
    const written = await readFile(target, 'utf8');
    expect(written).toContain(String(9007199254740993n + 9n)); // the last post of the second page
    expect(written).not.toContain(String(9007199254740993n + 10n));
    expect(written).toContain(",'=1+1,"); // neutralised, as the journal's path writes it
    expect((await readdir(dir)).sort()).toEqual([
      'out.csv',
      'out.csv.load.R',
      'out.csv.load.py',
      'out.csv.manifest.json',
      'state',
    ]);
  });
});
