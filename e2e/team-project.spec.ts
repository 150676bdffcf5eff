/**
 * Team projects on PostgreSQL, as a team uses them: two Skeins point at one project on a real
 * PostgreSQL (a throwaway cluster the spec starts, loopback only) through Archive → Manage projects, collect two
 * different threads at the same time from one live service (the sandbox, as the API), and both see both, no
 * item twice, every request the service answered recorded with who asked; then a third Skein, a process of its
 * own (`npm run web`), is killed mid-collection and nothing the others wrote is lost or half-written.
 * Without PostgreSQL the specs skip with the reason, except in CI (`CI` set) where they fail.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page, TestInfo } from '@playwright/test';
import { skipWithoutPostgres, startTestCluster, type TestCluster } from '../src/core/db/testing/postgres';
import { duckdb } from '../src/core/testing/duckdb';
import { startSandbox, type Sandbox } from '../src/sandbox';
import { ROOT, launchChromium } from './host';
import { expect, test, type SkeinApp } from './fixtures';
import { hostOnly, openRoute, openThread, shootLooks } from './support/explorer';

const KEY = 'e2e-team-key-0123456789';
const skipReason = skipWithoutPostgres();
let cluster: TestCluster;
let api: Sandbox;
let n = 0;

test.describe('team projects on PostgreSQL', () => {
  test.skip(skipReason !== null, skipReason ?? '');
  test.describe.configure({ mode: 'serial' });

  test.beforeAll(async () => {
    [cluster, api] = await Promise.all([startTestCluster(), startSandbox({ port: 0, size: 'small' })]);
  });
  test.afterAll(async () => {
    cluster?.stop();
    await api?.close();
  });

  /** the service's own ledger of what it answered */
  const answered = async () =>
    (
      (await (await fetch(`${api.baseUrl}/__sandbox/requests`)).json()) as {
        requests: Array<{ operation: string | null; status: number }>;
      }
    ).requests.filter((r) => r.status === 200 && r.operation !== null).length;
  const sql = (q: string) => cluster.psql(q).trim();

  /**
   * Archive → Manage projects → Team project on PostgreSQL, as a person fills it in; `inline`: the password
   * typed into the connection string, as people paste one.
   */
  async function connect(page: Page, schema: string, name: string, inline = false): Promise<void> {
    await openRoute(page, '#/archive');
    await expect(page.getByRole('heading', { name: 'Archive', level: 1 })).toBeVisible();
    const panel = page.getByRole('region', { name: 'Project' });
    await panel.getByText('Manage projects').click();
    const form = panel.getByRole('form', { name: 'Team project on PostgreSQL' });
    const user = inline ? `skein:${encodeURIComponent(cluster.password)}` : 'skein';
    await form
      .getByLabel('Connection string')
      .fill(`postgresql://${user}@127.0.0.1:${cluster.port}/postgres?sslmode=disable`);
    if (!inline) await form.getByLabel('Password').fill(cluster.password);
    await form.getByLabel('Schema').fill(schema);
    await form.getByLabel('Your name').fill(name);
    await form.getByRole('button', { name: 'Connect' }).click();
    await expect(panel.locator('.archive-project__summary')).toContainText('team project on PostgreSQL, not encrypted');
    await expect(form.getByLabel('Password')).toHaveValue('');
    // the password is nowhere on the page afterwards: not in the address field, not in any text
    await expect(form.getByLabel('Connection string')).not.toHaveValue(new RegExp(`:${cluster.password}@`));
    expect(await page.content()).not.toContain(cluster.password);
  }

  /** A live Skein at the shared service, paced for a test (main's confirmation: the host says yes). */
  async function liveSkein(launch: (o: { apiBaseUrl: string; apiKey: string }) => Promise<SkeinApp>) {
    const app = await launch({ apiBaseUrl: api.baseUrl, apiKey: KEY });
    const res = await app.page.evaluate(() => window.skein!.settings.update({ requestsPerSecond: 20 }));
    expect(res.ok).toBe(true);
    return app;
  }

  /** Fetch everything of a post's thread, as JSON Lines, into `file`; resolves once it is saved. */
  async function collectThread(app: SkeinApp, postId: string, file: string): Promise<void> {
    const { page } = app;
    const replies = await openThread(page, postId);
    await replies.page().getByRole('button', { name: 'Export…' }).click();
    const dialog = page.getByRole('dialog', { name: /^Export/ });
    await dialog.getByRole('radio', { name: /JSON Lines/ }).check();
    await dialog.getByRole('radio', { name: /Fetch everything/ }).check();
    await app.setSavePath(file);
    await dialog.getByRole('button', { name: 'Choose file and export' }).click();
    await expect(dialog.getByRole('status')).toContainText(/^Done: /, { timeout: 60_000 });
  }

  const idsIn = async (file: string) =>
    (await readFile(file, 'utf8'))
      .trimEnd()
      .split('\n')
      .map((l) => (JSON.parse(l) as { item: { id: string } }).item.id);

  /** a reply of the thread with replies of its own: the root of a second, different thread */
  async function anotherThread(root: string): Promise<string> {
    const res = await fetch(`${api.baseUrl}/social/tweet/replies?tweetId=${root}`, { headers: { 'x-api-key': KEY } });
    const body = (await res.json()) as { replies: Array<{ id: string; replyCount: number }> };
    const best = [...body.replies].sort((a, b) => b.replyCount - a.replyCount)[0];
    if (!best || best.replyCount < 3) throw new Error('the sandbox has no second thread to collect');
    return best.id;
  }

  /** A long test's own schema and folder, on the host only (it starts processes and a cluster of its own). */
  async function ownSchemaAndFolder(testInfo: TestInfo, folder: string): Promise<{ schema: string; dir: string }> {
    hostOnly(testInfo);
    test.setTimeout(180_000);
    return { schema: `team_e2e_${process.pid}_${++n}`, dir: await mkdtemp(join(tmpdir(), `skein-e2e-${folder}-`)) };
  }

  test('two Skeins collect two threads at once into one project: both see both, no item twice, every request recorded', async ({
    launch,
  }, testInfo) => {
    const { schema, dir } = await ownSchemaAndFolder(testInfo, 'team');
    try {
      const [ada, grace] = await Promise.all([liveSkein(launch), liveSkein(launch)]);
      await connect(ada.page, schema, 'Ada');
      await connect(grace.page, schema, 'Grace', true);
      await fetch(`${api.baseUrl}/__sandbox/requests`, { method: 'DELETE' });
      const rootA = api.examples.bigThreadPostId;
      const rootB = await anotherThread(rootA);
      await fetch(`${api.baseUrl}/__sandbox/requests`, { method: 'DELETE' });
      // a page of each thread slowed a little, so the two collections overlap in time
      await fetch(`${api.baseUrl}/__sandbox/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ fault: 'latency;ms=150', operations: ['postRepliesV2'] }),
      });
      await Promise.all([
        collectThread(ada, rootA, join(dir, 'a.jsonl')),
        collectThread(grace, rootB, join(dir, 'b.jsonl')),
      ]);
      await fetch(`${api.baseUrl}/__sandbox/faults`, { method: 'DELETE' });
      const [idsA, idsB] = [await idsIn(join(dir, 'a.jsonl')), await idsIn(join(dir, 'b.jsonl'))];
      expect(idsA.length).toBeGreaterThan(100);
      expect(idsB.length).toBeGreaterThan(2);

      // every request the service answered is recorded, with who asked (the page views' own calls included)
      const served = await answered();
      await expect.poll(() => Number(sql(`SELECT count(*) FROM ${schema}.requests`))).toBe(served);
      expect(sql(`SELECT count(*) FROM ${schema}.requests WHERE researcher IS NULL`)).toBe('0');
      // no item twice: one row per post, each post of both threads held
      expect(sql(`SELECT count(*) - count(DISTINCT (kind, id)) FROM ${schema}.items`)).toBe('0');
      const held = new Set(sql(`SELECT id FROM ${schema}.items WHERE kind = 'post'`).split('\n'));
      for (const id of [...idsA, ...idsB]) expect(held.has(id), id).toBe(true);

      // both see both: each Skein's archive finds the other's thread, and who collected it
      for (const app of [ada, grace]) {
        const panel = app.page.getByRole('region', { name: 'Project' });
        await openRoute(app.page, '#/archive');
        await panel.getByRole('button', { name: 'Refresh' }).click();
        await expect(panel.locator('.archive-project__team')).toContainText(/Ada — [\d,]+ answers/);
        await expect(panel.locator('.archive-project__team')).toContainText(/Grace — [\d,]+ answers/);
        const collections = await app.page.evaluate(() => window.skein!.archive.collections({}));
        expect(collections.ok && collections.data.map((c) => c.researcher).sort()).toEqual(['Ada', 'Grace']);
        const found = await app.page.evaluate(
          (id) => window.skein!.archive.provenance({ kind: 'post', id }),
          idsB[idsB.length - 1]!,
        );
        expect(found.ok && found.data?.requests.map((r) => r.researcher)).toContain('Grace');
      }
      // B's thread lies inside A's: its posts were written by both, at once, and are still one row each
      const shared = idsB.filter((id) => idsA.includes(id));
      expect(shared.length).toBeGreaterThan(0);
      const prov = await ada.page.evaluate((id) => window.skein!.archive.provenance({ kind: 'post', id }), shared[0]!);
      expect(prov.ok && new Set(prov.data?.requests.map((r) => r.researcher))).toEqual(new Set(['Ada', 'Grace']));

      // the team's project as a Parquet dataset from the Archive view: one folder per collected date, one table
      const archiveExport = ada.page.getByRole('group', { name: 'Export from the archive' });
      await archiveExport.getByRole('combobox', { name: 'Format' }).selectOption({ label: 'Parquet dataset' });
      const dataset = join(dir, 'team.parquet');
      await ada.setSavePath(dataset);
      await archiveExport.getByRole('button', { name: 'Export these results…' }).click();
      const total = Number(sql(`SELECT count(*) FROM ${schema}.items WHERE kind = 'post'`));
      await expect(archiveExport.getByRole('status')).toContainText(`${total.toLocaleString('en-US')} items written`);
      expect((await readdir(dataset)).every((d) => /^collected_date=\d{4}-\d{2}-\d{2}$/.test(d))).toBe(true);
      const read = await duckdb(
        `SELECT count(*) AS n, count(DISTINCT id) AS ids, typeof(any_value(collected_date)) AS type
         FROM read_parquet('${dataset}/**/*.parquet', hive_partitioning = true)`,
      );
      expect(read).toEqual([{ n: BigInt(total), ids: BigInt(total), type: 'DATE' }]);

      await ada.page.setViewportSize({ width: 1280, height: 900 });
      await ada.page.getByRole('region', { name: 'Project' }).getByText('Manage projects').click();
      await ada.page.screenshot({ path: testInfo.outputPath('team-project-light.png'), fullPage: true });
      // a collection's long name (a team's, with who made it) never pushes its select past the panel
      const edge = async (el: ReturnType<Page['getByRole']>) => {
        const box = await el.boundingBox();
        return box ? box.x + box.width : Number.NaN;
      };
      expect(await edge(ada.page.getByRole('combobox', { name: /^Collection/ }))).toBeLessThanOrEqual(
        (await edge(ada.page.getByRole('button', { name: 'Search', exact: true }))) + 1,
      );
      await ada.page.emulateMedia({ colorScheme: 'dark' });
      await ada.page.screenshot({ path: testInfo.outputPath('team-project-dark.png'), fullPage: true });
      await ada.page.emulateMedia({ colorScheme: 'light' });
      await ada.page.setViewportSize({ width: 760, height: 700 });
      await ada.page.screenshot({ path: testInfo.outputPath('team-project-small.png'), fullPage: true });
      for (const app of [ada, grace]) expect(app.host?.internalErrors()).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  test('killing a Skein mid-collection loses nothing another wrote and leaves no answer half-written', async ({
    launch,
  }, testInfo) => {
    const { schema, dir } = await ownSchemaAndFolder(testInfo, 'team-kill');
    let child: ChildProcess | undefined;
    let browser: Browser | undefined;
    try {
      // the Skein to be killed: the browser shell in a process of its own, live at the shared service
      await writeFile(
        join(dir, 'settings.json'),
        JSON.stringify({ requestsPerSecond: 20, paceCeiling: 20, mode: 'live' }),
      );
      const env = {
        ...process.env,
        SKEIN_USER_DATA_DIR: dir,
        SKEIN_EXPORTS_DIR: join(dir, 'exports'),
        SKEIN_API_BASE_URL: api.baseUrl,
        SKEIN_API_KEY: KEY,
      };
      const proc = spawn(process.execPath, [join(ROOT, 'out', 'main', 'web.js'), '--no-open'], {
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child = proc;
      let output = '';
      proc.stderr.on('data', (c: Buffer) => (output += c.toString()));
      const url = await new Promise<string>((resolve, reject) => {
        proc.stdout.on('data', (c: Buffer) => {
          output += c.toString();
          const found = /http:\/\/127\.0\.0\.1:\d+\/__skein\/auth\?secret=[\w-]+/.exec(output)?.[0];
          if (found && output.includes('Press Ctrl+C')) resolve(found);
        });
        proc.once('exit', (code) => reject(new Error(`the shell exited (${code}): ${output}`)));
      });
      browser = await launchChromium();
      const victim = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
      await victim.goto(url);
      await expect(victim.getByRole('main').first()).toBeVisible();
      await connect(victim, schema, 'Edsger');

      const ada = await liveSkein(launch);
      await connect(ada.page, schema, 'Ada');
      const rootA = api.examples.bigThreadPostId;
      const rootB = await anotherThread(rootA);
      // the victim's thread is slow (every page 400 ms): it is collecting when it is killed
      await fetch(`${api.baseUrl}/__sandbox/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ fault: 'latency;ms=400', operations: ['postRepliesV2'] }),
      });
      const replies = await openThread(victim, rootA);
      await replies.page().getByRole('button', { name: 'Export…' }).click();
      const dialog = victim.getByRole('dialog', { name: /^Export/ });
      await dialog.getByRole('radio', { name: /Fetch everything/ }).check();
      await dialog
        .getByRole('button', { name: /export/i })
        .last()
        .click();
      await expect(dialog.getByRole('status')).toContainText('Collecting…');
      // Ada collects meanwhile; the victim is killed once several of its answers are in
      const adaDone = collectThread(ada, rootB, join(dir, 'a.jsonl'));
      await expect
        .poll(() => Number(sql(`SELECT count(*) FROM ${schema}.requests WHERE researcher = 'Edsger'`)), {
          timeout: 60_000,
        })
        .toBeGreaterThanOrEqual(4);
      proc.kill('SIGKILL');
      await new Promise((resolve) => proc.once('exit', resolve));
      await adaDone;
      await fetch(`${api.baseUrl}/__sandbox/faults`, { method: 'DELETE' });

      // nothing Ada wrote is lost: her thread whole, her collection whole
      const idsA = await idsIn(join(dir, 'a.jsonl'));
      const held = new Set(sql(`SELECT id FROM ${schema}.items WHERE kind = 'post'`).split('\n'));
      for (const id of idsA) expect(held.has(id), id).toBe(true);
      // "Done" is said once the file is whole; the project keeps its collection just after
      await expect
        .poll(async () => {
          const collections = await ada.page.evaluate(() => window.skein!.archive.collections({}));
          return collections.ok && collections.data.find((c) => c.researcher === 'Ada')?.items;
        })
        .toBe(idsA.length);
      // no answer half-written: every request holds as many linked items as it listed
      expect(
        sql(
          `SELECT count(*) FROM ${schema}.requests q WHERE q.item_count <> (SELECT count(*) FROM ${schema}.request_items r WHERE r.request = q.rowid)`,
        ),
      ).toBe('0');
      expect(sql(`SELECT count(*) - count(DISTINCT (kind, id)) FROM ${schema}.items`)).toBe('0');
      // and the project goes on: Ada sees what the killed Skein managed to write, under its name
      const panel = ada.page.getByRole('region', { name: 'Project' });
      await openRoute(ada.page, '#/archive');
      await panel.getByRole('button', { name: 'Refresh' }).click();
      await expect(panel.locator('.archive-project__team')).toContainText(/Edsger — [\d,]+ answers/);
      expect(ada.host?.internalErrors()).toEqual([]);
    } finally {
      if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await browser?.close();
      await fetch(`${api.baseUrl}/__sandbox/faults`, { method: 'DELETE' }).catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    }
  });

  test('the team’s server goes away while reading: the window says so, an export waits to be resumed, and every answer is kept', async ({
    launch,
  }, testInfo) => {
    const { schema, dir } = await ownSchemaAndFolder(testInfo, 'team-away');
    const app = await liveSkein(launch);
    const { page } = app;
    try {
      await connect(page, schema, 'Ada');
      await fetch(`${api.baseUrl}/__sandbox/requests`, { method: 'DELETE' });
      const file = join(dir, 'thread.jsonl');
      const notice = page.getByRole('status', { name: 'Project notice' });
      const dialog = page.getByRole('dialog', { name: /^Export/ });
      cluster.pause();
      try {
        // reading goes on: the thread's pages come from the service, and the project keeps what it cannot write
        const replies = await openThread(page, api.examples.bigThreadPostId);
        await expect(notice).toContainText(
          /The project cannot take answers now; \d+ answers? (is|are) kept and written once it can \(Nothing answers at .+\)/,
          { timeout: 30_000 },
        );
        await expect(notice).not.toContainText(cluster.password);
        // what it costs: the project cannot say which pages it holds, so opening one buys it again
        await expect(notice).toContainText(
          'Until it answers, pages it holds from before cannot be looked up in it, so opening one buys it from the API again.',
        );
        // an export needs the project (its codes, the accounts left out): it stops in plain words, resumable
        await replies.page().getByRole('button', { name: 'Export…' }).click();
        await dialog.getByRole('radio', { name: /JSON Lines/ }).check();
        await dialog.getByRole('radio', { name: /Fetch everything/ }).check();
        await app.setSavePath(file);
        await dialog.getByRole('button', { name: 'Choose file and export' }).click();
        await expect(dialog.getByText(/^Failed: Nothing answers at /)).toBeVisible({ timeout: 30_000 });
        await expect(dialog.getByText('Check that PostgreSQL runs there and accepts connections')).toBeVisible();
        await shootLooks(page, testInfo, 'team-away', { show: notice });
      } finally {
        cluster.resume();
      }
      // back: the export resumed to its end, every answer the service served is in the project, each post once
      await dialog.getByRole('button', { name: 'Resume' }).click();
      await expect(dialog.getByRole('status')).toContainText(/^Done: /, { timeout: 60_000 });
      await expect(notice).toContainText('The project takes answers again: those kept meanwhile are being written');
      const served = await answered();
      await expect
        .poll(() => Number(sql(`SELECT count(*) FROM ${schema}.requests`)), { timeout: 90_000, intervals: [1_000] })
        .toBe(served);
      const held = new Set(sql(`SELECT id FROM ${schema}.items WHERE kind = 'post'`).split('\n'));
      const ids = await idsIn(file);
      expect(ids.length).toBeGreaterThan(100);
      for (const id of ids) expect(held.has(id), id).toBe(true);
      expect(sql(`SELECT count(*) - count(DISTINCT (kind, id)) FROM ${schema}.items`)).toBe('0');
      await dialog.getByRole('button', { name: 'Close' }).click();
      await notice.getByRole('button', { name: 'Dismiss' }).click();
      await expect(notice).toBeHidden();
      // main logged only the outage: the archive's reports, and what found the server away (code offline)
      for (const e of app.host?.internalErrors() ?? [])
        expect(JSON.stringify(e)).toMatch(/^\{"message":"the archive failed"|"code":"offline"/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  test('an export the project could not keep (its rights taken away) is said on the dialog and kept later, at no cost', async ({
    launch,
  }, testInfo) => {
    const { schema, dir } = await ownSchemaAndFolder(testInfo, 'team-unrecorded');
    const app = await liveSkein(launch);
    const { page } = app;
    const denied = (on: boolean) =>
      sql(
        on
          ? `CREATE FUNCTION ${schema}.deny() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
               RAISE EXCEPTION 'permission denied for table collections' USING ERRCODE = '42501'; END $$;
             CREATE TRIGGER deny BEFORE INSERT ON ${schema}.collections FOR EACH ROW EXECUTE FUNCTION ${schema}.deny();`
          : `DROP TRIGGER deny ON ${schema}.collections`,
      );
    try {
      await connect(page, schema, 'Ada');
      const replies = await openThread(page, api.examples.bigThreadPostId);
      // the project may no longer make collections: the file is written all the same
      denied(true);
      const file = join(dir, 'loaded.jsonl');
      const dialog = page.getByRole('dialog', { name: /^Export/ });
      await replies.page().getByRole('button', { name: 'Export…' }).click();
      await dialog.getByRole('radio', { name: /JSON Lines/ }).check();
      await dialog.getByRole('radio', { name: /What is loaded now/ }).check();
      await app.setSavePath(file);
      await dialog.getByRole('button', { name: 'Choose file and export' }).click();
      await expect(dialog.getByRole('status').first()).toContainText(
        /^Saved a partial export \(only what the view had loaded\)/,
        {
          timeout: 30_000,
        },
      );
      const unkept = dialog.getByRole('region', { name: 'Not kept in the project' });
      await expect(unkept.getByRole('alert')).toContainText(
        'The file is written, but the project could not keep this export as a collection: skein may not do this',
      );
      await expect(unkept).toContainText('keeping it in the project makes no call and costs nothing');
      // the status bar says it too, for a dialog closed while the export ran
      const notice = page.getByRole('status', { name: 'Project notice' });
      await expect(notice).toContainText(
        /The export “.+” is written, but the project could not keep it as a collection: skein may not do this.+Its Export… dialog keeps it later, at no cost\./,
      );
      const ids = await idsIn(file);
      expect(ids.length).toBeGreaterThan(0);
      await shootLooks(page, testInfo, 'export-unkept', { show: unkept });
      // closed and opened again, the dialog still offers it
      await dialog.getByRole('button', { name: 'Close' }).click();
      await replies.page().getByRole('button', { name: 'Export…' }).click();
      const waiting = dialog.getByRole('region', { name: 'Unfinished exports' });
      await expect(waiting).toContainText('Not kept in the project yet: skein may not do this');
      await waiting.getByRole('button', { name: 'Keep in project…' }).click();
      // still refused: said again, nothing lost
      await unkept.getByRole('button', { name: 'Keep it in the project' }).click();
      await expect(unkept.getByRole('status')).toContainText(
        /^Tried again at \d\d:\d\d:\d\d: the project still could not keep it\.$/,
      );
      await expect(unkept.getByRole('alert')).toContainText('could not keep this export as a collection');
      await shootLooks(page, testInfo, 'export-unkept-again', { show: unkept });
      // rights back: kept, in the file's order, with no call
      denied(false);
      await fetch(`${api.baseUrl}/__sandbox/requests`, { method: 'DELETE' });
      await unkept.getByRole('button', { name: 'Keep it in the project' }).click();
      await expect(dialog.getByRole('link', { name: 'Open its collection in the Archive' })).toBeVisible();
      await expect(unkept).toBeHidden();
      // kept: the status bar no longer says otherwise
      await expect(notice).toBeHidden();
      expect(await answered()).toBe(0);
      const kept = sql(
        `SELECT i.id FROM ${schema}.collection_items c JOIN ${schema}.items i ON i.rowid = c.item ORDER BY c.position`,
      ).split('\n');
      expect(kept).toEqual(ids);
      expect(sql(`SELECT count(*) FROM ${schema}.collections`)).toBe('1');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  test('from Home: a wrong password leaves no project behind, then the project moves to the team in one action', async ({
    launch,
  }, testInfo) => {
    hostOnly(testInfo);
    test.setTimeout(120_000);
    const schema = `team_e2e_${process.pid}_${++n}`;
    const app = await liveSkein(launch);
    const { page } = app;
    // something in the project to move: a thread read once
    await openThread(page, api.examples.bigThreadPostId);
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Home' }).click();
    const jobs = page.getByRole('region', { name: 'What do you want to do?' });
    await expect(jobs.getByRole('link', { name: 'Work as a team' })).toBeVisible();
    await shootLooks(page, testInfo, 'team-01-home');
    await jobs.getByRole('link', { name: 'Work as a team' }).click();
    await expect(page.getByRole('heading', { name: 'Archive', level: 1 })).toBeVisible();
    const panel = page.getByRole('region', { name: 'Project' });
    await panel.getByText('Manage projects').click();
    const switchTo = panel.getByRole('combobox', { name: 'Switch to' });
    const known = async () => (await switchTo.locator('option').allInnerTexts()).length;
    const before = await known();
    const local = await panel.locator('.archive-project__summary').innerText();
    expect(local).toMatch(/\d+ items/);

    const form = panel.getByRole('form', { name: 'Team project on PostgreSQL' });
    await form
      .getByLabel('Connection string')
      .fill(`postgresql://skein@127.0.0.1:${cluster.port}/postgres?sslmode=disable`);
    await form.getByLabel('Password').fill('not-the-password');
    await form.getByLabel('Schema').fill(schema);
    await form.getByLabel('Your name').fill('Ada');
    await shootLooks(page, testInfo, 'team-02-connection-filled', { show: form });
    await form.getByRole('button', { name: 'Connect' }).click();
    // said in plain words, and no project is added that cannot be opened
    await expect(form.getByRole('alert')).toContainText(/password/i);
    expect(await known()).toBe(before);
    await shootLooks(page, testInfo, 'team-03-wrong-password', { show: form.getByRole('alert') });

    // the refusal stays while the person only looks, and goes once they retype the password
    await form.getByLabel('Password').focus();
    await expect(form.getByRole('alert')).toContainText(/password/i);
    await form.getByLabel('Password').fill(cluster.password);
    await expect(form.getByRole('alert')).toBeHidden();
    await form.getByRole('checkbox', { name: /Move this project there/ }).check();
    await shootLooks(page, testInfo, 'team-04-connect-and-move', {
      show: form.getByRole('button', { name: 'Connect and move' }),
    });
    await form.getByRole('button', { name: 'Connect and move' }).click();
    await expect(panel.locator('.archive-project__summary')).toContainText('team project on PostgreSQL', {
      timeout: 60_000,
    });
    // one action: connected, copied with every count checked, and working there now
    const items = Number(/(\d[\d,]*) items/.exec(local)?.[1]?.replace(/,/g, ''));
    expect(items).toBeGreaterThan(0);
    await expect(panel.locator('.archive-project__summary')).toContainText(`${items.toLocaleString('en-US')} items`);
    expect(Number(sql(`SELECT count(*) FROM ${schema}.items`))).toBe(items);
    expect(await known()).toBe(before + 1);
    // and said where the person clicked, not only in the summary at the panel's top
    await expect(form.getByRole('status')).toContainText(/^Moved: this project is now the team project/);
    await shootLooks(page, testInfo, 'team-05-moved', { show: form.getByRole('status') });
  });
});
