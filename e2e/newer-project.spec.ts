/**
 * A project a newer Skein wrote into (a team's shared project, a file passed along): the Watches view shows the
 * run statuses, gaps' reasons and items' presence it has no words for as they were written, and names the watches
 * it cannot read instead of leaving them out in silence; the coding workbench says why it cannot open a codebook
 * with a field of a kind it does not know, and still makes a new one; values, model settings and a sample's drawing
 * it cannot read are shown as written, left out of agreement, and replaced only by a person's choice. Each project is made by the core, then
 * written into as a newer Skein would, before the app opens it.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { createCore, type Core } from '../src/core';
import { STANCE } from '../src/core/coding/testing/codebooks';
import { codedProject, writeAsANewerSkein } from '../src/core/coding/testing/coded-project';
import { call } from '../src/core/testing/bridge-call';
import { testCoreDeps } from '../src/core/testing/core-deps';
import { startSandbox, type Sandbox } from '../src/sandbox';
import { expect, test } from './fixtures';
import { launchApp, type SkeinApp } from './host';
import { attachScreenshot, expectAccessible, hostOnly, shootLooks } from './support/explorer';

const KEY = 'newer-skein-key-0123456789';

/**
 * A project made by the core on a sandbox of its own (`make`, with a core pointed at it), written into as a newer
 * Skein would (`writeInto`, on the project file), opened in the app (`use`), and read again once the app is closed
 * (`afterwards`); everything is closed and removed after.
 */
async function onANewerProject<T>(
  make: (core: Core, sandbox: Sandbox) => Promise<T>,
  writeInto: (db: DatabaseSync, made: T) => void,
  use: (app: SkeinApp, made: T) => Promise<void>,
  afterwards?: (file: string, made: T) => void,
): Promise<void> {
  const sandbox: Sandbox = await startSandbox({ port: 0, size: 'small' });
  const sandboxes: Sandbox[] = [];
  const userDataDir = await mkdtemp(join(tmpdir(), 'skein-e2e-newer-'));
  const file = join(userDataDir, 'projects', 'Default.skein');
  try {
    const core = createCore(
      testCoreDeps(userDataDir, sandboxes, {
        apiBaseUrl: sandbox.baseUrl,
        apiKey: KEY,
        workers: undefined,
        confirm: async () => true,
        watches: { start: false, tickMs: 60_000 },
      }),
    );
    const made = await make(core, sandbox);
    await core.dispose();
    const db = new DatabaseSync(file);
    try {
      writeInto(db, made);
    } finally {
      db.close();
    }
    const app = await launchApp({ apiBaseUrl: sandbox.baseUrl, apiKey: KEY, userDataDir });
    try {
      await use(app, made);
    } finally {
      await app.close();
    }
    afterwards?.(file, made);
  } finally {
    await sandbox.close();
    for (const s of sandboxes) await s.close();
    await rm(userDataDir, { recursive: true, force: true });
  }
}

