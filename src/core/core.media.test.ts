/**
 * Keeping media through a demo core: Settings' largest video to keep changes what the estimate counts and which
 * variant a keeping stores (the lower one, fetched from the sandbox), and a second keeping fetches nothing.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { damageFirstPostOf } from './archive/testing/damage';
import { demoCores } from './testing/demo-cores';
import type { Core, CoreDeps } from '.';
import { startSandbox } from '../sandbox';
import type { ExportJob } from '../shared/ipc/export';
import type { EvidencePackage, MediaEstimate, MediaJob } from '../shared/ipc/media';
import type { WatchSummary } from '../shared/ipc/watch';

const cores = demoCores('skein-core-media');
const { sandboxes } = cores;

/** a demo core whose project holds a profile's timeline, and a bridge to call it */
async function demoCore(name: string, over: Partial<CoreDeps> = {}) {
  const dir = cores.folder(name);
  const { core, call } = cores.core(dir, { watches: { start: false }, ...over });
  const ex = await call<{ profile: { id: string } }>('skein:demo.examples', undefined);
  return { core, call, dir, profile: ex.profile.id };
}

async function readTimeline(call: Awaited<ReturnType<typeof demoCore>>['call'], userId: string): Promise<void> {
  let cursor: string | null = null;
  for (let page = 0; page < 4; page++) {
    const params: Record<string, string> = { userId, ...(cursor ? { cursor } : {}) };
    const answer = await call<{ paging: { nextCursor: string | null } | null }>('skein:api.call', {
      operation: 'userTimeline',
      params,
      callId: `p${page}`,
    });
    cursor = answer.paging?.nextCursor ?? null;
    if (!cursor) break;
  }
}

const mediaLog = async (core: Core): Promise<string[]> => {
  const s = await core.sandbox();
  const body = (await (await fetch(`${s?.baseUrl}/__sandbox/media-requests`)).json()) as {
    requests: { url: string }[];
  };
  return body.requests.map((r) => r.url);
};

describe('the largest video to keep', () => {
  it('lowers the estimate, and a keeping stores the variant under the maximum', { timeout: 120_000 }, async () => {
    const { core, call, profile } = await demoCore('limit');
    try {
      await readTimeline(call, profile);
      const collection = await call<{ id: number }>('skein:archive.saveSearch', {
        project: 'demo',
        name: 'With media',
        media: true,
      });
      const best = await call<MediaEstimate>('skein:media.estimate', { collection: collection.id });
      expect(best.knownBytes).toBeGreaterThan(0);

      const settings = await call<{ maxVideoBitrate: number | null }>('skein:settings.update', {
        maxVideoBitrate: 900_000,
      });
      expect(settings.maxVideoBitrate).toBe(900_000);
      const capped = await call<MediaEstimate>('skein:media.estimate', { collection: collection.id });
      expect(capped.files).toBe(best.files);
      expect(capped.knownBytes).toBeLessThan(best.knownBytes);

      const kept = await core.media.keep(collection.id);
      expect(kept.failed).toBe(0);
      const videos = (await mediaLog(core)).filter((u) => /\/vid-/.test(u));
      expect(videos.length).toBeGreaterThan(0);
      // every video fetched is the 832 kbit/s variant, the highest under 900 kbit/s; none of the 2.2 Mbit/s
      expect(videos.every((u) => u.endsWith('-832000.mp4'))).toBe(true);
      const files = await call<{ url: string; mime: string }[]>('skein:media.kept', { collection: collection.id });
      expect(files.filter((f) => f.mime === 'video/mp4' && /\/vid-/.test(f.url)).length).toBeGreaterThan(0);
      expect(files.some((f) => f.url.endsWith('-2176000.mp4'))).toBe(false);
    } finally {
      await core.dispose();
    }
  });
});

describe('an export that keeps its posts’ media', () => {
  it(
    'keeps the written collection’s media as one job, told on the export’s job, and refuses a view of accounts',
    { timeout: 120_000 },
    async () => {
      const jobs: ExportJob[] = [];
      const target = { path: '' };
      const { core, call, dir, profile } = await demoCore('export', {
        chooseSavePath: async () => target.path,
        emit: (channel, payload) => {
          if (channel === 'export') jobs.push(payload as ExportJob);
        },
      });
      target.path = join(dir, 'timeline.jsonl');
      try {
        const s = await core.sandbox();
        await fetch(`${s?.baseUrl}/__sandbox/media-requests`, { method: 'DELETE' });
        const view = { kind: 'timeline', operation: 'userTimeline', params: { userId: profile }, title: 'Profile' };
        // the option is checked at the bridge: a view of accounts has no media to keep
        const accounts = { kind: 'peopleSearch', operation: 'userSearch', params: { query: 'a' } };
        await expect(
          call('skein:export.start', { view: accounts, format: 'jsonl', scope: 'all', keepMedia: true }),
        ).rejects.toThrow(/Only the media of posts can be kept/);

        const started = await call<{ job: ExportJob }>('skein:export.start', {
          view,
          format: 'jsonl',
          scope: 'all',
          caps: { maxPages: 3 },
          keepMedia: true,
        });
        expect(started.job.keepMedia).toBe(true);
        await expect
          .poll(() => jobs.findLast((j) => j.id === started.job.id)?.mediaJob, { timeout: 60_000 })
          .toBeTruthy();
        const told = jobs.findLast((j) => j.id === started.job.id) as ExportJob;
        expect(told.collection).toBeGreaterThan(0);
        await expect
          .poll(async () => call<MediaJob | null>('skein:media.job', { id: told.mediaJob }), { timeout: 60_000 })
          .toMatchObject({ state: 'done', collection: told.collection });
        const media = await call<MediaJob>('skein:media.job', { id: told.mediaJob });
        expect(media.kept).toBeGreaterThan(0);
        // what it would take was worked out as it started (nobody saw an estimate before the export was written)
        expect(media.estimate).toMatchObject({ files: media.kept, alreadyKept: 0 });
        expect(media.failed).toBe(0);
        // the collection's media are kept now: keeping it again has nothing to fetch
        expect(await call<MediaEstimate>('skein:media.estimate', { collection: told.collection })).toMatchObject({
          files: 0,
          alreadyKept: media.kept,
        });
        const fetched = await mediaLog(core);
        expect(new Set(fetched).size).toBe(fetched.length);

        // an export that did not ask keeps nothing: its job names a collection and no keeping
        const plain = await call<{ job: ExportJob }>('skein:export.start', {
          view,
          format: 'jsonl',
          scope: 'loaded',
        });
        await expect
          .poll(() => jobs.findLast((j) => j.id === plain.job.id)?.collection, { timeout: 60_000 })
          .toBeTruthy();
        expect(jobs.findLast((j) => j.id === plain.job.id)?.mediaJob).toBeUndefined();
      } finally {
        await core.dispose();
      }
    },
  );
});

