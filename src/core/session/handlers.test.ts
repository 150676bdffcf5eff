/**
 * The client's bridge functions end to end in Node: contract dispatcher →
 * handlers → services → the real sandbox. Proves the key never leaves main
 * (canary), the usage meter equals the sandbox's ledger, and that changing
 * the mode or the key never serves an answer of the old one.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { contract, type ApiCallOutput, type Envelope, type Settings, type UsageSnapshot } from '../../shared/ipc';
import { startSandbox, type Sandbox } from '../../sandbox';
import { createClientServices } from './client-services';
import type { SecretBackend } from '../ports';
import { FakeClock } from '../testing/fake-clock';
import { fakeSecretStorage } from '../testing/fake-secret-storage';
import { createContractDispatcher } from '../bridge/dispatch';
import { CARD_AUTHOR_FIELDS, type Post, type User } from '../../shared/api/schemas';
import { createApiHandlers, forBridge } from '../api/handlers';
import { createSettingsHandlers } from './handlers';

const { api, credentials, settings, usage, cache } = contract;
const shape = { api, credentials, settings, usage, cache };

const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

interface Setup {
  sandbox: Sandbox;
  dir: string;
  call: <T = unknown>(channel: string, input?: unknown, senderId?: number) => Promise<Envelope<T>>;
  /** every envelope the bridge returned, as JSON */
  outputs: string[];
  logs: string[];
  fault: (spec: string | undefined) => void;
  ledger: () => Promise<{
    totals: { calls: number; credits: number; byOperation: Record<string, { calls: number; credits: number }> };
  }>;
  requests: () => Promise<Array<{ key: string; url: string }>>;
}

async function setup(
  opts: { requiredKey?: string; live?: boolean; backend?: SecretBackend; dir?: string } = {},
): Promise<Setup> {
  const sandbox = await startSandbox({
    port: 0,
    size: 'small',
    requiredKey: opts.requiredKey,
  });
  cleanup.push(() => sandbox.close());
  const dir = opts.dir ?? mkdtempSync(join(tmpdir(), 'skein-client-'));
  if (!opts.dir) cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
  let fault: string | undefined;
  const logs: string[] = [];
  const services = createClientServices({
    userDataDir: dir,
    secretStorage: fakeSecretStorage(opts.backend ?? 'keychain'),
    demoBaseUrl: async () => sandbox.baseUrl,
    fetch: (url, init) =>
      fetch(url, {
        ...init,
        headers: { ...(init.headers as Record<string, string>), ...(fault ? { 'x-sandbox-fault': fault } : {}) },
      }),
    clock: new FakeClock(undefined, { autoAdvance: true }),
    random: () => 0.5,
    writeLog: (line) => logs.push(line),
    logLevel: 'debug',
    initial: opts.live ? { baseUrl: sandbox.baseUrl } : undefined,
    // the user at the screen says yes to main's dialogs (raising the pace, keeping the key without a keyring)
    confirm: async () => true,
  });
  const dispatcher = createContractDispatcher(shape, {
    ...createApiHandlers(services),
    ...createSettingsHandlers(services),
  });
  const outputs: string[] = [];
  const control = async <T>(path: string) => (await (await fetch(`${sandbox.baseUrl}${path}`)).json()) as T;
  return {
    sandbox,
    dir,
    outputs,
    logs,
    fault: (spec) => (fault = spec),
    async call<T>(channel: string, input?: unknown, senderId = 1) {
      const res = (await dispatcher.dispatch(`skein:${channel}`, input, { senderId })) as Envelope<T>;
      outputs.push(JSON.stringify(res));
      return res;
    },
    ledger: () => control('/__sandbox/usage'),
    requests: async () =>
      (await control<{ requests: Array<{ key: string; url: string }> }>('/__sandbox/requests')).requests,
  };
}

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...filesUnder(p));
    else out.push(readFileSync(p, 'latin1'));
  }
  return out;
}

const data = <T>(e: Envelope<T>): T => {
  if (!e.ok) throw new Error(`${e.error.code}: ${e.error.message}`);
  return e.data;
};