// eslint-disable-next-line no-empty-pattern -- this spec makes its project first, then launches its own app on it
test('watches a newer Skein wrote into are shown as written, and those it cannot read are named', async ({}, testInfo) => {
  hostOnly(testInfo);
  test.setTimeout(120_000);
  await onANewerProject(
    async (core, sandbox) => {
      const made = await call<{ id: number }>(core, 'skein:watch.create', {
        name: 'One account',
        kind: 'accounts',
        targets: [sandbox.examples.profile.id],
        strategy: 'full',
        schedule: { everyMinutes: 60 },
        caps: { perRun: 1_000, perDay: 5_000, total: 10_000 },
      });
      await core.watches.scheduler.tick();
      return made.id;
    },
    (db, watch) => {
      const held = db.prepare('SELECT id FROM watch_presence ORDER BY id').all() as Array<{ id: string }>;
      db.exec(`UPDATE watch_runs SET status = 'partial'`);
      db.prepare(`UPDATE watch_presence SET status = 'hidden', reason = 'withheld in some countries' WHERE id = ?`).run(
        held[0]?.id ?? '',
      );
      db.prepare(`UPDATE watch_presence SET kind = 'community', status = 'missing' WHERE id = ?`).run(
        held[1]?.id ?? '',
      );
      db.prepare(
        `INSERT INTO watch_gaps (watch, from_at, to_at, reason, detail, recorded_at, pending) VALUES (?, 1, 2, 'maintenance', 'The API was down.', 3, '[]')`,
      ).run(watch);
      const add = db.prepare(
        `INSERT INTO watches (name, kind, spec, created_at, paused, next_due, state) VALUES (?, ?, ?, 1, 0, 1, '{}')`,
      );
      add.run(
        'Bookmarks of the team',
        'bookmarks',
        JSON.stringify({ name: 'Bookmarks of the team', kind: 'bookmarks' }),
      );
      add.run('<b>Damaged</b>', 'accounts', '{not json');
    },
    async (app) => {
      const { page } = app;
      await page.evaluate(() => (window.location.hash = '#/watches'));
      const note = page.getByRole('note', { name: 'Watches this Skein cannot read' });
      await expect(note).toContainText('This Skein cannot read 2 watches of this project');
      await expect(note.getByRole('listitem')).toHaveText([
        /“Bookmarks of the team” \(watch \d+, kind: bookmarks\)/,
        // markup in a name is text
        /“<b>Damaged<\/b>” \(watch \d+, kind: accounts\)/,
      ]);
      const card = page.getByRole('list', { name: 'Watches' }).getByRole('listitem');
      await expect(card).toHaveCount(1);
      await expect(card).toContainText('One account');
      await expect(card).toContainText(/UTC: partial, \d+ credits/);
      await expect(card.getByTestId('attrition')).toHaveText(
        '0 gone, 1 missing, 0 back, 1 of a status this Skein does not know',
      );
      await attachScreenshot(page, testInfo, 'watches-newer');
      await card.getByRole('button', { name: 'Runs, gaps and what disappeared' }).click();
      await expect(page.getByRole('table', { name: 'Runs' }).getByRole('cell', { name: 'partial' })).toBeVisible();
      await expect(page.getByRole('table', { name: 'Gaps' })).toContainText('maintenance');
      const gone = page.getByRole('table', { name: 'Disappeared' });
      await expect(gone.getByRole('row', { name: /hidden/ })).toContainText('withheld in some countries');
      // a kind of item this Skein has no counters page for: named, not linked
      await expect(gone.getByRole('rowheader', { name: /^community \d+$/ })).toBeVisible();
      await expect(gone.getByRole('link', { name: /^community/ })).toHaveCount(0);
      await expectAccessible(page, testInfo, 'watches-newer');
      expect(app.host?.internalErrors() ?? []).toEqual([]);
    },
    (file, watch) => {
      // the app left the watches it cannot read as they were
      const after = new DatabaseSync(file, { readOnly: true });
      const rows = after.prepare(`SELECT paused, next_due FROM watches WHERE rowid <> ? ORDER BY rowid`).all(watch);
      after.close();
      expect(rows.map((r) => ({ ...r }))).toEqual([
        { paused: 0, next_due: 1 },
        { paused: 0, next_due: 1 },
      ]);
    },
  );
});

