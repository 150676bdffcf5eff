/** Every answer of every operation against the shared schemas; paging walks; 501s. */
import { describe, expect, it } from 'vitest';
import { OPERATION_IDS, OPERATIONS, responseSchema, ValidationErrorBody, type OperationId } from '../shared/api';
import { PAGE_SIZE } from './pipeline';
import { SAMPLE_QUERIES } from './samples';
import { qs, useSandbox, walk } from './test-utils';

const sandbox = useSandbox();
const available = OPERATION_IDS.filter((id) => OPERATIONS[id].available);
const unavailable = OPERATION_IDS.filter((id) => !OPERATIONS[id].available);

function collection(id: OperationId, body: Record<string, unknown>): unknown[] {
  const v = body[OPERATIONS[id].collectionKey];
  return Array.isArray(v) ? v : [v];
}

function itemId(item: unknown): string {
  const o = item as Record<string, unknown>;
  return String(o.id ?? o.name);
}

describe('every operation answers the spec', () => {
  it.each(available)('%s: first pages validate against responseSchema', async (id) => {
    const c = sandbox();
    for (const q of SAMPLE_QUERIES[id](c.sandbox.examples)) {
      const a = await c.get(OPERATIONS[id].path + qs(q));
      expect(a.status, a.text.slice(0, 300)).toBe(200);
      expect(a.headers.get('content-type')).toMatch(/^application\/json/);
      const parsed = responseSchema(id).safeParse(a.json);
      expect(parsed.success, parsed.error?.message).toBe(true);
      expect(a.json.status).toBe('success');
      expect(a.json[OPERATIONS[id].messageKey]).toBe('');
      expect('has_next_page' in a.json).toBe(OPERATIONS[id].paged);
      expect('next_cursor' in a.json).toBe(OPERATIONS[id].paged);
    }
  });

  it.each(available.filter((id) => OPERATIONS[id].paged))(
    '%s: walking every page ends, without duplicates',
    async (id) => {
      const c = sandbox();
      for (const q of SAMPLE_QUERIES[id](c.sandbox.examples)) {
        const seen = new Set<string>();
        const { pages } = await walk(c, OPERATIONS[id].path, q, {
          onPage: (body) => {
            const parsed = responseSchema(id).safeParse(body);
            expect(parsed.success, parsed.error?.message).toBe(true);
            const items = collection(id, body);
            expect(items.length).toBeLessThanOrEqual(PAGE_SIZE);
            for (const item of items) {
              expect(seen.has(itemId(item)), `duplicate ${itemId(item)}`).toBe(false);
              seen.add(itemId(item));
            }
          },
        });
        const last = pages.at(-1) as Record<string, unknown>;
        expect(last.has_next_page).toBe(false);
        expect(last.next_cursor).toBe('');
        pages.slice(0, -1).forEach((p) => expect(collection(id, p)).toHaveLength(PAGE_SIZE));
      }
    },
  );

  it('walks agree with the counters: replies v1 = replyCount, quotes = quoteCount, v2 = whole conversation', async () => {
    const c = sandbox();
    const ex = c.sandbox.examples;
    const posts = (await c.get(`/social/tweets?tweet_ids=${ex.bigThreadPostId},${ex.muchQuotedPostId}`)).json
      .tweets as Record<string, number>[];
    const [big, quoted] = posts as [Record<string, number>, Record<string, number>];
    const count = async (path: string, q: Record<string, string>, key: string): Promise<unknown[]> =>
      (await walk(c, path, q)).pages.flatMap((p) => p[key] as unknown[]);
    expect(await count('/social/tweet/replies', { tweetId: ex.bigThreadPostId }, 'replies')).toHaveLength(
      big.replyCount as number,
    );
    expect(await count('/social/tweet/quotes', { tweetId: ex.muchQuotedPostId }, 'tweets')).toHaveLength(
      quoted.quoteCount as number,
    );
    const thread = (await count('/social/tweet/replies/v2', { tweetId: ex.bigThreadPostId }, 'tweets')) as Record<
      string,
      string
    >[];
    expect(thread.slice(1).every((p) => p.conversationId === ex.bigThreadPostId)).toBe(true);
    expect(thread.length).toBeGreaterThan(big.replyCount as number);
  });

  it.each(unavailable)('%s: HTTP 501 with a JSON body, never charged', async (id) => {
    const c = sandbox();
    await c.control('POST', '/__sandbox/usage/reset');
    const queries = [...SAMPLE_QUERIES[id](c.sandbox.examples), {}];
    for (const q of queries) {
      const a = await c.get(OPERATIONS[id].path + qs(q));
      expect(a.status).toBe(501);
      expect(typeof (a.json as { detail: string }).detail).toBe('string');
    }
    const usage = (await c.control<{ totals: { credits: number; calls: number } }>('GET', '/__sandbox/usage')).json;
    expect(usage.totals.calls).toBe(queries.length);
    expect(usage.totals.credits).toBe(0);
  });
});