describe('the API key never leaves main', () => {
  it.each(['keychain', 'basic_text'] as const)(
    'canary key with %s storage: not in any bridge answer, log line or file',
    async (backend) => {
      const canary = `CANARY-${randomBytes(12).toString('hex')}`;
      const s = await setup({ requiredKey: canary, live: true, backend });
      await s.call('settings.update', { persistKeyWithoutKeyring: true, requestsPerSecond: 50 });
      const set = data(await s.call<{ storage: string }>('credentials.set', { key: canary }));
      expect(set.storage).toBe(backend === 'keychain' ? 'keychain' : 'file');
      const ex = s.sandbox.examples;

      // successes, failures of every kind, cache hits: all of it goes through the bridge
      expect(
        data(
          await s.call<ApiCallOutput>('api.call', {
            operation: 'postQuotes',
            params: { tweetId: ex.muchQuotedPostId },
          }),
        ).items.length,
      ).toBeGreaterThan(0);
      await s.call('api.call', { operation: 'postQuotes', params: { tweetId: ex.muchQuotedPostId } });
      await s.call('api.call', { operation: 'postQuotes', params: { tweetId: '1' } });
      await s.call('api.call', { operation: 'article', params: { tweet_id: '1' } });
      // a service that echoes the key in its error text
      for (const f of [
        '401',
        '402',
        '429',
        '503',
        'non-json',
        'status-error',
        'reset',
        `400;detail=the key ${canary} is wrong`,
        `status-error;msg=no user for ${canary}`,
      ]) {
        s.fault(f);
        expect((await s.call('api.call', { operation: 'trends', params: {}, fresh: true })).ok).toBe(false);
      }
      s.fault(undefined);
      await s.call('credentials.status');
      await s.call('settings.get');
      await s.call('usage.get');

      // the key was really used…
      expect((await s.requests()).every((r) => r.key === 'sent')).toBe(true);
      // …and is nowhere the renderer, a log or a file could show it
      expect(s.logs.length).toBeGreaterThan(0);
      for (const text of [...s.outputs, ...s.logs, ...filesUnder(s.dir)]) expect(text).not.toContain(canary);
      expect(s.outputs.join('\n')).not.toContain(canary.slice(7));
    },
  );

  it('a stored key survives a restart; clearing it forgets it', async () => {
    const canary = `CANARY-${randomBytes(8).toString('hex')}`;
    const first = await setup({ requiredKey: canary, live: true });
    data(await first.call('credentials.set', { key: canary }));
    const again = await setup({ requiredKey: canary, live: true, dir: first.dir });
    expect(data(await again.call('credentials.status'))).toMatchObject({ configured: true, storage: 'keychain' });
    expect(data(await again.call('credentials.clear'))).toMatchObject({ configured: false, storage: 'none' });
  });
});

