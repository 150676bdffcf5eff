/** The usage ledger prices calls with the shared creditsFor and the documented defaults. */
import { describe, expect, it } from 'vitest';
import { creditsFor, DEFAULT_PRICES } from '../shared/api';
import type { LedgerEntry } from './ledger';
import { qs, useSandbox, type Client } from './test-utils';

const sandbox = useSandbox();

async function charged(c: Client, path: string): Promise<LedgerEntry> {
  await c.control('POST', '/__sandbox/usage/reset');
  await c.get(path);
  const usage = (await c.control<{ calls: LedgerEntry[] }>('GET', '/__sandbox/usage')).json;
  expect(usage.calls).toHaveLength(1);
  return usage.calls[0] as LedgerEntry;
}

describe('default prices (api-field-notes.md)', () => {
  it('posts: 15 per returned post', async () => {
    const c = sandbox();
    const e = await charged(c, `/social/tweet/quotes${qs({ tweetId: c.sandbox.examples.muchQuotedPostId })}`);
    expect(e).toMatchObject({ operation: 'postQuotes', status: 200, items: 20, credits: 300 });
  });

  it('profiles: 18 per returned profile', async () => {
    const c = sandbox();
    const e = await charged(c, `/social/list/followers${qs({ list_id: c.sandbox.examples.listId })}`);
    expect(e).toMatchObject({ operation: 'listFollowers', credits: 150 }); // list endpoints: 150 per call
    const s = await charged(c, '/social/user/search?query=a');
    expect(s.credits).toBe(18 * s.items);
  });

  it('batch users: 18 per user under 100 ids asked, 10 per user from 100', async () => {
    const c = sandbox();
    const known = c.sandbox.examples.profile.id;
    const few = await charged(c, `/social/user/batch_info_by_ids${qs({ userIds: `${known},1,2` })}`);
    expect(few).toMatchObject({ items: 1, idsAsked: 3, credits: 18 });
    const hundred = [known, ...Array.from({ length: 99 }, (_, i) => String(i + 1))].join(',');
    const many = await charged(c, `/social/user/batch_info_by_ids${qs({ userIds: hundred })}`);
    expect(many).toMatchObject({ items: 1, idsAsked: 100, credits: 15 }); // 10 x 1 user, raised to the minimum
  });

  it('community info 20, list timeline 150, space and trends the minimum', async () => {
    const c = sandbox();
    const ex = c.sandbox.examples;
    expect((await charged(c, `/social/community/info${qs({ community_id: ex.communityId })}`)).credits).toBe(20);
    expect((await charged(c, `/social/list/tweets_timeline${qs({ listId: ex.listId })}`)).credits).toBe(150);
    expect((await charged(c, `/social/spaces/detail${qs({ space_id: ex.runningSpaceId })}`)).credits).toBe(15);
    expect((await charged(c, '/social/trends')).credits).toBe(15);
  });

  it('minimum 15 on empty pages, 404 and 422; 501 free', async () => {
    const c = sandbox();
    expect(await charged(c, '/social/user/search?query=zzzzqqq')).toMatchObject({ items: 0, credits: 15 });
    expect(await charged(c, '/social/tweet/quotes?tweetId=1')).toMatchObject({ status: 404, credits: 15 });
    expect(await charged(c, '/social/tweet/quotes')).toMatchObject({ status: 422, credits: 15 });
    expect(await charged(c, '/social/article?tweet_id=1')).toMatchObject({ status: 501, credits: 0 });
  });

  it('every entry equals creditsFor of what it records; totals add up', async () => {
    const c = sandbox();
    await c.control('POST', '/__sandbox/usage/reset');
    const ex = c.sandbox.examples;
    for (const path of [
      '/social/trends',
      `/social/tweet/replies?tweetId=${ex.bigThreadPostId}`,
      '/social/tweet/quotes',
      `/social/tweets?tweet_ids=${ex.mediaPostId}`,
    ])
      await c.get(path);
    const { calls, totals } = (
      await c.control<{ calls: LedgerEntry[]; totals: { calls: number; credits: number; usd: number } }>(
        'GET',
        '/__sandbox/usage',
      )
    ).json;
    for (const e of calls) {
      expect(e.credits).toBe(
        creditsFor({ operation: e.operation, httpStatus: e.status, items: e.items, idsAsked: e.idsAsked }),
      );
    }
    expect(totals.calls).toBe(4);
    expect(totals.credits).toBe(calls.reduce((s, e) => s + e.credits, 0));
    expect(totals.usd).toBeCloseTo(totals.credits / DEFAULT_PRICES.creditsPerUsd);
  });
});

describe('a configured price table', () => {
  const custom = useSandbox({ prices: { ...DEFAULT_PRICES, perPost: 1, minimumPerCall: 0 } });
  it('is used for charges and shown with the usage', async () => {
    const c = custom();
    const e = await charged(c, `/social/tweet/quotes${qs({ tweetId: c.sandbox.examples.muchQuotedPostId })}`);
    expect(e.credits).toBe(20);
    const usage = (await c.control<{ prices: { perPost: number } }>('GET', '/__sandbox/usage')).json;
    expect(usage.prices.perPost).toBe(1);
  });
});
