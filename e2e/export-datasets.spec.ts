/**
 * The research formats from the export dialog of a thread: Parquet, networks (GEXF 1.2draft by default and 1.3,
 * each validated against its vendored schema; GraphML; Gephi's two tables), the post ids only (dehydrated),
 * and the twarc-csv columns.
 */
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { schemaErrors } from '../src/core/testing/xml-schema';
import { expect, test } from './fixtures';
import { demoExamples, openThread } from './support/explorer';

const SCHEMAS = join(process.cwd(), 'src/core/formats/network/fixtures');

test('a thread exports to Parquet, GEXF (1.2 and 1.3), GraphML, Gephi CSV, an id list and twarc-csv columns', async ({
  skein,
}) => {
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
  const gexf = await readFile(join(dir, 'n.gexf'), 'utf8');
  expect(await schemaErrors(gexf, join(SCHEMAS, 'gexf-1.2draft'))).toEqual([]);
  expect(gexf).toMatch(/<attvalue for="0" value="reply"\/>/);

  await exportAs(/Network \(GEXF 1\.3/, 'n13.gexf');
  const gexf13 = await readFile(join(dir, 'n13.gexf'), 'utf8');
  expect(await schemaErrors(gexf13, join(SCHEMAS, 'gexf-1.3'))).toEqual([]);
  expect(gexf13).toMatch(/<edge [^>]*kind="reply"/);

  await exportAs(/Network \(GraphML\)/, 'n.graphml');
  expect(await readFile(join(dir, 'n.graphml'), 'utf8')).toMatch(/<data key="e0">reply<\/data>/);

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
