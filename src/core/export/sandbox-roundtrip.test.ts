import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExportFormat, ViewDescriptor, ViewKind } from '../../shared/ipc/export';
import { VIEW_OPERATIONS } from '../../shared/ipc/export';
import { startSandbox, type Sandbox } from '../../sandbox';
import { decodeCsvId } from '../formats/csv/rows';
import type { ExportManifest } from '../formats';
import { sandboxExporter, unique, walk } from './testing/sandbox-export';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ size: 'small', now: () => Date.UTC(2026, 10, 22, 2, 13, 21) });
});
afterAll(async () => sandbox?.close());

const MISSING_ID = '1999999999999999999';

function views(): Record<ViewKind, ViewDescriptor['params']> {
  const ex = sandbox.examples;
  return {
    thread: { tweetId: ex.bigThreadPostId, queryType: 'Latest' },
    directReplies: { tweetId: ex.bigThreadPostId },
    quotes: { tweetId: ex.muchQuotedPostId },
    postsByIds: { tweet_ids: [ex.mediaPostId, ex.bigThreadPostId, MISSING_ID, ex.muchQuotedPostId].join(',') },
    timeline: { userId: ex.profile.id, includeReplies: true, includeParentTweet: false },
    mentions: { userName: ex.profile.userName },
    peopleSearch: { query: ex.profile.userName.slice(0, 3) },
    usersByIds: { userIds: [ex.profile.id, MISSING_ID].join(',') },
    community: { community_id: ex.communityId },
    listPosts: { listId: ex.listId },
    listFollowers: { list_id: ex.listId },
    space: { space_id: ex.runningSpaceId },
    trends: { woeid: 1, count: 30 },
  };
}

interface JsonDoc {
  manifest: ExportManifest;
  items: unknown[];
}

