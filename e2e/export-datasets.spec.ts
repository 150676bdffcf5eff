/**
 * The research formats from the export dialog of a thread: Parquet, a network (GEXF 1.3, validated against
 * the vendored schema; Gephi's two tables), the post ids only (dehydrated), and the twarc-csv columns.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from './fixtures';
import { demoExamples, openThread } from './support/explorer';

const XSD = join(process.cwd(), 'src/core/formats/network/fixtures/gexf-1.3/gexf.xsd');

test('a thread exports to Parquet, GEXF, Gephi CSV, an id list and twarc-csv columns', async ({ skein }) => {
  test.setTimeout(120_000);
  const { page } = skein;
  const ex = await demoExamples(page);
  const dir = await mkdtemp(join(tmpdir(), 'skein-e2e-datasets-'));
  const replies = await openThread(page, ex.bigThreadPostId);
  const dialog = page.getByRole('dialog', { name: /^Export/ });

  const exportAs = async (format: RegExp, file: string, columns?: string) => {
    await replies.page().getByRole('button', { name: 'Export…' }).click();
    await expect(dialog).toBeVisible();
    await dialog.getByRole('radio', { name: format }).check();
    if (columns) await dialog.getByRole('combobox', { name: /Columns/ }).selectOption({ label: columns });
    await dialog.getByRole('radio', { name: /^Relevance/ }).check();
    await dialog.getByRole('radio', { name: /What is loaded now/ }).check();
    await skein.setSavePath(join(dir, file));
    await dialog.getByRole('button', { name: 'Choose file and export' }).click();
    await expect(dialog.getByRole('status')).toContainText('Saved a partial export');
    await dialog.getByRole('button', { name: 'Close' }).click();
  };

  await exportAs(/^Parquet/, 'p.parquet');
  expect((await readFile(join(dir, 'p.parquet'))).subarray(0, 4).toString()).toBe('PAR1');

  await exportAs(/Network \(GEXF\)/, 'n.gexf');
  execFileSync('xmllint', ['--noout', '--schema', XSD, join(dir, 'n.gexf')], { stdio: 'pipe' });
  expect(await readFile(join(dir, 'n.gexf'), 'utf8')).toMatch(/<edge [^>]*kind="reply"/);

  await exportAs(/Network \(Gephi CSV\)/, 'g.csv');
  expect((await readFile(join(dir, 'g.edges.csv'), 'utf8')).split('\n')[0]).toBe(
    'Source,Target,Type,Kind,Weight,First,Last',
  );
  expect((await readFile(join(dir, 'g.nodes.csv'), 'utf8')).split('\n')[1]).toMatch(/^\d{15,19},/);

  await exportAs(/Post ids only/, 'i.txt');
  const ids = (await readFile(join(dir, 'i.txt'), 'utf8')).trimEnd().split('\n');
  expect(ids[0]).toBe(ex.bigThreadPostId);
  expect(ids.every((id) => /^\d{15,19}$/.test(id))).toBe(true);

  await exportAs(/CSV for analysis/, 't.csv', 'twarc-csv columns (one line per row)');
  expect((await readFile(join(dir, 't.csv'), 'utf8')).split('\n')[0]).toMatch(
    /^id,conversation_id,referenced_tweets\.replied_to\.id,/,
  );

  // the dialog with every format, in a small window
  await page.setViewportSize({ width: 900, height: 600 });
  await replies.page().getByRole('button', { name: 'Export…' }).click();
  await dialog.getByRole('radio', { name: /CSV for analysis/ }).check();
  await page.screenshot({ path: join('.tmp', 'export-datasets-900x600.png') });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: join('.tmp', 'export-datasets-900x600-dark.png') });
  await dialog.getByRole('button', { name: 'Close' }).click();
});