describe('a watch that keeps its media after each run', () => {
  it(
    'keeps the media of its posts run by run, each file fetched once, and its card says how many',
    { timeout: 180_000 },
    async () => {
      let offset = 0;
      const now = () => Date.UTC(2026, 10, 1, 9) + offset;
      const { core, call, profile } = await demoCore('watch', {
        now,
        confirm: async () => true,
        watches: { start: false, tickMs: 60_000 },
        startSandbox: async () => {
          const s = await startSandbox({ port: 0, size: 'small', now, seed: 7, activity: 4 });
          sandboxes.push(s);
          return s;
        },
      });
      try {
        const s = await core.sandbox();
        await fetch(`${s?.baseUrl}/__sandbox/media-requests`, { method: 'DELETE' });
        const created = await call<WatchSummary>('skein:watch.create', {
          name: 'Profile with media',
          kind: 'accounts',
          targets: [profile],
          strategy: 'full',
          schedule: { everyMinutes: 60 },
          caps: { perRun: 5_000, perDay: 20_000, total: 100_000 },
          options: { firstPages: 3, keepMedia: true },
        });
        await core.watches.scheduler.tick();
        const first = (await call<{ watches: WatchSummary[] }>('skein:watch.list', undefined)).watches.find(
          (w) => w.id === created.id,
        ) as WatchSummary;
        expect(first.kept.posts).toBeGreaterThan(0);
        const afterFirst = await mediaLog(core);
        expect(afterFirst.length).toBeGreaterThan(0);
        expect(first.media).toMatchObject({ files: afterFirst.length, failure: null });

        offset += 72 * 60 * 60_000;
        await core.watches.scheduler.tick();
        const second = (await call<{ watches: WatchSummary[] }>('skein:watch.list', undefined)).watches.find(
          (w) => w.id === created.id,
        ) as WatchSummary;
        expect(second.runs).toBe(2);
        // the second run found new posts, so the watch's media were kept again (only what was not kept yet)
        expect(second.lastRun?.newItems).toBeGreaterThan(0);
        expect(second.media?.at).toBeGreaterThan(first.media?.at ?? Infinity);
        // across both runs each media address was fetched once: the second run fetched only what was new
        const fetched = await mediaLog(core);
        expect(new Set(fetched).size).toBe(fetched.length);
        expect(second.media?.files).toBe(fetched.length);
      } finally {
        await core.dispose();
      }
    },
  );
});

describe('an evidence package of a collection holding a damaged post', () => {
  it(
    'leaves the post out, counts it, and names it in the manifest with how to mend it',
    { timeout: 120_000 },
    async () => {
      const first = await demoCore('evidence-damaged');
      await readTimeline(first.call, first.profile);
      const collection = await first.call<{ id: number; items: number }>('skein:archive.saveSearch', {
        project: 'demo',
        name: 'Profile',
      });
      await first.core.dispose();
      const damaged = { id: damageFirstPostOf(join(first.dir, 'projects', 'Demo.skein'), collection.id) };

      const target = join(first.dir, 'profile.evidence.zip');
      const { core, call } = cores.core(first.dir, { watches: { start: false }, chooseSavePath: async () => target });
      try {
        const made = await call<EvidencePackage>('skein:media.evidence', { collection: collection.id });
        expect(made).toMatchObject({ path: target, posts: collection.items - 1, damaged: 1 });
        const zip = unzipSync(await readFile(target));
        const manifest = JSON.parse(strFromU8(zip['manifest.json']!)) as {
          posts: { count: number; left_out_damaged: { posts: number; ids: string[] } };
        };
        expect(manifest.posts).toMatchObject({
          count: collection.items - 1,
          left_out_damaged: { posts: 1, ids: [damaged.id] },
        });
        const lines = strFromU8(zip['posts.jsonl']!).trim().split('\n');
        expect(lines.map((l) => (JSON.parse(l) as { id: string }).id)).not.toContain(damaged.id);
        // what keeping the collection's media or linked pages would fetch says it cannot read that post
        expect(await call('skein:media.estimate', { collection: collection.id })).toMatchObject({ damagedPosts: 1 });
        expect(await call('skein:pages.estimate', { collection: collection.id })).toMatchObject({ damagedPosts: 1 });
      } finally {
        await core.dispose();
      }
    },
  );
});