// eslint-disable-next-line no-empty-pattern -- this spec makes its project first, then launches its own app on it
test('a codebook a newer Skein made is refused in words; a new one can still be made', async ({}, testInfo) => {
  hostOnly(testInfo);
  test.setTimeout(120_000);
  await onANewerProject(
    (core) => call(core, 'skein:coding.saveCodebook', { name: 'Team codebook', definition: STANCE }),
    (db) => {
      db.prepare(
        `INSERT INTO codebook_versions (codebook, version, definition, note, created_at) VALUES (1, 2, ?, 'stars', 5)`,
      ).run(JSON.stringify({ fields: [...STANCE.fields, { key: 'rating', label: 'Rating', type: 'stars' }] }));
    },
    async (app) => {
      const { page } = app;
      await page.evaluate(() => (window.location.hash = '#/coding/codebook'));
      const panel = page.getByRole('tabpanel', { name: 'Codebook' });
      await expect(panel.getByRole('alert')).toContainText(
        'This Skein cannot open the codebook “Team codebook”: its version 2 has a field (“rating”) of a kind this Skein does not know (“stars”).',
      );
      await expect(panel.getByRole('alert')).toContainText('It is left as it is.');
      await attachScreenshot(page, testInfo, 'coding-newer');
      await panel.getByRole('button', { name: 'New codebook' }).click();
      await expect(panel.getByRole('textbox', { name: 'Codebook name' })).toBeVisible();
      expect(app.host?.internalErrors() ?? []).toEqual([]);
    },
  );
});

// eslint-disable-next-line no-empty-pattern -- this spec makes its project first, then launches its own app on it
test('values, settings and a drawing a newer Skein wrote are shown as written and never counted', async ({}, testInfo) => {
  hostOnly(testInfo);
  test.setTimeout(120_000);
  await onANewerProject(
    (core, sandbox) => codedProject(core, sandbox.examples.bigThreadPostId),
    (db, made) => writeAsANewerSkein(db, made),
    async (app) => {
      const { page } = app;
      await page.evaluate(() => (window.location.hash = '#/coding/samples'));
      const sample = page.getByRole('listitem', { name: 'Sample Pilot' });
      await expect(sample).toContainText('6 items · drawn in a way this Skein cannot read');
      await expect(sample).toContainText('Bot: this Skein cannot read its model settings');
      await expect(sample.getByRole('button', { name: 'Run Bot' })).toHaveCount(0);
      await attachScreenshot(page, testInfo, 'coding-newer-sample');

      // agreement says what it left out (Ana chose to see it)
      await page.getByRole('combobox', { name: 'Coding as' }).selectOption({ label: 'Ana' });
      await page.getByRole('tab', { name: 'Agreement' }).click();
      const words = page.getByRole('region', { name: 'Agreement in words' });
      await expect(words).toContainText(
        '2 values of this field this Skein cannot read (a newer Skein’s, or damaged) are left out of these figures.',
      );

      // reconciliation shows them as written, and offers no way to take one
      await page.getByRole('tab', { name: 'Reconcile' }).click();
      await page.getByRole('checkbox', { name: 'Only undecided' }).uncheck();
      const unread = page.locator('.reconcile__item').filter({ hasText: '{"stars":4}' });
      await expect(unread.getByRole('row', { name: /Ana/ })).toContainText(
        '{"stars":4} (as written; this Skein cannot read it)',
      );
      await expect(unread.getByTestId('decided')).toHaveText('{"x":1} (as written; this Skein cannot read it) (by me)');
      await attachScreenshot(page, testInfo, 'coding-newer-reconcile');

      // coding: the kept value is said, not shown as a choice; a choice replaces it
      await page.getByRole('tab', { name: 'Code', exact: true }).click();
      const codes = page.getByRole('group', { name: /^Codes/ });
      const kept = codes.getByRole('note');
      await expect(kept).toHaveText(
        'Kept: “{"stars":4}” (as written; this Skein cannot read it). A value chosen here replaces it.',
      );
      await expect(codes.getByRole('button', { pressed: true })).toHaveCount(0);
      await attachScreenshot(page, testInfo, 'coding-newer-code');
      await codes.getByRole('button', { name: /For$/ }).click();
      await expect(codes.getByRole('button', { name: /For$/ })).toHaveAttribute('aria-pressed', 'true');
      await expect(kept).toHaveCount(0);
      await expectAccessible(page, testInfo, 'coding-newer');
      expect(app.host?.internalErrors() ?? []).toEqual([]);
    },
  );
});

