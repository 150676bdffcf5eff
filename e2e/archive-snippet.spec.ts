/**
 * "Copy as Python" in the Archive view (demo): a search's script is put on the clipboard and shown in a dialog,
 * its text selectable, naming the project and the search; Esc closes it without leaving the view. "Copy as DuckDB"
 * copies the project as Parquet first, and its script, run by DuckDB as printed, lists the view's posts.
 */
import { DuckDBInstance } from '@duckdb/node-api';
import { expect, test } from './fixtures';
import { demoExamples, expectAccessible, openThread, shootLooks } from './support/explorer';

test('a search copied as Python: the script on the clipboard and in a dialog', async ({ skein }, testInfo) => {
  const { page } = skein;
  const ex = await demoExamples(page);
  // something in the project to search: a thread's replies, read once
  const replies = await openThread(page, ex.bigThreadPostId);
  const reply = replies.locator('article[data-post-id]').nth(1);
  await expect(reply).toBeVisible();
  const text = (await reply.locator('.post__text').first().innerText()).trim();
  const word = text.split(/[^\p{L}]+/u).find((w) => w.length >= 6) ?? text.split(/\s+/)[0]!;

  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Archive' }).click();
  await page.getByRole('searchbox', { name: 'Search the archive' }).fill(word);
  await page.getByRole('search', { name: 'Archive' }).getByRole('button', { name: 'Search' }).click();
  await expect(page.getByRole('region', { name: 'Archive results' }).locator('article').first()).toBeVisible();

  if (testInfo.project.name !== 'electron')
    await page
      .context()
      .grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(page.url()).origin });
  await page
    .getByRole('group', { name: 'Copy this view as a script' })
    .getByRole('button', { name: 'Copy as Python' })
    .click();

  const dialog = page.getByRole('dialog', { name: 'This view as Python' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('status')).toContainText('Copied to the clipboard.');
  // the project file's word index is one the readers researchers have (Debian 12's SQLite 3.40) can search
  await expect(dialog).not.toContainText('needs SQLite');
  const script = dialog.getByRole('textbox', { name: 'The Python script' });
  await expect(script).toHaveValue(/import pandas as pd/);
  await expect(script).toHaveValue(/project “Demo data”/);
  await expect(script).toHaveValue(new RegExp(`matching the search “${word}`));
  await expect(script).toHaveValue(/pd\.read_sql_query\(SQL, con, params=PARAMS\)/);
  if (testInfo.project.name !== 'electron')
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await script.inputValue());
  await shootLooks(page, testInfo, 'archive-snippet');
  await expectAccessible(page, testInfo, 'archive-snippet');

  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('heading', { name: 'Archive', level: 1 })).toBeVisible();

  await page
    .getByRole('group', { name: 'Copy this view as a script' })
    .getByRole('button', { name: 'Copy as DuckDB' })
    .click();
  const duck = page.getByRole('dialog', { name: 'This view as DuckDB' });
  await expect(duck).toBeVisible({ timeout: 30_000 });
  await expect(duck).toContainText('The project was copied as Parquet to');
  const duckScript = duck.getByRole('textbox', { name: 'The DuckDB script' });
  await expect(duckScript).toHaveValue(/read_parquet\(/);
  await shootLooks(page, testInfo, 'archive-snippet-duckdb');
  // the script as printed, in DuckDB: the posts the view lists first, in its order
  const shown = await page
    .getByRole('region', { name: 'Archive results' })
    .locator('article[data-post-id]')
    .evaluateAll((as) => as.slice(0, 5).map((a) => a.getAttribute('data-post-id')));
  const db = await DuckDBInstance.create(':memory:');
  const con = await db.connect();
  try {
    const rows = (await con.runAndReadAll(await duckScript.inputValue())).getRowObjects();
    expect(rows.slice(0, shown.length).map((r) => r.id)).toEqual(shown);
  } finally {
    con.closeSync();
    db.closeSync();
  }
  await page.keyboard.press('Escape');
  await expect(duck).toBeHidden();
});
