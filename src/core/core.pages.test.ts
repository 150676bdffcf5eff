/**
 * The pages a collection links to, through the bridge of a demo core: the count first, then a capture the page
 * polls — every linked URL captured from the sandbox's small web or failed with its reason — into a WACZ in the
 * demo project's pages folder; capturing again fetches nothing new. With the web archive save service turned on
 * in Settings, each linked URL is also sent to the sandbox's stand-in, its capture address or reason listed per
 * URL; sending again sends nothing saved before.
 */
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { demoCores } from './testing/demo-cores';
import type { PageListRow, PagesJob } from '../shared/ipc/pages';

const cores = demoCores('skein-core-pages');

describe('keeping linked pages in the core', () => {
  it(
    'counts, captures into a WACZ in the project’s pages folder, again fetches nothing; sends to the save service',
    { timeout: 120_000 },
    async () => {
      const dir = cores.folder();
      const { core, call } = cores.core(dir);
      const ex = await call<{ profile: { id: string } }>('skein:demo.examples', undefined);
      let cursor: string | null = null;
      for (let i = 0; i < 12; i++) {
        const params: Record<string, string> = cursor ? { userId: ex.profile.id, cursor } : { userId: ex.profile.id };
        const page = await call<{ paging: { nextCursor: string | null } | null }>('skein:api.call', {
          operation: 'userTimeline',
          params,
          callId: `pages-${i}`,
        });
        cursor = page.paging?.nextCursor ?? null;
        if (!cursor) break;
      }
      const collection = await call<{ id: number }>('skein:archive.saveSearch', { project: 'demo', name: 'Profile' });

      const estimate = await call<{ urls: number; alreadyCaptured: number; posts: number }>('skein:pages.estimate', {
        collection: collection.id,
      });
      expect(estimate.urls).toBeGreaterThan(3);
      expect(estimate.alreadyCaptured).toBe(0);

      const until = async (id: string): Promise<PagesJob> => {
        for (let i = 0; i < 2_400; i++) {
          const job = await call<PagesJob | null>('skein:pages.job', { id });
          if (job && job.state !== 'running') return job;
          await new Promise((r) => setTimeout(r, 50));
        }
        throw new Error('the capture did not end');
      };
      const started = await call<PagesJob>('skein:pages.capture', { collection: collection.id });
      const first = await until(started.id);
      expect(first).toMatchObject({ state: 'done', total: estimate.urls, done: estimate.urls });
      expect(first.captured + first.failed).toBe(estimate.urls);
      expect(first.captured).toBeGreaterThan(0);
      expect(first.wacz).toMatch(/pages-\d{8}T\d{6}Z-[0-9a-f]{8}\.wacz$/);
      expect(existsSync(first.wacz as string)).toBe(true);
      expect(dirname(first.wacz as string)).toBe(first.folder);
      expect(first.folder).toBe(join(dir, 'projects', 'Demo.skein-pages'));
      // demo mode: the run's WACZ timestamped by the sandbox's stand-in authority, as media's runs are
      expect(first.timestamp).toMatchObject({ authority: expect.stringMatching(/\/tsa$/), reason: null });
      expect(first.timestamp?.genTime).toEqual(expect.any(Number));

      const again = await until((await call<PagesJob>('skein:pages.capture', { collection: collection.id })).id);
      expect(again).toMatchObject({
        state: 'done',
        captured: 0,
        alreadyCaptured: first.captured,
        wacz: null,
        timestamp: null,
      });
      // nothing new written: the one WACZ, and its run's manifest and token
      expect(readdirSync(first.folder as string).sort()).toEqual([first.wacz?.split('/').pop(), 'timestamps']);
      expect(readdirSync(join(first.folder as string, 'timestamps'))).toHaveLength(2);
      const after = await call<{ urls: number; alreadyCaptured: number }>('skein:pages.estimate', {
        collection: collection.id,
      });
      expect(after).toMatchObject({ urls: first.failed, alreadyCaptured: first.captured });
      expect(first.save).toBeNull();

      // the save service on: every linked URL sent to the sandbox's stand-in, once a second at most
      await call('skein:settings.update', { saveService: true, saveServicePaceSeconds: 1 });
      const sent = await until((await call<PagesJob>('skein:pages.capture', { collection: collection.id })).id);
      expect(sent.save).toMatchObject({ total: estimate.urls, done: estimate.urls, alreadySaved: 0 });
      expect((sent.save?.saved ?? 0) + (sent.save?.failed ?? 0)).toBe(estimate.urls);
      expect(sent.save?.saved).toBeGreaterThan(0);
      const list = await call<PageListRow[]>('skein:pages.list', { collection: collection.id });
      expect(list).toHaveLength(estimate.urls);
      for (const row of list) {
        if (row.save?.state === 'saved')
          expect(row.save.captureUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/web-archive\/\d{14}\/https?:\/\//);
        else expect(row.save?.message).toMatch(/^the save service answered 520: /);
      }
      const resent = await until((await call<PagesJob>('skein:pages.capture', { collection: collection.id })).id);
      expect(resent.save).toMatchObject({ total: sent.save?.failed, saved: 0, alreadySaved: sent.save?.saved });
      await core.dispose();
    },
  );
});