// eslint-disable-next-line no-empty-pattern -- this spec makes its project first, then launches its own app on it
test('items of a kind a newer Skein codes are left out of the queue and the disagreements, and counted in words', async ({}, testInfo) => {
  hostOnly(testInfo);
  test.setTimeout(120_000);
  await onANewerProject(
    (core, sandbox) => codedProject(core, sandbox.examples.bigThreadPostId),
    (db, made) => {
      for (const table of ['codings', 'adjudications', 'assignments', 'sample_items'])
        db.prepare(`UPDATE ${table} SET item_kind = 'space' WHERE item_id = ?`).run(made.ids.at(-1)!);
    },
    async (app) => {
      const { page } = app;
      const words =
        'One item here is of a kind this Skein does not code (a newer Skein may have added it): left out of this';
      await page.evaluate(() => (window.location.hash = '#/coding/samples'));
      await page.getByRole('combobox', { name: 'Coding as' }).selectOption({ label: 'Ana' });
      await page.getByRole('tab', { name: 'Code', exact: true }).click();
      await expect(page.getByRole('note').filter({ hasText: words })).toContainText('left out of this queue');
      await expect(page.getByTestId('coding-progress')).toContainText('Item 1 of 6');
      await attachScreenshot(page, testInfo, 'coding-other-kinds-code');
      await page.getByRole('tab', { name: 'Reconcile' }).click();
      await page.getByRole('checkbox', { name: 'Only undecided' }).uncheck();
      await expect(page.getByRole('note').filter({ hasText: words })).toContainText('left out of this list');
      await expect(page.locator('.reconcile__item')).toHaveCount(5);
      await attachScreenshot(page, testInfo, 'coding-other-kinds-reconcile');
      await expectAccessible(page, testInfo, 'coding-other-kinds');
      expect(app.host?.internalErrors() ?? []).toEqual([]);
    },
  );
});

// eslint-disable-next-line no-empty-pattern -- this spec makes its project first, then launches its own app on it
test('an item damaged in the project is said to be damaged where it is coded and reconciled, its values kept', async ({}, testInfo) => {
  hostOnly(testInfo);
  test.setTimeout(120_000);
  await onANewerProject(
    (core, sandbox) => codedProject(core, sandbox.examples.bigThreadPostId),
    (db, made) => {
      db.prepare(`UPDATE items SET raw = '{"id": "<b>cut' WHERE kind = 'post' AND id = ?`).run(made.ids[0]!);
    },
    async (app, made) => {
      const { page } = app;
      const words = `This post's copy in the project (${made.ids[0]}) is damaged and cannot be shown. Hydrating its id again mends it.`;
      await page.evaluate(() => (window.location.hash = '#/coding/samples'));
      await page.getByRole('combobox', { name: 'Coding as' }).selectOption({ label: 'Ana' });
      await page.getByRole('tab', { name: 'Code', exact: true }).click();
      await expect(page.getByTestId('coding-progress')).toContainText('Item 1 of 6');
      const item = page.getByRole('region', { name: 'Item to code' });
      await expect(item).toContainText(words);
      await expect(item).not.toContainText('<b>');
      // what Ana coded on it is kept
      await expect(page.getByRole('group', { name: /^Codes/ }).getByRole('button', { pressed: true })).toHaveCount(1);
      await shootLooks(page, testInfo, 'coding-damaged-item-code', { show: item });
      await page.getByRole('tab', { name: 'Reconcile' }).click();
      await page.getByRole('checkbox', { name: 'Only undecided' }).uncheck();
      await expect(page.locator('.reconcile__item').filter({ hasText: words })).toHaveCount(1);
      await attachScreenshot(page, testInfo, 'coding-damaged-item-reconcile');
      await expectAccessible(page, testInfo, 'coding-damaged-item');
      expect(app.host?.internalErrors() ?? []).toEqual([]);
    },
  );
});
