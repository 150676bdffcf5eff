/**
 * An export's walk is a view of the client's paging guards. The collection de-duplicates its items itself (it keeps
 * every id for its resume), so the view guards the walk's cursors and holds none of its ids (tens of MB at a million
 * items, held twice otherwise). When a run of the walk is over (done, capped, cancelled) the view its pages were
 * asked under goes, not hundreds of views later. A resumed run walks under a view of its own; its de-duplication
 * across runs is the collection's (rebuilt from the journal).
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ViewDescriptor } from '../../shared/ipc/export';
import { startSandbox, type Sandbox } from '../../sandbox';
import { createApiClient } from '../api/client';
import { createRateLimiter } from '../api/policy/rate-limiter';
import type { ApiClient } from '../api/types';
import { systemClock } from '../clock';
import { ExportService } from '../export/export-service';
import { clientPageSource } from './client-page-source';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ size: 'small' });
});
afterAll(async () => sandbox?.close());

/** the real client, its views' comings and goings watched */
function watchedClient(): { client: ApiClient; asked: string[]; forgotten: string[]; withIds: number } {
  const real = createApiClient({
    target: async () => ({ baseUrl: sandbox.baseUrl, key: null, limiter: createRateLimiter(systemClock, Infinity) }),
    fetch,
    clock: systemClock,
  });
  const asked: string[] = [];
  const forgotten: string[] = [];
  const watched = { asked, forgotten, withIds: 0 };
  const client: ApiClient = {
    ...real,
    fetchPage: (input) => {
      if (input.viewKey) asked.push(input.viewKey);
      if (input.viewIds !== false) watched.withIds++;
      return real.fetchPage(input);
    },
    forgetView: (viewKey) => {
      forgotten.push(viewKey);
      real.forgetView(viewKey);
    },
  };
  return Object.assign(watched, { client });
}

describe("an export's walk and the client's paging view", () => {
  it('lets the view go when each run of the walk ends, capped and resumed', async () => {
    const watched = watchedClient();
    const { client, asked, forgotten } = watched;
    const dir = await mkdtemp(join(tmpdir(), 'skein-walk-view-'));
    const service = new ExportService({
      source: clientPageSource(client),
      stateDir: join(dir, 'state'),
      clock: systemClock,
      context: () => ({ appName: 'Skein', appVersion: '0.1.0', mode: 'demo', baseUrl: sandbox.baseUrl }),
      confirm: async () => true,
    });
    const view: ViewDescriptor = {
      kind: 'thread',
      operation: 'postRepliesV2',
      params: { tweetId: sandbox.examples.bigThreadPostId, queryType: 'Latest' },
      title: 'thread',
    };
    const job = await service.start({
      view,
      format: 'jsonl',
      scope: 'all',
      caps: { maxPages: 3 },
      targetPath: join(dir, 'out.jsonl'),
    });
    const capped = await service.settled(job.id);
    expect(capped.stopReason).toBe('cap-pages');
    // the collection de-duplicates: no page asked its view to hold ids
    expect(asked).toHaveLength(3);
    expect(watched.withIds).toBe(0);
    const walkViews = [...new Set(asked)];
    expect(walkViews).toHaveLength(1);
    // the capped walk is over: its view went
    expect(forgotten).toEqual(walkViews);

    await service.resume(job.id, { maxPages: 5 });
    const done = await service.settled(job.id);
    expect(done.stopReason).toBe('cap-pages');
    // the resumed run walks under a view of its own, which goes too once it stops
    const runViews = [...new Set(asked)];
    expect(runViews).toHaveLength(2);
    expect(forgotten).toEqual(runViews);
    // the job's cap counts both runs' pages
    expect(done.progress.pages).toBe(5);
    expect(done.progress.items).toBeGreaterThan(capped.progress.items);
    await service.dispose();
  });
});
