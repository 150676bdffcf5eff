/**
 * Hydrate ids: a CSV Skein exported for spreadsheets, then edited in a spreadsheet that damaged two
 * ids, is read back: the damaged ids are refused (with line and why) before any call; the rest hydrate in
 * ⌈n/100⌉ calls by the sandbox's own ledger; the ids that did not come back are listed with the reason, and
 * "Retry the missing" asks for only those; dehydrating the hydration's collection gives back the same ids.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, hostOf, test } from './fixtures';
import { demoExamples, hostOnly, openRoute, openThread, sandbox, shootLooks } from './support/explorer';

const GONE = ['1999999999999999991', '1999999999999999992'];

test('a Skein CSV with damaged ids: refused before spending, the rest hydrated in ⌈n/100⌉ calls, the missing listed with why', async ({
  skein,
}) => {
  test.setTimeout(90_000);
  const { page } = skein;
  const ex = await demoExamples(page);
  const dir = await mkdtemp(join(tmpdir(), 'skein-e2e-hydrate-'));
  const sandbox = (await hostOf(skein).sandboxUrl())!;
  const ledger = async () =>
    ((await (await fetch(`${sandbox}/__sandbox/usage`)).json()) as { totals: { calls: number } }).totals.calls;

  // a thread's loaded replies exported as CSV for spreadsheets (="…" ids, a byte-order mark)
  const replies = await openThread(page, ex.bigThreadPostId);
  await replies.page().getByRole('button', { name: 'Export…' }).click();
  const dialog = page.getByRole('dialog', { name: /^Export/ });
  await dialog.getByRole('radio', { name: /CSV for spreadsheets/ }).check();
  await dialog.getByRole('radio', { name: /What is loaded now/ }).check();
  await skein.setSavePath(join(dir, 'thread.csv'));
  await dialog.getByRole('button', { name: 'Choose file and export' }).click();
  await expect(dialog.getByRole('status')).toContainText('Saved a partial export');
  await dialog.getByRole('button', { name: 'Close' }).click();

  // …then a spreadsheet damaged two ids, and two ids of posts that are gone were added
  const exported = await readFile(join(dir, 'thread.csv'), 'utf8');
  const rows = exported.trimEnd().split('\n');
  const ids = rows.slice(1).flatMap((r) => /^"=""(\d+)"""/.exec(r)?.[1] ?? []);
  expect(ids.length).toBeGreaterThan(5);
  const edited = [
    ...rows,
    '1.23457E+18,damaged',
    '1234567890123450000,rounded',
    ...GONE.map((id) => `"=""${id}""",gone`),
  ].join('\n');
  await writeFile(join(dir, 'edited.csv'), edited);

  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Hydrate ids' }).click();
  await expect(page.getByRole('heading', { name: 'Hydrate ids', level: 1 })).toBeVisible();
  await page.getByLabel(/A file of post ids/).setInputFiles(join(dir, 'edited.csv'));
  // the column picker suggests the id column and shows the first rows
  await expect(page.getByRole('combobox', { name: 'Column' })).toHaveValue('0');
  await expect(page.getByRole('table', { name: 'First rows of the file' })).toBeVisible();

  const before = await ledger();
  await page.getByRole('button', { name: 'Read the ids' }).click();
  const panel = page.getByRole('region', { name: 'edited.csv' });
  const asked = ids.length + GONE.length;
  await expect(panel.getByText(`${asked} post ids ready to hydrate`)).toBeVisible();
  await expect(panel.getByRole('alert')).toContainText('2 ids were damaged by a spreadsheet');
  await panel.getByText(/^Refused/).click();
  await expect(panel.getByRole('row', { name: /1\.23457E\+18 scientific notation/ })).toBeVisible();
  await expect(panel.getByRole('row', { name: /1234567890123450000 rounded by a spreadsheet/ })).toBeVisible();
  expect(await ledger()).toBe(before); // reading spent nothing

  // the thread's replies were kept by the project as the thread loaded: already there, free; only the gone are asked for
  await expect(panel.getByText(`${ids.length} already in the project (free)`, { exact: false })).toBeVisible();
  await expect(panel.getByText(/asks for the others in 1 call of up to 100/)).toBeVisible();
  // …unless they are fetched again (fresh counters): every id is asked for
  await panel.getByRole('checkbox', { name: /Fetch the ones already in the project again/ }).check();
  const calls = Math.ceil(asked / 100);
  await expect(panel.getByText(new RegExp(`asks for them in ${calls} calls? of up to 100`))).toBeVisible();
  const session = page.getByTestId('session-calls');
  const sessionBefore = Number((await session.innerText()).replace(/\D+/g, ''));
  await panel.getByRole('button', { name: 'Hydrate…' }).click();
  // titled for what it does, with the formats a hydration is analysed in (no network files)
  const hydrating = page.getByRole('dialog', { name: 'Hydrate “edited.csv”' });
  await expect(hydrating.getByRole('radio', { name: /Network/ })).toHaveCount(0);
  // the dialog promises what the job will buy, with dollars: every id asked for, nothing from what is loaded
  await expect(hydrating.getByText(new RegExp(`${calls} calls?.*credits \\((< )?\\$`)).first()).toBeVisible();
  await expect(hydrating.getByText(/No new calls/)).toHaveCount(0);
  await hydrating.getByRole('radio', { name: /JSON Lines/ }).check();
  await page.screenshot({ path: test.info().outputPath('hydrate-dialog.png') });
  await skein.setSavePath(join(dir, 'hydrated.jsonl'));
  await hydrating.getByRole('button', { name: 'Choose file and hydrate' }).click();
  await expect(hydrating.getByRole('status')).toContainText('Done:');
  await hydrating.getByRole('button', { name: 'Close' }).click();
  // the after-report: what was spent, what came back and what did not, and the headline follows
  await expect(
    panel.getByText(new RegExp(`^Done: ${ids.length} found in ${calls} calls? \\(.* credits \\((< )?\\$`)),
  ).toBeVisible();
  await expect(panel.getByText(`${asked} post ids, hydrated: ${ids.length} came back, 2 did not`)).toBeVisible();
  await shootLooks(page, test.info(), 'hydrate-report');
  expect(await ledger()).toBe(before + calls);
  // the status bar's meter counts what the hydration bought
  await expect(session).toHaveText(`Calls this session: ${sessionBefore + calls}`);

  const lines = (await readFile(join(dir, 'hydrated.jsonl'), 'utf8')).trim().split('\n');
  expect(lines.map((l) => (JSON.parse(l) as { item: { id: string } }).item.id)).toEqual(ids);

  // the ids that did not come back, with why; retrying asks for only those
  const missing = panel.getByRole('region', { name: /Ids that did not come back/ });
  for (const id of GONE) {
    await expect(
      // demo mode: an id from elsewhere is not in the generated world, not "deleted"
      missing.getByRole('row', { name: new RegExp(`^${id} not in the demo world`) }),
    ).toBeVisible();
  }
  await missing.getByRole('button', { name: 'Retry the missing (2)' }).click();
  const retry = page.getByRole('region', { name: 'Missing from edited.csv' });
  await expect(retry.getByText('2 post ids ready to hydrate')).toBeVisible();
  await expect(retry.getByText(/in 1 call of up to 100/)).toBeVisible();

  // dehydrate: the hydration is a collection of the project; its post ids come back as they went in
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Archive' }).click();
  const collection = page.getByRole('combobox', { name: 'Collection' });
  const hydrated = collection.locator('option', { hasText: /^edited\.csv/ });
  await expect(hydrated).toHaveCount(1);
  await collection.selectOption({ label: await hydrated.innerText() });
  const archiveExport = page.getByRole('group', { name: 'Export from the archive' });
  await archiveExport.getByRole('combobox', { name: 'Format' }).selectOption({ label: 'Post ids only (.txt)' });
  await skein.setSavePath(join(dir, 'dehydrated.txt'));
  const spent = await ledger();
  await archiveExport.getByRole('button', { name: 'Export these results…' }).click();
  await expect(archiveExport.getByRole('status')).toContainText(`${ids.length} items written`);
  const back = (await readFile(join(dir, 'dehydrated.txt'), 'utf8')).trimEnd().split('\n');
  expect([...back].sort()).toEqual([...ids].sort());
  expect(await ledger()).toBe(spent);
});

test('a user list with @handles: resolving them shows its cost first, and their ids join the list', async ({
  skein,
}) => {
  const { page } = skein;
  const ex = await demoExamples(page);
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Hydrate ids' }).click();
  await page.getByRole('tab', { name: 'User ids' }).click();
  await page.getByLabel('Or paste user ids').fill(`@${ex.profile.userName}\n${GONE[0]}\n@${ex.profile.userName}`);
  await page.getByRole('button', { name: 'Read the ids' }).click();
  const panel = page.getByRole('region', { name: 'Pasted ids' });
  await expect(panel.getByText('1 user id ready to hydrate')).toBeVisible();
  await expect(
    panel.getByText(/names 1 @handle\. Resolving it costs 1 people search, about \d+ credits/),
  ).toBeVisible();
  await panel.getByRole('button', { name: 'Resolve 1 handle' }).click();
  const extended = page.getByRole('region', { name: 'Pasted ids with handles' });
  await expect(extended.getByText('2 user ids ready to hydrate')).toBeVisible();
});

test('a hydration stopped by quitting resumes after a restart, buying no batch twice', async ({ launch }, testInfo) => {
  hostOnly(testInfo);
  test.setTimeout(120_000);
  const userDataDir = await mkdtemp(join(tmpdir(), 'skein-e2e-hydrate-restart-'));
  const dir = await mkdtemp(join(tmpdir(), 'skein-e2e-hydrate-out-'));
  const ids = Array.from({ length: 250 }, (_, i) => String(1_834_567_890_123_456_789n + BigInt(i)));
  try {
    const first = await launch({ userDataDir });
    const api = await sandbox(first);
    // every batch is slow, so the hydration is still running when Skein quits
    await api.fault('latency;ms=1500', ['postsByIds']);
    await openRoute(first.page, '#/hydrate/posts');
    await first.page.getByLabel('Or paste post ids').fill(ids.join('\n'));
    await first.page.getByRole('button', { name: 'Read the ids' }).click();
    const panel = first.page.getByRole('region', { name: 'Pasted ids' });
    await expect(panel.getByText('250 post ids ready to hydrate')).toBeVisible();
    await panel.getByRole('button', { name: 'Hydrate…' }).click();
    const dialog = first.page.getByRole('dialog', { name: /^Hydrate/ });
    await dialog.getByRole('radio', { name: /JSON Lines/ }).check();
    await first.setSavePath(join(dir, 'hydrated.jsonl'));
    await dialog.getByRole('button', { name: 'Choose file and hydrate' }).click();
    await expect(dialog.getByRole('status')).toContainText(/1 call/);
    const lookups = async (a: typeof api) => (await a.requests()).filter((r) => r.operation === 'postsByIds').length;
    await first.close();

    // a new Skein over the same user data: the list is kept, the hydration resumes where it stopped
    const second = await launch({ userDataDir });
    const again = await sandbox(second);
    await openRoute(second.page, '#/hydrate/posts');
    await second.page.getByRole('link', { name: 'Pasted ids' }).click();
    const kept = second.page.getByRole('region', { name: 'Pasted ids' });
    const stopped = kept.getByText(/Stopped \(interrupted\): 0 found in \d+ calls?/);
    await expect(stopped).toBeVisible();
    // the batches the first Skein bought and kept (the one in flight lands within quit's grace)
    const kept1 = Number(/in (\d+) call/.exec(await stopped.innerText())?.[1]);
    expect(kept1).toBeGreaterThanOrEqual(1);
    await kept.getByRole('button', { name: 'Hydrate…' }).click();
    const resumeDialog = second.page.getByRole('dialog', { name: /^Hydrate/ });
    await resumeDialog
      .getByRole('region', { name: 'Unfinished exports' })
      .getByRole('button', { name: 'Resume' })
      .click();
    await expect(kept.getByText(/Done: 0 found in 3 calls/)).toBeVisible({ timeout: 30_000 });
    // the new Skein bought only the batches the first had not kept: none twice
    expect(await lookups(again)).toBe(3 - kept1);
    await expect(kept.getByText('250 ids did not come back')).toBeVisible();
  } finally {
    await rm(userDataDir, { recursive: true, force: true });
    await rm(dir, { recursive: true, force: true });
  }
});

test('an id a spreadsheet may have rounded, among 100 or more intact ids: if it does not come back, it is listed apart from the deleted', async ({
  skein,
}) => {
  test.setTimeout(90_000);
  const { page } = skein;
  const dir = await mkdtemp(join(tmpdir(), 'skein-e2e-hydrate-rounded-'));
  // 120 intact ids of posts the demo does not have (gone), and one id with 15 significant digits, then zeros
  const intact = Array.from({ length: 120 }, (_, i) => String(1_834_567_890_123_456_789n + BigInt(i)));
  const rounded = '2006378618355240000';
  await openRoute(page, '#/hydrate/posts');
  await page.getByLabel('Or paste post ids').fill([...intact, rounded].join('\n'));
  await page.getByRole('button', { name: 'Read the ids' }).click();
  const panel = page.getByRole('region', { name: 'Pasted ids' });
  // among so many intact ids it is accepted (a real id can end in zeros)…
  await expect(panel.getByText('121 post ids ready to hydrate')).toBeVisible();
  await panel.getByRole('button', { name: 'Hydrate…' }).click();
  const dialog = page.getByRole('dialog', { name: /^Hydrate/ });
  await dialog.getByRole('radio', { name: /JSON Lines/ }).check();
  await skein.setSavePath(join(dir, 'hydrated.jsonl'));
  await dialog.getByRole('button', { name: 'Choose file and hydrate' }).click();
  await expect(dialog.getByRole('status')).toContainText('Done:');
  await dialog.getByRole('button', { name: 'Close' }).click();

  // …and, not returned, it is not counted as a deleted post
  const missing = panel.getByRole('region', { name: /Ids that did not come back/ });
  await expect(missing.getByRole('heading', { name: /121 ids did not come back/ })).toBeVisible();
  await expect(missing.getByRole('note')).toContainText(
    '1 of them has the shape a spreadsheet leaves when it rounds an id (15 significant digits, then zeros)',
  );
  await expect(
    missing.getByRole('row', { name: new RegExp(`^${rounded} .*may be a spreadsheet-rounded id`) }),
  ).toBeVisible();
  await expect(missing.getByRole('row', { name: new RegExp(`^${intact[0]} not in the demo world`) })).toBeVisible();
  const manifest = JSON.parse(await readFile(join(dir, 'hydrated.jsonl.manifest.json'), 'utf8')) as {
    ids_not_found_total: number;
    ids_possibly_rounded: { total: number; listed: string[] };
  };
  expect(manifest.ids_not_found_total).toBe(120);
  expect(manifest.ids_possibly_rounded).toMatchObject({ total: 1, listed: [rounded] });
});

test('id lists a newer Skein kept are named, with the folder that keeps them, and left as they were', async ({
  launch,
}, testInfo) => {
  hostOnly(testInfo);
  const userDataDir = await mkdtemp(join(tmpdir(), 'skein-e2e-hydrate-newer-'));
  // a list of a kind of id this Skein does not hydrate, as a newer Skein keeps it
  const record = JSON.stringify({
    importId: 'imp-newer0001',
    entity: 'communities',
    label: 'Communities of the election',
    ids: 3,
    sealed: true,
    createdAt: Date.UTC(2026, 10, 30, 14, 5),
  });
  await mkdir(join(userDataDir, 'imports'), { recursive: true });
  await writeFile(join(userDataDir, 'imports', 'imp-newer0001.json'), record);
  try {
    const app = await launch({ userDataDir });
    await openRoute(app.page, '#/hydrate/posts');
    const note = app.page.getByRole('note', { name: 'Id lists this Skein cannot read' });
    await expect(note).toContainText('An id list was kept by a newer Skein, or is damaged');
    await expect(note).toContainText(join(userDataDir, 'imports'));
    await expect(note).toContainText('Communities of the election');
    await expect(note).toContainText('read 2026-11-30 14:05 UTC');
    await expect(note.getByRole('link')).toHaveCount(0);
    await app.close();
    expect(await readFile(join(userDataDir, 'imports', 'imp-newer0001.json'), 'utf8')).toBe(record);
  } finally {
    await rm(userDataDir, { recursive: true, force: true });
  }
});