describe('usage meter equals the sandbox ledger', () => {
  it('a scripted session of 30 mixed calls: same calls, same credits', async () => {
    const s = await setup();
    const ex = s.sandbox.examples;
    const manyIds = Array.from({ length: 100 }, (_, i) => String(1_000 + i)).join(',');
    const script: Array<[fault: string | undefined, input: Record<string, unknown>]> = [
      [undefined, { operation: 'postQuotes', params: { tweetId: ex.muchQuotedPostId } }],
      [undefined, { operation: 'postQuotes', params: { tweetId: ex.muchQuotedPostId } }], // from the store
      [undefined, { operation: 'postRepliesV2', params: { tweetId: ex.bigThreadPostId, queryType: 'Latest' } }],
      [undefined, { operation: 'postReplies', params: { tweetId: ex.bigThreadPostId } }],
      ['replies-under-tweets', { operation: 'postReplies', params: { tweetId: ex.bigThreadPostId }, fresh: true }],
      [undefined, { operation: 'userMentions', params: { userName: ex.profile.userName } }],
      ['search-bare', { operation: 'userSearch', params: { query: 'an' } }],
      [undefined, { operation: 'postsByIds', params: { tweet_ids: `${ex.mediaPostId},${ex.bigThreadPostId},5` } }],
      [undefined, { operation: 'communityInfo', params: { community_id: ex.communityId } }],
      [undefined, { operation: 'listFollowers', params: { list_id: ex.listId } }],
      ['timeline-data', { operation: 'userTimeline', params: { userId: ex.profile.id } }],
      [undefined, { operation: 'communityMembers', params: { community_id: ex.communityId } }],
      [undefined, { operation: 'spaceDetail', params: { space_id: ex.runningSpaceId } }],
      [undefined, { operation: 'spaceDetail', params: { space_id: ex.runningSpaceId } }], // never cached
      [undefined, { operation: 'usersByIds', params: { userIds: ex.profile.id } }],
      [undefined, { operation: 'usersByIds', params: { userIds: manyIds } }],
      ['trends-nested', { operation: 'trends', params: { woeid: 1, count: 40 } }],
      [undefined, { operation: 'listTimeline', params: { listId: ex.listId } }],
      [undefined, { operation: 'communityModerators', params: { community_id: ex.communityId } }],
      [undefined, { operation: 'article', params: { tweet_id: ex.mediaPostId } }],
      ['503', { operation: 'trends', params: { woeid: 23424977 } }], // 4 attempts, each billed
      ['402', { operation: 'trends', params: { woeid: 44418 } }],
      ['429;retry-after=1', { operation: 'trends', params: { woeid: 2459115 } }],
      ['status-error', { operation: 'usersByIds', params: { userIds: '42' } }],
      ['non-json', { operation: 'postQuotes', params: { tweetId: ex.bigThreadPostId } }],
      ['truncate', { operation: 'userMentions', params: { userName: 'x' + ex.profile.userName } }],
      [undefined, { operation: 'postQuotes', params: { tweetId: ex.muchQuotedPostId, cursor: 'bogus' } }],
      [undefined, { operation: 'postQuotes', params: { tweetId: '1' } }],
      ['reset', { operation: 'listTimeline', params: { listId: ex.listId }, fresh: true }],
      ['duplicates, live-objects', { operation: 'listTimeline', params: { listId: ex.listId }, fresh: true }],
    ];
    expect(script).toHaveLength(30);
    let page2: string | null = null;
    for (const [fault, input] of script) {
      s.fault(fault);
      const res = await s.call<ApiCallOutput>('api.call', input);
      if (res.ok && input.operation === 'postQuotes') page2 ??= res.data.paging?.nextCursor ?? null;
    }
    s.fault(undefined);
    // and a second page of a view
    data(
      await s.call('api.call', { operation: 'postQuotes', params: { tweetId: ex.muchQuotedPostId, cursor: page2 } }),
    );

    const meter = data(await s.call<UsageSnapshot>('usage.get'));
    const { totals } = await s.ledger();
    expect(totals.calls).toBeGreaterThan(30);
    expect(meter.session.calls).toBe(totals.calls);
    expect(meter.session.credits).toBe(totals.credits);
    for (const row of meter.byOperation)
      expect(totals.byOperation[row.operation]).toMatchObject({ calls: row.calls, credits: row.credits });
    expect(meter.recent.filter((c) => c.fromCache)).toHaveLength(1);
  });
});

