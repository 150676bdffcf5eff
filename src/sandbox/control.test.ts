/** The control plane: examples, request log, usage reset, info. */
import { describe, expect, it } from 'vitest';
import { DemoExamples } from '../shared/ipc/app';
import type { RequestLogEntry } from './ledger';
import { useSandbox } from './test-utils';

const sandbox = useSandbox();

describe('control plane', () => {
  it('examples: the showcase ids, as the DemoExamples schema says, all resolvable', async () => {
    const c = sandbox();
    const ex = (await c.control<DemoExamples>('GET', '/__sandbox/examples')).json;
    expect(DemoExamples.parse(ex)).toEqual(c.sandbox.examples);
    const ok = async (path: string): Promise<number> => (await c.get(path)).status;
    expect(await ok(`/social/tweets?tweet_ids=${ex.bigThreadPostId},${ex.muchQuotedPostId},${ex.mediaPostId}`)).toBe(
      200,
    );
    const posts = (
      await c.get(`/social/tweets?tweet_ids=${ex.bigThreadPostId},${ex.muchQuotedPostId},${ex.mediaPostId}`)
    ).json.tweets as { entities: { media?: unknown[] } }[];
    expect(posts).toHaveLength(3);
    expect(posts[2]?.entities.media?.length).toBeGreaterThan(0);
    expect(await ok(`/social/user/tweet_timeline?userId=${ex.profile.id}`)).toBe(200);
    expect(await ok(`/social/user/mentions?userName=${ex.profile.userName}`)).toBe(200);
    expect(await ok(`/social/community/info?community_id=${ex.communityId}`)).toBe(200);
    expect(await ok(`/social/list/tweets_timeline?listId=${ex.listId}`)).toBe(200);
    expect(await ok(`/social/spaces/detail?space_id=${ex.runningSpaceId}`)).toBe(200);
    expect(await ok(`/social/spaces/detail?space_id=${ex.endedSpaceId}`)).toBe(200);
  });

  it('requests: /social/ calls with status, operation and faults; clearable', async () => {
    const c = sandbox();
    await c.control('DELETE', '/__sandbox/requests');
    await c.get('/social/trends?count=1');
    await c.get('/social/trends', { 'x-sandbox-fault': '503' });
    await c.get('/social/unknown');
    await c.control('GET', '/__sandbox/usage');
    const log = (await c.control<{ requests: RequestLogEntry[] }>('GET', '/__sandbox/requests')).json.requests;
    expect(log.map((r) => [r.method, r.url, r.operation, r.status, r.faults ?? []])).toEqual([
      ['GET', '/social/trends?count=1', 'trends', 200, []],
      ['GET', '/social/trends', 'trends', 503, ['503']],
      ['GET', '/social/unknown', null, 404, []],
    ]);
  });

  it('usage reset empties the ledger; info describes the sandbox', async () => {
    const c = sandbox();
    await c.get('/social/trends');
    expect((await c.control('POST', '/__sandbox/usage/reset')).status).toBe(204);
    expect((await c.control<{ calls: unknown[] }>('GET', '/__sandbox/usage')).json.calls).toEqual([]);
    const info = (await c.control<Record<string, unknown>>('GET', '/__sandbox')).json;
    expect(info).toMatchObject({ seed: 1, requiresKey: false, operations: 16 });
  });
});
