/**
 * Team projects wired into the core: two Skeins (two cores, two user data folders) connect to one
 * PostgreSQL project through the bridge's handlers, collect at once, see each other's answers with who
 * collected them, never pay twice for a page the other bought, and the project is copied into a file with its
 * counts checked. The password is kept by the OS key store's stand-in, never in a file, a state or a page.
 * Two Skeins code one sample at once and see each other's codes; one runs the team's watches, the other stays
 * out and sees its runs.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type CoreDeps } from '.';
import { startSandbox, type Sandbox } from '../sandbox';
import { skipWithoutPostgres, startTestCluster, type TestCluster } from './db/testing/postgres';
import { createDispatcher } from './bridge/dispatch';
import { STANCE } from './coding/testing/codebooks';
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
      // one project, one name everywhere: the team project and its copy are listed by it, told apart by store
      const listed = (await call(a, 'skein:projects.state', undefined)).known as Array<{ name: string; store: string }>;
      expect(
        listed
          .filter((k) => k.name === 'Elections 2026')
          .map((k) => k.store)
          .sort(),
      ).toEqual(['postgres', 'sqlite']);
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

  it(
    'two Skeins code one sample at once and agree on it; one of them runs the team’s watches, the other sees them',
    { timeout: 120_000 },
    async () => {
      const connect = (core: ReturnType<typeof createCore>, researcher: string) =>
        call(core, 'skein:projects.connect', {
          connection: `postgresql://skein@127.0.0.1:${cluster.port}/postgres?sslmode=disable`,
          password: cluster.password,
          schema: 'team_coding',
          researcher,
        });
      const withConfirm = (s: ReturnType<typeof skein>) => createCore({ ...s.deps(), confirm: async () => true });
      const a = withConfirm(skein());
      const b = withConfirm(skein());
      await connect(a, 'Ada');
      await connect(b, 'Grace');
      await call(a, 'skein:api.call', {
        operation: 'postReplies',
        params: { tweetId: api.examples.bigThreadPostId },
        callId: 'a',
      });
      await expect
        .poll(async () => ((await call(b, 'skein:projects.state', undefined)).current as { items: number }).items)
        .toBeGreaterThan(10);

      // Ada makes the codebook and draws the sample; Grace, on her own computer, joins as a coder
      const book = await call(a, 'skein:coding.saveCodebook', {
        name: 'Stance',
        definition: STANCE,
      });
      const ada = await call(a, 'skein:coding.addCoder', { name: 'Ada', kind: 'person' });
      const grace = await call(b, 'skein:coding.addCoder', { name: 'Grace', kind: 'person' });
      // a name another computer took is refused, whatever its case
      await expect(call(a, 'skein:coding.addCoder', { name: 'grace', kind: 'person' })).rejects.toThrow();
      const sample = await call(a, 'skein:coding.drawSample', {
        codebook: book.id,
        name: 'Ten replies',
        source: { kind: 'post' },
        size: 10,
        seed: 'team',
        method: 'random',
        coders: [ada.id, grace.id],
        overlap: 1,
      });
      expect(sample.items).toBe(10);
      const queue = async (core: ReturnType<typeof createCore>, coder: unknown) =>
        (
          (await call(core, 'skein:coding.queue', { sample: sample.id, coder, limit: 50 })).entries as Array<{
            id: string;
          }>
        ).map((e) => e.id);
      const ids = await queue(b, grace.id);
      // every item double-coded (each coder's queue in an order of its own)
      expect([...ids].sort()).toEqual([...(await queue(a, ada.id))].sort());
      // both code every item at once, from two computers
      const code = (core: ReturnType<typeof createCore>, coder: unknown, id: string, value: string) =>
        call(core, 'skein:coding.code', { codebook: book.id, coder, kind: 'post', id, field: 'stance', value });
      await Promise.all(
        ids.flatMap((id, i) => [
          code(a, ada.id, id, i % 2 ? 'for' : 'against'),
          code(b, grace.id, id, i % 2 || i === 0 ? 'for' : 'against'),
        ]),
      );
      await call(b, 'skein:coding.reveal', { coder: grace.id });
      const report = await call(b, 'skein:coding.agreement', {
        codebook: book.id,
        sample: sample.id,
        viewer: grace.id,
      });
      const row = (report.rows as Array<{ units: number; coders: number; percent: number }>)[0];
      expect(row).toMatchObject({ units: 10, coders: 2, percent: 0.9 });

      // a watch made by Ada; her Skein takes the project's runner, Grace's stays out and sees the runs
      const list = (await fetch(`${api.baseUrl}/__sandbox/lists/${api.examples.listId}`).then((r) => r.json())) as {
        members: Array<{ id: string }>;
      };
      const watch = await call(a, 'skein:watch.create', {
        name: 'Three accounts',
        kind: 'accounts',
        targets: list.members.slice(0, 3).map((m) => m.id),
        strategy: 'full',
        listId: null,
        schedule: { everyMinutes: 60, from: null, until: null },
        caps: { perRun: 5_000, perDay: 20_000, total: 100_000 },
        options: { overlap: 3, firstPages: 1, fullEvery: 24, trackDays: 0, trackEvery: 24 },
      });
      await a.watches.scheduler.tick();
      expect(a.watches.scheduler.state()).toMatchObject({ holder: 'self' });
      await b.watches.scheduler.tick();
      expect(b.watches.scheduler.state()).toMatchObject({ holder: 'other', who: 'app' });
      const seen = await call(b, 'skein:watch.list', undefined);
      const summary = (seen.watches as Array<{ id: number; lastRun: { status: string } | null }>).find(
        (w) => w.id === watch.id,
      );
      expect(summary?.lastRun).toMatchObject({ status: 'done' });
      await a.dispose();
      await b.dispose();
    },
  );

  it(
    'refuses a wrong password in plain words, stays on the project it had and keeps no trace of the attempt',
    { timeout: 30_000 },
    async () => {
      const core = createCore(skein().deps());
      const before = await call(core, 'skein:projects.state', undefined);
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
      // a failed connect leaves no entry a later switch or copy could pick
      expect(state.known).toEqual(before.known);
      await core.dispose();
    },
  );
  it(
    'moves this project to the team database in one action: connected, copied, counts checked, switched',
    { timeout: 60_000 },
    async () => {
      const core = createCore(skein().deps());
      const ex = api.examples;
      await call(core, 'skein:api.call', {
        operation: 'postReplies',
        params: { tweetId: ex.bigThreadPostId },
        callId: 'm',
      });
      await expect
        .poll(
          async () => ((await call(core, 'skein:projects.state', undefined)).current as { requests: number }).requests,
        )
        .toBe(1);
      const local = (await call(core, 'skein:projects.state', undefined)).current as {
        items: number;
        location: string;
      };
      const moved = await call(core, 'skein:projects.connect', {
        connection: `postgresql://skein@127.0.0.1:${cluster.port}/postgres?sslmode=disable`,
        password: cluster.password,
        schema: 'team_moved',
        researcher: 'Ada',
        move: true,
      });
      // working in the team's project now, which holds what the file held, under the file's name
      expect(moved.current).toMatchObject({ store: 'postgres', name: 'Default', requests: 1, items: local.items });
      expect(cluster.psql('SELECT count(*) FROM team_moved.requests').trim()).toBe('1');
      // the file is left whole and still listed
      expect((moved.known as Array<{ location: string }>).map((k) => k.location)).toContain(local.location);
      await core.dispose();
    },
  );

  it('a problem lasts as long as its cause: the server goes away and comes back', { timeout: 120_000 }, async () => {
    const { deps } = skein();
    const first = createCore(deps());
    await call(first, 'skein:projects.connect', {
      connection: `postgresql://skein@127.0.0.1:${cluster.port}/postgres?sslmode=disable`,
      password: cluster.password,
      schema: 'comeback',
      researcher: 'Ada',
    });
    const state = () => call(first, 'skein:projects.state', undefined);
    cluster.pause();
    let restarted: ReturnType<typeof createCore>;
    try {
      // the open project loses its server, and a Skein started meanwhile cannot open it: both say so
      expect(await state()).toMatchObject({ current: null, problem: expect.any(String) });
      restarted = createCore(deps());
      expect(await call(restarted, 'skein:projects.state', undefined)).toMatchObject({
        current: null,
        problem: expect.any(String),
      });
    } finally {
      cluster.resume();
    }
    // and once it answers again, neither keeps saying it: no reopening, no switching asked of anyone
    for (const core of [first, restarted])
      await expect
        .poll(async () => await call(core, 'skein:projects.state', undefined), { timeout: 30_000, interval: 500 })
        .toMatchObject({ problem: null, current: { store: 'postgres' } });
    await first.dispose();
    await restarted.dispose();
  });

  it(
    'an export written just as the server goes away: said on the job, then kept as its collection once it is back, with no call',
    { timeout: 120_000 },
    async () => {
      const { dir, deps } = skein();
      const target = join(dir, 'thread.jsonl');
      const jobs: Array<Record<string, unknown>> = [];
      let paused = false;
      let away = false;
      const core = createCore({
        ...deps(),
        chooseSavePath: async () => target,
        // the file is whole and said so before the project keeps it: the server goes away at that very moment
        emit: (channel, payload) => {
          if (channel !== 'export') return;
          const job = payload as Record<string, unknown>;
          jobs.push(job);
          if ((job.status === 'complete' || job.status === 'partial') && !away) {
            away = paused = true;
            cluster.pause();
          }
        },
      });
      const requests = async () =>
        ((await (await fetch(`${api.baseUrl}/__sandbox/requests`)).json()) as { requests: unknown[] }).requests.length;
      try {
        const connectTo = (schema: string) =>
          call(core, 'skein:projects.connect', {
            connection: `postgresql://skein@127.0.0.1:${cluster.port}/postgres?sslmode=disable`,
            password: cluster.password,
            schema,
            researcher: 'Ada',
          });
        const first = (await connectTo('unrecorded')).current as { id: string; name: string };
        const started = await call(core, 'skein:export.start', {
          view: { kind: 'thread', operation: 'postRepliesV2', params: { tweetId: api.examples.bigThreadPostId } },
          format: 'jsonl',
          scope: 'all',
          caps: { maxPages: 2 },
        });
        const id = (started.job as { id: string }).id;
        const status = () => call(core, 'skein:export.status', { jobId: id });
        await expect
          .poll(async () => (await status()).unrecorded, { timeout: 60_000, interval: 250 })
          .toMatchObject({ error: { code: 'offline' } });
        const unrecorded = await status();
        expect(unrecorded).toMatchObject({ status: 'partial', stopReason: 'cap-pages' });
        expect(unrecorded.collection).toBeUndefined();
        expect(JSON.stringify(jobs)).not.toContain(cluster.password);
        // still listed after the file is written, so the window can offer to keep it
        expect(
          ((await call(core, 'skein:export.list', undefined)) as unknown as Array<{ id: string }>).map((j) => j.id),
        ).toContain(id);
        cluster.resume();
        paused = false;
        // another project open now: the items are not there, so it is refused in plain words, and nothing made
        await connectTo('unrecorded_other');
        const refused = await call(core, 'skein:export.record', { jobId: id });
        expect(refused.collection).toBeUndefined();
        expect(refused.unrecorded).toMatchObject({
          error: { message: expect.stringContaining(`went into the project “${first.name}”, not the one open now`) },
          project: { id: first.id },
        });
        expect(cluster.psql('SELECT count(*) FROM unrecorded_other.collections').trim()).toBe('0');
        await call(core, 'skein:projects.switch', { id: first.id });
        const before = await requests();
        // kept once the server is back: every line of the file, in order, once; nothing bought
        await expect
          .poll(async () => (await call(core, 'skein:export.record', { jobId: id })).collection, {
            timeout: 60_000,
            interval: 1_000,
          })
          .toEqual(expect.any(Number));
        const kept = await status();
        expect(kept.unrecorded).toBeUndefined();
        const lines = readFileSync(target, 'utf8').trim().split('\n');
        const fileIds = lines.map((l) => (JSON.parse(l) as { item: { id: string } }).item.id);
        const inCollection = cluster
          .psql(
            `SELECT i.id FROM unrecorded.collection_items c JOIN unrecorded.items i ON i.rowid = c.item
             WHERE c.collection = ${String(kept.collection)} ORDER BY c.position`,
          )
          .trim()
          .split('\n');
        expect(inCollection).toEqual(fileIds);
        expect(cluster.psql('SELECT count(*) FROM unrecorded.collections').trim()).toBe('1');
        expect(await requests()).toBe(before);
      } finally {
        if (paused) cluster.resume();
        await core.dispose();
      }
    },
  );
});
