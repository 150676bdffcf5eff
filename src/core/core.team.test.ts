/**
 * Team projects wired into the core (issue 37): two Skeins (two cores, two user data folders) connect to one
 * PostgreSQL project through the bridge's handlers, collect at once, see each other's answers with who
 * collected them, never pay twice for a page the other bought, and the project is copied into a file with its
 * counts checked. The password is kept by the OS key store's stand-in, never in a file, a state or a page.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type CoreDeps } from '.';
import { startSandbox, type Sandbox } from '../sandbox';
import { skipWithoutPostgres, startTestCluster, type TestCluster } from './archive/testing/postgres';
import { createDispatcher } from './bridge/dispatch';
import { testCoreDeps } from './testing/core-deps';
import { fakeSecretStorage } from './testing/fake-secret-storage';

const skip = skipWithoutPostgres();
const dirs: string[] = [];
const sandboxes: Sandbox[] = [];
let cluster: TestCluster;
let api: Sandbox;
const ctx = { senderId: 1 };
const KEY = 'test-api-key-canary-1234';

async function call(core: ReturnType<typeof createCore>, channel: string, input: unknown) {
  const res = await createDispatcher(core.handlers).dispatch(channel, input, ctx);
  if (!res.ok) throw new Error(`${channel}: ${res.error.message}`);
  return res.data as Record<string, unknown>;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((f) => join(dir, f))
    .filter((f) => statSync(f).isFile());
}

describe.skipIf(skip)(`a team project in the core${skip ? ` (${skip})` : ''}`, () => {
  beforeAll(async () => {
    [cluster, api] = await Promise.all([startTestCluster(), startSandbox({ port: 0, size: 'small' })]);
  }, 120_000);
  afterAll(async () => {
    cluster?.stop();
    await api?.close();
    for (const s of sandboxes) await s.close();
    dirs.forEach((d) => rmSync(d, { recursive: true, force: true }));
  });

  const skein = (chooseSavePath?: CoreDeps['chooseSavePath']) => {
    const dir = mkdtempSync(join(tmpdir(), 'skein-core-team-'));
    dirs.push(dir);
    const deps = (): CoreDeps =>
      testCoreDeps(dir, sandboxes, {
        apiBaseUrl: api.baseUrl,
        apiKey: KEY,
        secretStorage: fakeSecretStorage('gnome_libsecret'),
        ...(chooseSavePath ? { chooseSavePath } : {}),
      });
    return { dir, deps };
  };

  it(
    'two Skeins share one project: both see both, who collected what, no page bought twice',
    { timeout: 90_000 },
    async () => {
      const address = `postgresql://skein@127.0.0.1:${cluster.port}/postgres?schema=team&sslmode=disable`;
      const one = skein();
      const copyTo = join(one.dir, 'copies', 'Elections');
      const a = createCore({ ...one.deps(), chooseSavePath: async () => copyTo });
      const two = skein();
      const b = createCore(two.deps());
      // one types the password into the connection string, the other beside it
      const stateA = await call(a, 'skein:projects.connect', {
        connection: `postgresql://skein:${encodeURIComponent(cluster.password)}@127.0.0.1:${cluster.port}/postgres?sslmode=disable`,
        schema: 'team',
        researcher: 'Ada',
        name: 'Elections 2026',
      });
      expect(stateA.current).toMatchObject({
        name: 'Elections 2026',
        store: 'postgres',
        tls: 'off',
        location: address,
      });
      expect(stateA.researcher).toBe('Ada');
      const stateB = await call(b, 'skein:projects.connect', {
        connection: `postgresql://skein@127.0.0.1:${cluster.port}/postgres?sslmode=disable`,
        password: cluster.password,
        schema: 'team',
        researcher: 'Grace',
      });
      expect(stateB.current).toMatchObject({ name: 'Elections 2026', id: (stateA.current as { id: string }).id });

      // each collects a thread of its own, at once
      const ex = api.examples;
      const askA = { operation: 'postReplies', params: { tweetId: ex.bigThreadPostId }, callId: 'a' };
      const askB = { operation: 'postQuotes', params: { tweetId: ex.muchQuotedPostId }, callId: 'b' };
      const [gotA, gotB] = await Promise.all([call(a, 'skein:api.call', askA), call(b, 'skein:api.call', askB)]);
      const idA = (gotA.items as Array<{ id: string }>)[0]!.id;
      const idB = (gotB.items as Array<{ id: string }>)[0]!.id;
      // both see both, once written (answers are written in batches every 100 ms)
      for (const core of [a, b])
        await expect
          .poll(
            async () =>
              ((await call(core, 'skein:projects.state', undefined)).current as { requests: number }).requests,
          )
          .toBe(2);
      const provA = await call(b, 'skein:archive.provenance', { kind: 'post', id: idA });
      expect((provA.requests as Array<{ researcher: string }>).map((r) => r.researcher)).toEqual(['Ada']);
      const provB = await call(a, 'skein:archive.provenance', { kind: 'post', id: idB });
      expect((provB.requests as Array<{ researcher: string }>).map((r) => r.researcher)).toEqual(['Grace']);
      const state = await call(a, 'skein:projects.state', undefined);
      expect((state.current as { researchers: Array<{ name: string }> }).researchers.map((r) => r.name).sort()).toEqual(
        ['Ada', 'Grace'],
      );
      // Grace asks for the page Ada bought: the team's project answers, no call, no credit
      const again = await call(b, 'skein:api.call', { ...askA, callId: 'c' });
      expect(again.meta).toMatchObject({ fromCache: true, credits: 0, attempts: 0 });

      // the project copied into a file, every table counted
      const copied = await call(a, 'skein:projects.copy', { to: { file: true } });
      expect(copied.to).toMatchObject({ store: 'sqlite', location: `${copyTo}.skein`, name: 'Elections 2026' });
      for (const t of copied.tables as Array<{ name: string; source: number; copied: number }>)
        expect(t.copied, t.name).toBe(t.source);
      expect(
        (copied.tables as Array<{ name: string; source: number }>).find((t) => t.name === 'requests')?.source,
      ).toBe(2);

      // the password is nowhere: not in a state the page gets, not in a file (the key store's ciphertext only)
      for (const s of [stateA, stateB, state, copied]) expect(JSON.stringify(s)).not.toContain(cluster.password);
      for (const f of [...filesUnder(one.dir), ...filesUnder(two.dir)])
        expect(readFileSync(f).includes(cluster.password), f).toBe(false);
      await a.dispose();

      // a restart: the project opens again with the kept password
      const again2 = createCore(one.deps());
      const reopened = await call(again2, 'skein:projects.state', undefined);
      expect(reopened.current).toMatchObject({ store: 'postgres', requests: 2, name: 'Elections 2026' });
      expect(reopened.problem).toBeNull();
      await again2.dispose();
      await b.dispose();
    },
  );

  it('refuses a wrong password in plain words and stays on the project it had', { timeout: 30_000 }, async () => {
    const core = createCore(skein().deps());
    const res = await createDispatcher(core.handlers).dispatch(
      'skein:projects.connect',
      {
        connection: `postgresql://skein:not-the-canary-pw@127.0.0.1:${cluster.port}/postgres?sslmode=disable`,
        schema: 'wrong',
        researcher: 'Ada',
      },
      ctx,
    );
    expect(res.ok).toBe(false);
    expect(JSON.stringify(res)).toMatch(/refused skein/);
    expect(JSON.stringify(res)).not.toContain('not-the-canary-pw');
    const state = await call(core, 'skein:projects.state', undefined);
    expect(state.current).toMatchObject({ store: 'sqlite', name: 'Default' });
    await core.dispose();
  });
});
