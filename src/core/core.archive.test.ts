/**
 * The archive wired into the core: every answer recorded in the mode's project (demo
 * apart from live), an answer held from an earlier session served without a call, and projects
 * created, renamed and switched through the bridge's handlers with paths only from main's dialogs.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import { createCore, type CoreDeps } from '.';
import { createDispatcher } from './bridge/dispatch';
import type { Sandbox } from '../sandbox';
import { testCoreDeps } from './testing/core-deps';

const dirs: string[] = [];
const sandboxes: Sandbox[] = [];
afterAll(async () => {
  for (const s of sandboxes) await s.close();
  dirs.forEach((d) => rmSync(d, { recursive: true, force: true }));
});
const ctx = { senderId: 1 };
function coreDeps(userDataDir: string, over: Partial<CoreDeps> = {}): CoreDeps {
  return testCoreDeps(userDataDir, sandboxes, over);
}

async function call(core: ReturnType<typeof createCore>, channel: string, input: unknown) {
  const res = await createDispatcher(core.handlers).dispatch(channel, input, ctx);
  if (!res.ok) throw new Error(`${channel}: ${res.error.message}`);
  return res.data as Record<string, unknown>;
}

describe('the archive in the core', () => {
  it(
    'serves an answer held from an earlier session at no cost, and the meter shows it',
    { timeout: 60_000 },
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'skein-core-archive-'));
      dirs.push(dir);
      const first = createCore(coreDeps(dir));
      const examples = (await call(first, 'skein:demo.examples', undefined)) as { bigThreadPostId: string };
      const ask = { operation: 'postReplies', params: { tweetId: examples.bigThreadPostId }, callId: 'a' };
      const bought = await call(first, 'skein:api.call', ask);
      expect(bought.meta).toMatchObject({ fromCache: false });
      await first.dispose();

      // a restart: a new core, a new sandbox on another port, the same user data folder
      const second = createCore(coreDeps(dir));
      const again = await call(second, 'skein:api.call', { ...ask, callId: 'b' });
      expect(again.meta).toMatchObject({ fromCache: true, credits: 0, attempts: 0 });
      expect((again.items as Array<{ id: string }>).map((p) => p.id)).toEqual(
        (bought.items as Array<{ id: string }>).map((p) => p.id),
      );
      const usage = second.client.usage.snapshot();
      expect(usage.session.credits).toBe(0);
      expect(usage.recent.every((c) => c.fromCache)).toBe(true);

      // demo answers went to the demo project only; the live project holds nothing
      const state = await call(second, 'skein:projects.state', undefined);
      expect(state.demo).toMatchObject({ kind: 'demo', requests: 1 });
      expect(state.current).toMatchObject({ kind: 'live', items: 0, requests: 0 });
      // and the archive finds a reply's words offline
      const reply = (again.items as Array<{ text: string }>)[0]!;
      const word = reply.text.split(/\s+/).find((w) => /^\p{L}{5,}$/u.test(w)) ?? '';
      const found = await call(second, 'skein:archive.search', { text: word });
      expect((found.hits as unknown[]).length).toBeGreaterThan(0);
      await second.dispose();
    },
  );

  it('creates, renames and switches projects; paths come only from main’s dialog', { timeout: 30_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skein-core-projects-'));
    dirs.push(dir);
    const chosen = join(dir, 'elsewhere', 'Study');
    const core = createCore(coreDeps(dir, { chooseSavePath: async () => chosen }));
    const before = await call(core, 'skein:projects.state', undefined);
    expect(before.current).toMatchObject({ name: 'Default' });
    const created = await call(core, 'skein:projects.create', { name: 'Elections 2026' });
    expect(created.current).toMatchObject({ name: 'Elections 2026', location: `${chosen}.skein` });
    expect(existsSync(`${chosen}.skein`)).toBe(true);
    const renamed = await call(core, 'skein:projects.rename', { name: 'Elections' });
    expect(renamed.current).toMatchObject({ name: 'Elections' });
    const back = (renamed.known as Array<{ id: string; name: string }>).find((k) => k.name === 'Default')!;
    const switched = await call(core, 'skein:projects.switch', { id: back.id });
    expect(switched.current).toMatchObject({ name: 'Default' });
    // a page cannot name a path: unknown ids and extra fields are refused
    const bad = await createDispatcher(core.handlers).dispatch('skein:projects.switch', { id: '/etc/passwd' }, ctx);
    expect(bad.ok).toBe(false);
    await core.dispose();
  });

  it('keeps what a newer Skein listed of projects that it cannot read when it records a new one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skein-core-projects-newer-'));
    dirs.push(dir);
    const teamEntry = { kind: 'team', address: 'postgresql://ana@db.example:5432/study?schema=s1' };
    writeFileSync(
      join(dir, 'projects.json'),
      JSON.stringify({ known: [teamEntry], researcher: 'Ana', pinned: ['Default'] }),
    );
    const chosen = join(dir, 'elsewhere', 'Study');
    const core = createCore(coreDeps(dir, { chooseSavePath: async () => chosen }));
    const created = await call(core, 'skein:projects.create', { name: 'Study' });
    expect(created.current).toMatchObject({ name: 'Study' });
    await core.dispose();
    const written = JSON.parse(readFileSync(join(dir, 'projects.json'), 'utf8')) as { known: unknown[] };
    expect(written).toMatchObject({ researcher: 'Ana', pinned: ['Default'], current: `${chosen}.skein` });
    expect(written.known).toContainEqual(teamEntry);
    expect(written.known).toContain(`${chosen}.skein`);
  });

  it('keeps the project a newer Skein worked in, named in a way it cannot read, until one is chosen here', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skein-core-projects-current-'));
    dirs.push(dir);
    const teamEntry = { kind: 'team', address: 'postgresql://ana@db.example:5432/study?schema=s1' };
    const file = join(dir, 'projects.json');
    const newerNames = { '/gone/Old.skein': 'Old study', [teamEntry.address]: { label: 'Team' } };
    const newerResearcher = { name: 'Ana', orcid: '0000-0002-1825-0097' };
    writeFileSync(
      file,
      JSON.stringify({ current: teamEntry, known: [teamEntry], names: newerNames, researcher: newerResearcher }),
    );
    const chosen = join(dir, 'elsewhere', 'Study');
    const core = createCore(coreDeps(dir, { chooseSavePath: async () => chosen }));
    // meanwhile this Skein works in the default project, and a change to it keeps the newer Skein's choice
    const state = await call(core, 'skein:projects.state', undefined);
    expect(state.current).toMatchObject({ name: 'Default' });
    await call(core, 'skein:projects.rename', { name: 'Pilot' });
    // with the names and the researcher it wrote in ways this Skein cannot read or place
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({
      current: teamEntry,
      names: { ...newerNames, [(state.current as { location: string }).location]: 'Pilot' },
      researcher: newerResearcher,
    });
    // a switch that fails leaves it so too: as if none was tried
    const refused = await createDispatcher(core.handlers).dispatch(
      'skein:projects.connect',
      { connection: 'postgresql://ana@127.0.0.1:1/study?sslmode=disable', schema: 's1', researcher: 'Ana' },
      ctx,
    );
    expect(refused.ok).toBe(false);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ current: teamEntry });
    // a project chosen here is the current one from then on
    await call(core, 'skein:projects.create', { name: 'Study' });
    await core.dispose();
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ current: `${chosen}.skein` });
  });

  it(
    'moves a project in one action: copied, every count checked, then worked in; the original left whole',
    { timeout: 60_000 },
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'skein-core-move-'));
      dirs.push(dir);
      const target = join(dir, 'moved', 'Study');
      const core = createCore(coreDeps(dir, { chooseSavePath: async () => target }));
      // something to move: a thread read in live mode is not needed, the project's own facts and a rename are
      await call(core, 'skein:projects.rename', { name: 'Stance study' });
      const before = await call(core, 'skein:projects.state', undefined);
      const moved = await call(core, 'skein:projects.copy', { to: { file: true }, move: true });
      expect(moved.to).toMatchObject({ name: 'Stance study', location: `${target}.skein`, store: 'sqlite' });
      for (const t of moved.tables as Array<{ name: string; source: number; copied: number }>)
        expect(t.copied, t.name).toBe(t.source);
      const after = await call(core, 'skein:projects.state', undefined);
      // working in the copy now, under the same name; the original still listed, by its name too
      expect(after.current).toMatchObject({ name: 'Stance study', location: `${target}.skein` });
      const listed = (after.known as Array<{ name: string; location: string }>).filter(
        (k) => k.name === 'Stance study',
      );
      expect(listed.map((k) => k.location).sort()).toEqual(
        [(before.current as { location: string }).location, `${target}.skein`].sort(),
      );
      await core.dispose();
    },
  );

  it(
    "copies a view as a script that names the demo project and its collection and reads the view's rows",
    { timeout: 60_000 },
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'skein-core-snippet-'));
      dirs.push(dir);
      const core = createCore(coreDeps(dir));
      const examples = (await call(core, 'skein:demo.examples', undefined)) as { bigThreadPostId: string };
      const page = await call(core, 'skein:api.call', {
        operation: 'postReplies',
        params: { tweetId: examples.bigThreadPostId },
        callId: 'a',
      });
      const text = (page.items as Array<{ text: string }>)[0]!.text;
      const word = text.split(/\s+/).find((w) => /^\p{L}{5,}$/u.test(w)) ?? '';
      const kept = await call(core, 'skein:archive.saveSearch', { text: word, name: 'Kept words' });
      const view = { collection: kept.id as number, text: word };
      const found = await call(core, 'skein:archive.search', { ...view, limit: 200 });
      const ids = (found.hits as Array<{ id: string }>).map((h) => h.id);
      expect(ids.length).toBeGreaterThan(0);

      const script = await call(core, 'skein:archive.snippet', { ...view, language: 'sql' });
      const state = await call(core, 'skein:projects.state', undefined);
      const demo = state.demo as { name: string; location: string };
      expect(script.text).toContain(`project “${demo.name}”`);
      expect(script.text).toContain(demo.location);
      expect(script.text).toContain('in the collection “Kept words”');
      const db = new DatabaseSync(demo.location, { readOnly: true });
      const rows = db.prepare(script.text as string).all() as Array<{ id: string }>;
      db.close();
      expect(rows.map((r) => r.id)).toEqual(ids);
      await core.dispose();
    },
  );
});
