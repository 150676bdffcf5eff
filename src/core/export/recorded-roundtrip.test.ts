/**
 * Exports of the sandbox's recorded live shapes keep every raw item byte for byte (the retweet
 * wrapper with its original, the live community_info, the documented space), and the CSV gives a
 * retweet's original and full text.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ViewDescriptor } from '../../shared/ipc/export';
import { startSandbox, type Sandbox } from '../../sandbox';
import { decodeCsvId } from '../formats/csv/rows';
import { sandboxExporter, walk } from './testing/sandbox-export';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ size: 'small', now: () => Date.UTC(2026, 10, 22, 2, 13, 21) });
  for (const [fault, operation] of [
    ['recorded-posts', 'postQuotes'],
    ['community-live', 'communityInfo'],
    ['space-documented', 'spaceDetail'],
  ]) {
    const res = await fetch(`${sandbox.baseUrl}/__sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ fault, operations: [operation] }),
    });
    expect(res.status).toBe(201);
  }
});
afterAll(async () => sandbox?.close());

async function exportView(view: ViewDescriptor, format: 'json' | 'csv'): Promise<string> {
  const { dir, service } = await sandboxExporter(sandbox.baseUrl);
  const target = join(dir, `${view.kind}.${format}`);
  const job = await service.start({ view, format, scope: 'all', targetPath: target });
  const done = await service.settled(job.id);
  expect(done.error).toBeNull();
  return readFile(target, 'utf8');
}

describe('export of recorded live shapes', () => {
  it('quotes: every raw post (retweet wrappers, long texts, [0] viewCounts) byte for byte; CSV with the original and full text', async () => {
    const params = { tweetId: sandbox.examples.muchQuotedPostId };
    const view: ViewDescriptor = { kind: 'quotes', operation: 'postQuotes', params, title: 'quotes' };
    const sent = (await walk(sandbox.baseUrl, 'postQuotes', params)).flatMap((p) => p.items);
    const doc = JSON.parse(await exportView(view, 'json')) as { items: unknown[] };
    expect(doc.items.map((i) => JSON.stringify(i))).toEqual(sent.map((i) => JSON.stringify(i)));
    const retweets = sent.filter((p) => (p as { retweeted_tweet?: unknown }).retweeted_tweet);
    expect(retweets.length).toBeGreaterThan(0);

    const rows = parse<Record<string, string>>(await exportView(view, 'csv'), { bom: true, columns: true });
    const rt = retweets[0] as {
      id: string;
      text: string;
      retweeted_tweet: { id: string; text: string; author: { id: string; userName: string } };
    };
    const row = rows.find((r) => decodeCsvId(r.id!) === rt.id)!;
    expect(row.text).toBe(rt.text);
    expect(decodeCsvId(row.retweeted_tweet_id!)).toBe(rt.retweeted_tweet.id);
    expect(decodeCsvId(row.retweeted_tweet_author_id!)).toBe(rt.retweeted_tweet.author.id);
    expect(row.retweeted_tweet_author_userName).toBe(rt.retweeted_tweet.author.userName);
    expect(row.full_text).toBe(rt.retweeted_tweet.text);
  });

  it('community and space: the live community_info and the documented space are the exported items, as sent', async () => {
    const community = await fetch(
      `${sandbox.baseUrl}/social/community/info?community_id=${sandbox.examples.communityId}`,
    );
    const communityBody = (await community.json()) as { community_info: unknown };
    const c = JSON.parse(
      await exportView(
        {
          kind: 'community',
          operation: 'communityInfo',
          params: { community_id: sandbox.examples.communityId },
          title: 'c',
        },
        'json',
      ),
    ) as { items: unknown[] };
    expect(JSON.stringify(c.items)).toBe(JSON.stringify([communityBody.community_info]));

    const space = await exportView(
      { kind: 'space', operation: 'spaceDetail', params: { space_id: sandbox.examples.endedSpaceId }, title: 's' },
      'csv',
    );
    const [row] = parse<Record<string, string>>(space, { bom: true, columns: true });
    expect(row).toMatchObject({ state: 'Ended', title: expect.stringMatching(/\S/) });
  });
});