describe('export round trip against the sandbox, every view kind', () => {
  for (const kind of Object.keys(VIEW_OPERATIONS) as ViewKind[]) {
    it(`${kind}: export then parse gives back the raw items the sandbox sent, in order, with a correct manifest`, async () => {
      const operation = VIEW_OPERATIONS[kind];
      const params = views()[kind];
      const { dir, service } = await sandboxExporter(sandbox.baseUrl);
      const target = join(dir, `${kind}.json`);
      const view: ViewDescriptor = { kind, operation, params, title: kind };
      const job = await service.start({ view, format: 'json', scope: 'all', targetPath: target });
      const done = await service.settled(job.id);
      expect(done.error).toBeNull();
      expect(done.status).toBe('complete');

      const walked = await walk(sandbox.baseUrl, operation, params);
      const sent = unique(walked.flatMap((p) => p.items));
      expect(sent.items.length).toBeGreaterThan(0);
      const doc = JSON.parse(await readFile(target, 'utf8')) as JsonDoc;
      const raw =
        kind === 'thread' || kind === 'directReplies' ? doc.items.map((e) => (e as { item: unknown }).item) : doc.items;
      expect(raw).toEqual(sent.items);

      const m = doc.manifest;
      expect(m).toMatchObject({
        mode: 'demo',
        base_url: sandbox.baseUrl,
        view: { kind, operation },
        complete: true,
        incomplete_reason: null,
        counts: {
          pages: walked.length,
          items: sent.items.length,
          duplicates_removed: sent.duplicates,
          dropped: 0,
          calls: walked.length,
        },
      });
      expect([...m.pages].map((p) => p.cursor)).toEqual(walked.map((p) => p.cursor));
      expect([...m.pages].map((p) => p.next_cursor)).toEqual(walked.map((p) => p.nextCursor));
      expect([...m.pages].every((p) => !Number.isNaN(Date.parse(p.fetched_at)) && !p.from_cache)).toBe(true);
      if (kind === 'postsByIds' || kind === 'usersByIds') expect(m.ids_not_found).toEqual([MISSING_ID]);
      else expect(m.ids_not_found).toEqual([]);
      expect(m.estimated_credits).toBeGreaterThan(0);
    });
  }

  it('the estimated credits match the sandbox ledger', async () => {
    await fetch(`${sandbox.baseUrl}/__sandbox/usage/reset`, { method: 'POST' });
    const { dir, service } = await sandboxExporter(sandbox.baseUrl);
    const target = join(dir, 'q.json');
    const job = await service.start({
      view: { kind: 'quotes', operation: 'postQuotes', params: views().quotes },
      format: 'json',
      scope: 'all',
      targetPath: target,
    });
    await service.settled(job.id);
    const ledger = (await (await fetch(`${sandbox.baseUrl}/__sandbox/usage`)).json()) as {
      totals: { calls: number; credits: number };
    };
    const { manifest } = JSON.parse(await readFile(target, 'utf8')) as JsonDoc;
    expect(manifest.counts.calls).toBe(ledger.totals.calls);
    expect(manifest.estimated_credits).toBe(ledger.totals.credits);
  });

  it('a space exports to two CSV files (the space, its participants) and a manifest', async () => {
    const { dir, service } = await sandboxExporter(sandbox.baseUrl);
    const target = join(dir, 'space.csv');
    const job = await service.start({
      view: { kind: 'space', operation: 'spaceDetail', params: views().space },
      format: 'csv',
      scope: 'all',
      targetPath: target,
    });
    expect((await service.settled(job.id)).files.map((f) => f.slice(dir.length + 1))).toEqual([
      'space.csv',
      'space.participants.csv',
      'space.csv.load.py',
      'space.csv.load.R',
      'space.csv.manifest.json',
    ]);
    expect((await readdir(dir)).sort()).toEqual([
      'space.csv',
      'space.csv.load.R',
      'space.csv.load.py',
      'space.csv.manifest.json',
      'space.participants.csv',
      'state',
    ]);
    const [space] = parse<Record<string, string>>(await readFile(target, 'utf8'), { bom: true, columns: true });
    expect(decodeCsvId(space!.space_id!)).toBe(sandbox.examples.runningSpaceId);
    const participants = parse<Record<string, string>>(await readFile(join(dir, 'space.participants.csv'), 'utf8'), {
      bom: true,
      columns: true,
    });
    expect(participants.length).toBeGreaterThan(0);
    expect(new Set(participants.map((p) => p.role))).toContain('admin');
  });

  it('the key never appears in any file an export writes or keeps (canary)', async () => {
    const canary = 'CANARY-KEY-7d1f0c9e-do-not-leak';
    const guarded = await startSandbox({ size: 'small', requiredKey: canary });
    try {
      for (const format of ['json', 'jsonl', 'csv'] as ExportFormat[]) {
        const { dir, service, stateDir } = await sandboxExporter(guarded.baseUrl, canary);
        const job = await service.start({
          view: { kind: 'thread', operation: 'postRepliesV2', params: { tweetId: guarded.examples.bigThreadPostId } },
          format,
          scope: 'all',
          caps: { maxPages: 2 },
          targetPath: join(dir, `t.${format}`),
        });
        const partial = await service.settled(job.id);
        expect(partial).toMatchObject({ status: 'partial', resumable: true });
        // what is kept for resuming, and what was written
        const files = [
          ...(await readdir(stateDir, { recursive: true })).map((f) => join(stateDir, f)),
          ...partial.files,
        ];
        let scanned = 0;
        for (const f of files) {
          const text = await readFile(f, 'utf8').catch(() => '');
          expect(text).not.toContain(canary);
          scanned += text.length;
        }
        expect(scanned).toBeGreaterThan(10_000);
      }
      // a failing call (wrong key) records its error in the job: still no key in it
      const { dir, service, stateDir } = await sandboxExporter(guarded.baseUrl, `${canary}-wrong`);
      const job = await service.start({
        view: { kind: 'trends', operation: 'trends', params: {} },
        format: 'json',
        scope: 'all',
        targetPath: join(dir, 'x.json'),
      });
      const failed = await service.settled(job.id);
      expect(failed.error?.code).toBe('unauthorized');
      expect(JSON.stringify(failed)).not.toContain(canary);
      for (const f of await readdir(stateDir, { recursive: true })) {
        expect(await readFile(join(stateDir, f), 'utf8').catch(() => '')).not.toContain(canary);
      }
    } finally {
      await guarded.close();
    }
  });
});