describe('validation errors: 422 with the FastAPI detail list', () => {
  const required = available.flatMap((id) =>
    OPERATIONS[id].params.filter((p) => p.required).map((p) => [id, p.name] as const),
  );

  it.each(required)('%s without %s', async (id, name) => {
    const c = sandbox();
    const [sample] = SAMPLE_QUERIES[id](c.sandbox.examples);
    const { [name]: _dropped, ...rest } = sample ?? {};
    const a = await c.get(OPERATIONS[id].path + qs(rest));
    expect(a.status).toBe(422);
    expect(ValidationErrorBody.safeParse(a.json).success).toBe(true);
    expect(a.json).toEqual({ detail: [{ loc: ['query', name], msg: 'Field required', type: 'missing' }] });
  });

  const bad: [string, string, string, string][] = [
    ['/social/trends', 'woeid=abc', 'woeid', 'int_parsing'],
    ['/social/trends', 'count=0', 'count', 'greater_than_equal'],
    ['/social/trends', 'count=51', 'count', 'less_than_equal'],
    ['/social/tweets', 'tweet_ids=1,x,3', 'tweet_ids', 'value_error'],
    ['/social/tweets', 'tweet_ids=1,,3', 'tweet_ids', 'value_error'],
    [
      '/social/tweets',
      `tweet_ids=${Array.from({ length: 101 }, (_, i) => i + 1).join(',')}`,
      'tweet_ids',
      'value_error',
    ],
    ['/social/user/batch_info_by_ids', 'userIds=', 'userIds', 'value_error'],
    ['/social/tweet/replies/v2', 'tweetId=1&queryType=Newest', 'queryType', 'enum'],
    ['/social/user/tweet_timeline', 'userId=1&includeReplies=yes', 'includeReplies', 'bool_parsing'],
    ['/social/tweet/quotes', 'tweetId=', 'tweetId', 'string_too_short'],
    ['/social/tweet/quotes', 'tweetId=1&tweetId=2', 'tweetId', 'string_type'],
    ['/social/user/mentions', 'userName=x&cursor=not-a-cursor', 'cursor', 'value_error'],
  ];
  it.each(bad)('%s?%s -> %s (%s)', async (path, query, name, type) => {
    const a = await sandbox().get(`${path}?${query}`);
    expect(a.status).toBe(422);
    const detail = (a.json as { detail: { loc: string[]; type: string; msg: string }[] }).detail;
    expect(detail).toHaveLength(1);
    expect(detail[0]).toMatchObject({ loc: ['query', name], type });
    expect(detail[0]?.msg.length).toBeGreaterThan(5);
  });

  it('100 ids are accepted (the documented maximum)', async () => {
    const ids = Array.from({ length: 100 }, (_, i) => String(i + 1)).join(',');
    expect((await sandbox().get(`/social/tweets?tweet_ids=${ids}`)).status).toBe(200);
  });
});

describe('not found, wrong path, wrong method', () => {
  const single: [string, Record<string, string>][] = [
    ['/social/tweet/quotes', { tweetId: '1999999999999999999' }],
    ['/social/tweet/replies/v2', { tweetId: '123' }],
    ['/social/tweet/replies', { tweetId: '2004498434513438278' }],
    ['/social/user/mentions', { userName: 'nobody_here_at_all' }],
    ['/social/community/info', { community_id: '42' }],
    ['/social/list/followers', { list_id: '42' }],
    ['/social/user/tweet_timeline', { userId: '42' }],
    ['/social/spaces/detail', { space_id: '1NoSuchSpace00' }],
    ['/social/list/tweets_timeline', { listId: '42' }],
    ['/social/trends', { woeid: '999' }],
  ];
  it.each(single)('%s %o -> 404 with a detail', async (path, q) => {
    const a = await sandbox().get(path + qs(q));
    expect(a.status).toBe(404);
    expect((a.json as { detail: string }).detail).toMatch(/^No .+ found for /);
  });

  it('batch lookups return only the ids found, in the order asked, once each', async () => {
    const c = sandbox();
    const ex = c.sandbox.examples;
    const posts = await c.get(
      `/social/tweets${qs({ tweet_ids: `${ex.mediaPostId},1,${ex.bigThreadPostId},${ex.mediaPostId}` })}`,
    );
    expect((posts.json.tweets as { id: string }[]).map((p) => p.id)).toEqual([ex.mediaPostId, ex.bigThreadPostId]);
    const users = await c.get(`/social/user/batch_info_by_ids${qs({ userIds: `2,${ex.profile.id}` })}`);
    expect((users.json.users as { id: string }[]).map((u) => u.id)).toEqual([ex.profile.id]);
    const none = await c.get('/social/user/batch_info_by_ids?userIds=5,6');
    expect(none.json.users).toEqual([]);
  });

  it('unknown path: 404 JSON; wrong method: 405', async () => {
    const c = sandbox();
    const a = await c.get('/social/nope');
    expect(a.status).toBe(404);
    expect(a.json).toEqual({ detail: 'Not Found' });
    const b = await c.control('POST', '/social/trends');
    expect(b.status).toBe(405);
    expect(b.headers.get('allow')).toBe('GET, HEAD');
  });
});
