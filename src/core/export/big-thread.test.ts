import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ViewDescriptor } from '../../shared/ipc/export';
import { startSandbox, WORLD_SIZES, type Sandbox } from '../../sandbox';
import type { ExportManifest } from '../formats';
import { sandboxExporter } from './testing/sandbox-export';

let sandbox: Sandbox;
beforeAll(async () => {
  // a small world around the full-size 10,000-reply conversation
  sandbox = await startSandbox({
    size: { ...WORLD_SIZES.small, bigThreadReplies: 10_000 },
    now: () => Date.UTC(2026, 10, 22, 2, 13, 21),
  });
}, 120_000);
afterAll(async () => sandbox?.close());

interface Entry {
  root_id: string;
  parent_id: string | null;
  depth: number | null;
  item: { id: string };
}
const read = async (path: string) =>
  JSON.parse(await readFile(path, 'utf8')) as { manifest: ExportManifest; items: Entry[] };

describe('fetch everything on the 10,000-reply thread', () => {
  it(
    'capped, then resumed (twice, the second time after a restart), equals one uninterrupted run',
    { timeout: 120_000 },
    async () => {
      const view: ViewDescriptor = {
        kind: 'thread',
        operation: 'postRepliesV2',
        params: { tweetId: sandbox.examples.bigThreadPostId, queryType: 'Latest' },
      };

      const once = await sandboxExporter(sandbox.baseUrl);
      const straight = join(once.dir, 'straight.json');
      const job0 = await once.service.start({ view, format: 'json', scope: 'all', targetPath: straight });
      expect((await once.service.settled(job0.id)).status).toBe('complete');
      const full = await read(straight);
      expect(full.items.length).toBeGreaterThanOrEqual(10_000);

      const first = await sandboxExporter(sandbox.baseUrl);
      const target = join(first.dir, 'capped.json');
      const job = await first.service.start({
        view,
        format: 'json',
        scope: 'all',
        caps: { maxPages: 100 },
        targetPath: target,
      });
      expect(await first.service.settled(job.id)).toMatchObject({
        status: 'partial',
        stopReason: 'cap-pages',
        resumable: true,
      });
      await first.service.resume(job.id, { maxItems: 6_000 });
      expect(await first.service.settled(job.id)).toMatchObject({ status: 'partial', stopReason: 'cap-items' });
      const partial = await read(target);
      expect(partial.manifest.complete).toBe(false);

      // "restart": a new client and service over the same saved state
      const second = await sandboxExporter(sandbox.baseUrl);
      const { ExportService } = await import('./export-service');
      const { clientPageSource } = await import('../compose/client-page-source');
      const { systemClock } = await import('../clock');
      const restarted = new ExportService({
        source: clientPageSource(second.client),
        stateDir: first.stateDir,
        clock: systemClock,
        context: () => ({ appName: 'Skein', appVersion: '0.1.0', mode: 'demo', baseUrl: sandbox.baseUrl }),
        confirm: async () => true,
      });
      expect((await restarted.list()).map((j) => j.id)).toEqual([job.id]);
      // to the end: no caps, which the user confirms in main's dialog
      await restarted.resume(job.id, {});
      expect((await restarted.settled(job.id)).status).toBe('complete');

      const resumed = await read(target);
      expect(resumed.items).toEqual(full.items);
      expect([...resumed.manifest.pages].map((p) => p.cursor)).toEqual([...full.manifest.pages].map((p) => p.cursor));
      expect(resumed.manifest).toMatchObject({
        complete: true,
        counts: { items: full.manifest.counts.items, pages: full.manifest.counts.pages },
      });
      // the tree is whole: every reply's parent is the root or an earlier item
      const placed = new Set([sandbox.examples.bigThreadPostId]);
      for (const e of resumed.items) {
        if (e.item.id !== sandbox.examples.bigThreadPostId) expect(placed.has(e.parent_id ?? '')).toBe(true);
        placed.add(e.item.id);
      }
    },
  );
});