describe('settings, mode and key through the bridge', () => {
  it('switching mode or key never serves an answer of the other one', async () => {
    const s = await setup();
    const quotes = { operation: 'postQuotes', params: { tweetId: s.sandbox.examples.muchQuotedPostId } };
    data(await s.call('api.call', quotes));
    expect(data(await s.call<ApiCallOutput>('api.call', quotes)).meta.fromCache).toBe(true);
    data(await s.call('credentials.set', { key: 'another-key' }));
    // saving a key switches nothing: the mode in force stays until the person picks another
    expect(data(await s.call<Settings>('settings.get')).mode).toBe('demo');
    // but nothing answered before the key changed is served after it
    expect(data(await s.call<ApiCallOutput>('api.call', quotes)).meta.fromCache).toBe(false);
    data(await s.call('settings.update', { mode: 'live' }));
    const live = await s.call('api.call', quotes);
    expect(live).toMatchObject({
      ok: false,
      error: { code: 'validation', details: { fields: [{ field: 'baseUrl' }] } },
    });
    data(await s.call('settings.update', { mode: 'demo' }));
    expect(data(await s.call<ApiCallOutput>('api.call', quotes)).meta.fromCache).toBe(false);
    expect(data(await s.call<{ cleared: number }>('cache.clear')).cleared).toBe(1);
  });

  it('refuses params the catalog does not allow, before any request', async () => {
    const s = await setup();
    expect(await s.call('api.call', { operation: 'postQuotes', params: { tweetId: '' } })).toMatchObject({
      ok: false,
      error: { code: 'validation' },
    });
    expect(
      await s.call('api.call', { operation: 'postQuotes', params: { tweetId: '1', url: 'https://evil.example' } }),
    ).toMatchObject({ ok: false });
    expect(await s.call('api.call', { operation: 'trends', params: { count: 500 } })).toMatchObject({
      ok: false,
      error: { code: 'validation' },
    });
    expect(await s.requests()).toHaveLength(0);
  });

  it('cancels a call by id for its own window only', async () => {
    const s = await setup();
    s.fault('hang');
    const pending = s.call('api.call', { operation: 'trends', params: {}, callId: 'slow' }, 5);
    for (let i = 0; i < 1000 && (await s.requests()).length === 0; i++) await new Promise((r) => setImmediate(r));
    expect(data(await s.call('api.cancel', { callId: 'slow' }, 6))).toEqual({ cancelled: false });
    expect(data(await s.call('api.cancel', { callId: 'slow' }, 5))).toEqual({ cancelled: true });
    expect(await pending).toMatchObject({ ok: false, error: { code: 'cancelled' } });
  });
});

describe('what the renderer is sent', () => {
  it('posts with their authors cut to what a card shows; users whole; main keeps the whole answer', async () => {
    const s = await setup();
    const quotes = { operation: 'postQuotes', params: { tweetId: s.sandbox.examples.muchQuotedPostId } };
    const sent = data(await s.call<ApiCallOutput>('api.call', quotes));
    const posts = sent.items as Array<
      Record<string, unknown> & {
        author: Record<string, unknown>;
        quoted_tweet: { author: Record<string, unknown> } | null;
      }
    >;
    expect(posts.length).toBeGreaterThan(0);
    for (const p of posts) {
      expect(Object.keys(p.author).sort()).toEqual([...CARD_AUTHOR_FIELDS].sort());
      if (p.quoted_tweet) expect(Object.keys(p.quoted_tweet.author).sort()).toEqual([...CARD_AUTHOR_FIELDS].sort());
      expect(p).toHaveProperty('text');
      expect(p).toHaveProperty('entities');
    }
    expect(posts.some((p) => p.quoted_tweet)).toBe(true);
    // from main's store: cut the same way (the stored answer was not cut in place)
    const again = data(await s.call<ApiCallOutput>('api.call', quotes));
    expect(again.meta.fromCache).toBe(true);
    expect(again.items).toEqual(sent.items);

    const people = data(await s.call<ApiCallOutput>('api.call', { operation: 'userSearch', params: { query: 'a' } }));
    expect(people.items.length).toBeGreaterThan(0);
    for (const u of people.items as User[]) expect(u).toHaveProperty('description');
  });

  it('cuts a copy, never the answer main holds', () => {
    const author = {
      type: 'user',
      id: '1',
      userName: 'ada',
      name: 'Ada',
      url: 'u',
      isBlueVerified: true,
      profilePicture: 'p',
      description: 'bio',
      followers: 3,
    };
    const post = {
      id: '2',
      text: 't',
      kept: 'unknown field',
      author,
      quoted_tweet: { id: '3', text: 'q', author, quoted_tweet: null },
    } as unknown as Post;
    const result = { operation: 'postQuotes', items: [post] } as unknown as ApiCallOutput;
    const sent = forBridge('postQuotes', result).items[0] as Record<string, unknown>;
    expect(sent).toMatchObject({
      id: '2',
      text: 't',
      kept: 'unknown field',
      author: { id: '1', name: 'Ada', userName: 'ada', profilePicture: 'p', isBlueVerified: true },
    });
    expect(sent.author).not.toHaveProperty('description');
    expect((sent.quoted_tweet as { author: object }).author).not.toHaveProperty('followers');
    expect(post.author).toHaveProperty('description');
    expect(forBridge('userSearch', result)).toBe(result);
  });
});
