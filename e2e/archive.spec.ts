/**
 * The research archive: what a reader browsed is kept in the project, survives a
 * restart, and is searched offline with zero API calls; a post reached from two views is one row
 * with both requests recorded.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { createCore } from '../src/core';
import { damageFirstPostOf } from '../src/core/archive/testing/damage';
import { call } from '../src/core/testing/bridge-call';
import { testCoreDeps } from '../src/core/testing/core-deps';
import { startSandbox, type Sandbox } from '../src/sandbox';
import { expect, test } from './fixtures';
import { launchApp } from './host';
import { demoExamples, hostOnly, openRoute, openThread, sandbox, shootLooks } from './support/explorer';

test('browse a thread and a profile, restart, find a reply offline with zero calls', async ({ launch }, testInfo) => {
  hostOnly(testInfo);
  test.setTimeout(120_000);
  const userDataDir = await mkdtemp(join(tmpdir(), 'skein-e2e-archive-'));
  try {
    const first = await launch({ userDataDir });
    const ex = await demoExamples(first.page);
    const replies = await openThread(first.page, ex.bigThreadPostId);
    const reply = replies.locator('article[data-post-id]').nth(1);
    await expect(reply).toBeVisible();
    const replyId = (await reply.getAttribute('data-post-id'))!;
    const replyText = (await reply.locator('.post__text').first().innerText()).trim();
    const word = replyText.split(/[^\p{L}]+/u).find((w) => w.length >= 6) ?? replyText.split(/\s+/)[0]!;

    // the same reply reached from a second view: its own page
    await openRoute(first.page, `#/post/${replyId}`);
    await expect(first.page.getByRole('region', { name: 'Replies' }).getByText('Original post')).toBeVisible();
    // and a profile
    await openRoute(first.page, `#/user/@${ex.profile.userName}`);
    const posts = first.page.getByRole('region', { name: `Posts by @${ex.profile.userName}` });
    await posts.scrollIntoViewIfNeeded(); // virtualized: rows exist once the list is on screen
    await expect(posts.locator('article').first()).toBeVisible();
    await first.close();

    // restart: a new host and sandbox over the same user data folder
    const second = await launch({ userDataDir });
    const { page } = second;
    const api = await sandbox(second);
    await api.clearRequests();
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Archive' }).click();
    await expect(page.getByRole('heading', { name: 'Archive', level: 1 })).toBeVisible();
    await expect(page.getByTestId('project')).toHaveText('Project: Demo data');
    await page.getByRole('searchbox', { name: 'Search the archive' }).fill(word);
    await page.getByRole('search', { name: 'Archive' }).getByRole('button', { name: 'Search' }).click();

    const results = page.getByRole('region', { name: 'Archive results' });
    const row = results.locator(`article[data-post-id="${replyId}"]`);
    await expect(row).toBeVisible();
    await expect(row).toHaveCount(1);
    // one row, with both requests that returned it recorded
    const provenance = (await page.evaluate(
      (id) =>
        (
          window as unknown as { skein: { archive: { provenance: (i: unknown) => Promise<unknown> } } }
        ).skein.archive.provenance({ kind: 'post', id }),
      replyId,
    )) as { ok: true; data: { requests: Array<{ operation: string; params: string }> } };
    const operations = provenance.data.requests.map((r) => r.operation);
    // from the thread (the big post's replies) and from the reply's own view (looked up by id, its replies)
    expect(operations).toContain('postsByIds');
    expect(provenance.data.requests.some((r) => r.params.includes(ex.bigThreadPostId))).toBe(true);
    expect(provenance.data.requests.some((r) => r.params.includes(replyId))).toBe(true);
    await expect(
      results.locator('.archive-hit').filter({ has: page.locator(`article[data-post-id="${replyId}"]`) }),
    ).toContainText(`Returned by ${operations.length} requests`);
    await expect(page.getByRole('status').filter({ hasText: 'offline: no API call' })).toBeVisible();

    // the activity chart's numbers as a table: picking a day narrows the results to it
    // (the reply's own day, UTC as the chart counts, read first: the table opens above the results and pushes
    // their list below the screen, where a virtualized list draws no rows)
    const day = (await row.locator('time').first().getAttribute('datetime'))!.slice(0, 10);
    const activity = page.getByRole('region', { name: 'Activity' });
    await activity.getByText('Table of the chart').click();
    await activity
      .getByRole('row', { name: new RegExp(`^${day} `) })
      .getByRole('button', { name: 'Show these' })
      .click();
    await expect(page.getByText(/^Showing/)).toBeVisible();
    await results.scrollIntoViewIfNeeded(); // virtualized: rows exist once the list is on screen
    await expect(row).toBeVisible();
    await page.getByRole('button', { name: 'Show all dates' }).click();

    // zero calls: the sandbox saw no request, the status bar counts none
    expect(await api.requests()).toEqual([]);
    await expect(page.getByTestId('session-calls')).toHaveText('Calls this session: 0');

    // look at it: light, dark and a small window
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.screenshot({ path: testInfo.outputPath('archive-light.png') });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.screenshot({ path: testInfo.outputPath('archive-dark.png') });
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 900, height: 600 });
    await page.screenshot({ path: testInfo.outputPath('archive-900x600.png') });
    expect(await api.requests()).toEqual([]);
  } finally {
    await rm(userDataDir, { recursive: true, force: true });
  }
});

test('search the archive in its language: a phrase, OR, -word and from: as chips, a chip removed, a broken search explained', async ({
  launch,
}, testInfo) => {
  hostOnly(testInfo);
  test.setTimeout(120_000);
  const { page } = await launch();
  const ex = await demoExamples(page);
  const replies = await openThread(page, ex.bigThreadPostId);
  const reply = replies.locator('article[data-post-id]').nth(1);
  await expect(reply).toBeVisible();
  const replyId = (await reply.getAttribute('data-post-id'))!;
  const [first, second] = (await reply.locator('.post__text').first().innerText())
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
  const handle = (await reply.locator('.post__handle').first().innerText()).trim().replace(/^@/, '');

  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Archive' }).click();
  const box = page.getByRole('searchbox', { name: 'Search the archive' });
  await box.fill(`("${first} ${second}" OR zqxjv) -qzvxj from:${handle}`);
  const chips = page.getByRole('list', { name: 'Search terms' }).getByRole('listitem');
  await expect(chips).toHaveText([
    `“${first} ${second}” or zqxjv×`,
    'Without qzvxj×',
    `From @${handle.toLowerCase()}×`,
  ]);
  await page.getByRole('search', { name: 'Archive' }).getByRole('button', { name: 'Search' }).click();
  const results = page.getByRole('region', { name: 'Archive results' });
  await expect(results.locator(`article[data-post-id="${replyId}"]`)).toBeVisible();

  // a chip removed: the text and the search are without it
  await page.getByRole('button', { name: `Remove From @${handle.toLowerCase()}` }).click();
  await expect(box).toHaveValue(`("${first} ${second}" OR zqxjv) -qzvxj`);
  await expect(chips).toHaveCount(2);
  await expect(results.locator(`article[data-post-id="${replyId}"]`)).toBeVisible();

  // the search kept as a collection, then used as one
  const save = page.getByRole('form', { name: 'Save this search' });
  await save.getByRole('textbox', { name: 'Collection name' }).fill('Kept search');
  await save.getByRole('button', { name: 'Save as a collection' }).click();
  await expect(save.getByRole('status')).toContainText('Saved “Kept search”');
  await box.fill('');
  await page.getByRole('search', { name: 'Archive' }).getByRole('button', { name: 'Search' }).click();
  const collection = page.getByRole('combobox', { name: 'Collection' });
  // said to be a saved search among the collections, whatever its name
  await expect(collection.locator('option', { hasText: 'Kept search' })).toHaveText(/^Kept search \(saved search, \d+/);
  await collection.selectOption({
    label: (await collection.locator('option', { hasText: 'Kept search' }).innerText()).trim(),
  });
  await expect(results.locator(`article[data-post-id="${replyId}"]`)).toBeVisible();
  // opened, it says what it is and can take in what its search finds now (nothing was collected since)
  const upToDate = page.getByRole('region', { name: 'Bring the saved search up to date' });
  await expect(upToDate).toContainText('“Kept search” is a saved search');
  await upToDate.getByRole('button', { name: 'Add what it finds now' }).click();
  await expect(upToDate.getByRole('status')).toHaveText('Nothing new matches it.');
  await upToDate.screenshot({ path: testInfo.outputPath('archive-saved-search.png') });

  // a quote left open: said in plain words under the box, no chips
  await box.fill(`heron "${first}`);
  await expect(page.getByRole('alert')).toHaveText('Expected a closing quote for the quote at character 7.');
  await expect(box).toHaveAttribute('aria-invalid', 'true');
  await expect(chips).toHaveCount(0);
});

// eslint-disable-next-line no-empty-pattern -- this spec makes its project first, then launches its own app on it
test('an item damaged in the project is listed as such and left out of an export, which says so', async ({}, testInfo) => {
  hostOnly(testInfo);
  test.setTimeout(120_000);
  const api: Sandbox = await startSandbox({ port: 0, size: 'small' });
  const sandboxes: Sandbox[] = [];
  const userDataDir = await mkdtemp(join(tmpdir(), 'skein-e2e-damaged-'));
  const key = 'damaged-item-key-0123456789';
  try {
    const core = createCore(
      testCoreDeps(userDataDir, sandboxes, { apiBaseUrl: api.baseUrl, apiKey: key, workers: undefined }),
    );
    await call(core, 'skein:api.call', {
      operation: 'postReplies',
      params: { tweetId: api.examples.bigThreadPostId },
      callId: 'a',
    });
    await core.dispose();
    // the newest post's kept JSON cut short, as a damaged file holds it
    const db = new DatabaseSync(join(userDataDir, 'projects', 'Default.skein'));
    const newest = db
      .prepare(`SELECT rowid, id FROM items WHERE kind = 'post' ORDER BY created_at DESC LIMIT 1`)
      .get() as { rowid: number; id: string };
    const held = (db.prepare(`SELECT count(*) AS n FROM items WHERE kind = 'post'`).get() as { n: number }).n;
    db.prepare(`UPDATE items SET raw = '{"id": "<b>cut' WHERE rowid = ?`).run(newest.rowid);
    db.close();

    const app = await launchApp({ apiBaseUrl: api.baseUrl, apiKey: key, userDataDir });
    try {
      const { page } = app;
      await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Archive' }).click();
      await expect(
        page.getByRole('note').filter({ hasText: `The kept copy of post ${newest.id} cannot be read` }),
      ).toBeVisible();
      const archiveExport = page.getByRole('group', { name: 'Export from the archive' });
      await archiveExport.getByRole('combobox', { name: 'Format' }).selectOption('jsonl');
      await app.setSavePath(join(userDataDir, 'posts.jsonl'));
      await archiveExport.getByRole('button', { name: 'Export these results…' }).click();
      await expect(archiveExport.getByRole('status')).toContainText(
        `${held - 1} items written to ${join(userDataDir, 'posts.jsonl')}, without an API call. 1 item was left out: its kept copy in the project is damaged`,
      );
      await shootLooks(page, testInfo, 'archive-damaged-item', { show: archiveExport });
      expect(app.host?.internalErrors() ?? []).toEqual([]);
    } finally {
      await app.close();
    }
    // every line reads; the manifest names the one left out
    const lines = (await readFile(join(userDataDir, 'posts.jsonl'), 'utf8')).trim().split('\n');
    expect(lines.map((l) => (JSON.parse(l) as { item: { id: string } }).item.id)).not.toContain(newest.id);
    expect(lines).toHaveLength(held - 1);
    const manifest = JSON.parse(await readFile(join(userDataDir, 'posts.jsonl.manifest.json'), 'utf8')) as {
      source: { left_out_damaged: { items: number; ids: string[] } };
    };
    expect(manifest.source.left_out_damaged).toMatchObject({ items: 1, ids: [newest.id] });
  } finally {
    await api.close();
    for (const s of sandboxes) await s.close();
    await rm(userDataDir, { recursive: true, force: true });
  }
});

// eslint-disable-next-line no-empty-pattern -- this spec makes its project first, then launches its own app on it
test('keeping the media of a collection holding a damaged post, and its evidence package, say they cannot read it', async ({}, testInfo) => {
  hostOnly(testInfo);
  test.setTimeout(120_000);
  const api: Sandbox = await startSandbox({ port: 0, size: 'small' });
  const sandboxes: Sandbox[] = [];
  const userDataDir = await mkdtemp(join(tmpdir(), 'skein-e2e-damaged-evidence-'));
  const key = 'damaged-evidence-key-0123456789';
  try {
    const core = createCore(
      testCoreDeps(userDataDir, sandboxes, { apiBaseUrl: api.baseUrl, apiKey: key, workers: undefined }),
    );
    let cursor: string | null = null;
    for (let page = 0; page < 3; page++) {
      const answer: { paging: { nextCursor: string | null } | null } = await call(core, 'skein:api.call', {
        operation: 'userTimeline',
        params: { userId: api.examples.profile.id, ...(cursor ? { cursor } : {}) },
        callId: `p${page}`,
      });
      cursor = answer.paging?.nextCursor ?? null;
      if (!cursor) break;
    }
    const collection: { id: number; items: number } = await call(core, 'skein:archive.saveSearch', {
      project: 'current',
      name: 'Profile',
    });
    await core.dispose();
    damageFirstPostOf(join(userDataDir, 'projects', 'Default.skein'), collection.id);

    const app = await launchApp({ apiBaseUrl: api.baseUrl, apiKey: key, userDataDir });
    try {
      const { page } = app;
      await openRoute(page, `#/archive?collection=${collection.id}`);
      const keep = page.getByRole('region', { name: 'Keep media' });
      const target = join(userDataDir, 'profile.evidence.zip');
      await app.setSavePath(target);
      await keep.getByRole('button', { name: 'Keep media…' }).click();
      await expect(keep.getByRole('status').filter({ hasText: /to fetch/ })).toContainText(
        '1 post is kept damaged in the project, so its media cannot be read and is not counted; hydrating its id mends it.',
      );
      await keep.getByRole('button', { name: 'Make an evidence package…' }).click();
      const made = keep.getByRole('region', { name: 'Evidence package' }).getByRole('status');
      await expect(made).toContainText(`Evidence package written to ${target}: ${collection.items - 1} posts`);
      await expect(made).toContainText(
        '1 post of the collection was left out, named in its manifest: its kept copy in the project is damaged. Hydrating its id mends it.',
      );
      await made.scrollIntoViewIfNeeded();
      await shootLooks(page, testInfo, 'evidence-damaged-post', { show: made });
      expect(app.host?.internalErrors() ?? []).toEqual([]);
    } finally {
      await app.close();
    }
  } finally {
    await api.close();
    for (const s of sandboxes) await s.close();
    await rm(userDataDir, { recursive: true, force: true });
  }
});
