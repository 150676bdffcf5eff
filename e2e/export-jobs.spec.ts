/**
 * A long export stays in sight: after "Hide (keeps running)" the Export dialog of the same view
 * shows the running job with its progress and Cancel, and the dialog of any other view lists it
 * under "Running exports".
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, hostOf, test } from './fixtures';
import { attachScreenshot, demoExamples, expectAccessible, hostOnly, openRoute, openThread } from './support/explorer';

test('a running export hidden from its dialog is shown again, with its progress and Cancel, from every Export dialog', async ({
  skein,
}) => {
  test.setTimeout(90_000);
  const { page } = skein;
  const ex = await demoExamples(page);
  const dir = await mkdtemp(join(tmpdir(), 'skein-e2e-export-jobs-'));
  const replies = await openThread(page, ex.bigThreadPostId);

  // every page of the thread slowed down, so the export is still running while the test looks at it
  const sandbox = await hostOf(skein).sandboxUrl();
  expect(sandbox).not.toBeNull();
  const slow = await fetch(`${sandbox}/__sandbox/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ fault: 'latency;ms=400', operations: ['postRepliesV2'] }),
  });
  expect(slow.status).toBe(201);

  try {
    await replies.page().getByRole('button', { name: 'Export…' }).click();
    const dialog = page.getByRole('dialog', { name: /^Export/ });
    await dialog.getByRole('radio', { name: /Fetch everything/ }).check();
    await skein.setSavePath(join(dir, 'thread.json'));
    await dialog.getByRole('button', { name: 'Choose file and export' }).click();
    await expect(dialog.getByRole('status')).toContainText('Collecting…');
    await dialog.getByRole('button', { name: 'Hide (keeps running)' }).click();
    await expect(dialog).toBeHidden();

    // another view's dialog lists it, with its own Cancel
    await openRoute(page, '#/trends');
    await expect(page.getByRole('heading', { name: 'Trends · Worldwide', level: 1 })).toBeVisible();
    // the menu command reaches a view once it has something to export (its trends are in)
    await expect(page.getByRole('button', { name: 'Export…' })).toBeEnabled();
    await skein.emit('menu', 'export');
    await expect(dialog).toBeVisible();
    const running = dialog.getByRole('region', { name: 'Running exports' });
    await expect(running).toContainText('Collecting…');
    await expect(running.getByRole('button', { name: 'Cancel' })).toBeVisible();
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect(dialog).toBeHidden();

    // back on the thread: its dialog opens on the running job itself
    await page.goBack();
    await expect(replies.getByText('Original post')).toBeVisible();
    await replies.page().getByRole('button', { name: 'Export…' }).click();
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole('status')).toContainText('Collecting…');
    await expect(dialog.getByRole('progressbar', { name: 'Export progress' })).toBeVisible();
    await dialog.getByRole('button', { name: 'Cancel export' }).click();
    await expect(dialog.getByRole('status')).toContainText('Saved a partial export (cancelled)');
    await expect(dialog.getByRole('button', { name: 'Resume' })).toBeVisible();
    await expect(dialog.getByRole('region', { name: 'Running exports' })).toHaveCount(0);
  } finally {
    await fetch(`${sandbox}/__sandbox/faults`, { method: 'DELETE' });
  }
  if (skein.host) expect(skein.host.internalErrors()).toEqual([]);
});

test('a rate-limited export shows its wait counting down, then goes on by itself', async ({ skein }) => {
  test.setTimeout(90_000);
  const { page } = skein;
  const ex = await demoExamples(page);
  const dir = await mkdtemp(join(tmpdir(), 'skein-e2e-export-wait-'));
  const replies = await openThread(page, ex.bigThreadPostId);
  const sandbox = await hostOf(skein).sandboxUrl();
  const rule = (body: unknown) =>
    fetch(`${sandbox}/__sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  expect((await rule({ fault: 'latency;ms=300', operations: ['postRepliesV2'] })).status).toBe(201);

  try {
    await replies.page().getByRole('button', { name: 'Export…' }).click();
    const dialog = page.getByRole('dialog', { name: /^Export/ });
    await dialog.getByRole('radio', { name: /Fetch everything/ }).check();
    await skein.setSavePath(join(dir, 'thread.json'));
    await dialog.getByRole('button', { name: 'Choose file and export' }).click();
    await expect(dialog.getByRole('status')).toContainText('Collecting…');

    // the service answers the next page with a 429 and Retry-After: 4 s
    expect((await rule({ fault: '429;retry-after=4', count: 1, operations: ['postRepliesV2'] })).status).toBe(201);
    const timer = dialog.getByRole('timer');
    await expect(timer).toHaveText(/^Rate limited by the service: going on by itself in 0:0[1-4]\.$/);
    const pagesThen = Number(/(\d+) pages?/.exec((await dialog.getByRole('status').textContent()) ?? '')?.[1]);
    // the wait ends and the job goes on without anyone clicking
    await expect(timer).toHaveCount(0, { timeout: 15_000 });
    await expect(dialog.getByRole('status')).toContainText('Collecting…');
    await expect
      .poll(async () => Number(/(\d+) pages?/.exec((await dialog.getByRole('status').textContent()) ?? '')?.[1]), {
        timeout: 15_000,
      })
      .toBeGreaterThan(pagesThen);
    await dialog.getByRole('button', { name: 'Cancel export' }).click();
    await expect(dialog.getByRole('status')).toContainText('Saved a partial export (cancelled)');
  } finally {
    await fetch(`${sandbox}/__sandbox/faults`, { method: 'DELETE' });
  }
  if (skein.host) expect(skein.host.internalErrors()).toEqual([]);
});

test('exports a newer Skein saved are named, with the folder that keeps them, and left as they were', async ({
  launch,
}, testInfo) => {
  hostOnly(testInfo);
  const userDataDir = await mkdtemp(join(tmpdir(), 'skein-e2e-export-newer-'));
  // what a newer Skein leaves after going back to this one: a job record of a shape this Skein does not know
  const folder = join(userDataDir, 'exports', '5d0c2a4e-newer');
  await mkdir(folder, { recursive: true });
  const record = JSON.stringify({
    id: '5d0c2a4e-newer',
    status: 'verifying',
    files: [join(userDataDir, 'out', 'thread-for-the-newer-skein.csv')],
    startedAt: Date.UTC(2026, 10, 30, 14, 5),
  });
  await writeFile(join(folder, 'job.json'), record);
  await writeFile(join(folder, 'journal.log'), '{"page":1}\n');
  try {
    const app = await launch({ userDataDir });
    const ex = await demoExamples(app.page);
    const replies = await openThread(app.page, ex.bigThreadPostId);
    await replies.page().getByRole('button', { name: 'Export…' }).click();
    const dialog = app.page.getByRole('dialog', { name: /^Export/ });
    const unread = dialog.getByRole('region', { name: 'Exports this Skein cannot read' });
    await expect(unread).toContainText('An export was saved by a newer Skein, or is damaged.');
    await expect(unread).toContainText(join(userDataDir, 'exports'));
    await expect(unread).toContainText('thread-for-the-newer-skein.csv');
    await expect(unread).toContainText(/Begun .*2026/);
    // nothing offered that would resume it here or throw its paid pages away
    await expect(unread.getByRole('button')).toHaveCount(0);
    await expectAccessible(app.page, testInfo, 'unread-exports');
    await attachScreenshot(app.page, testInfo, 'unread-exports');
    await app.close();
    expect(await readFile(join(folder, 'job.json'), 'utf8')).toBe(record);
    expect(await readFile(join(folder, 'journal.log'), 'utf8')).toBe('{"page":1}\n');
  } finally {
    await rm(userDataDir, { recursive: true, force: true });
  }
});
