/**
 * One format registry (a new format is one module and one line): a format registered beside the
 * built-in ones — one module, one registry line, given to the core by the host — is what a person
 * sees offered in the export dialog and in the Archive view, and it is written, with its own section
 * in the manifest.
 */
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BUILT_IN_FORMATS } from '../src/core/formats';
import { toyFormat } from '../src/core/formats/testing/toy-format';
import { expect, hostOf, test } from './fixtures';
import { demoExamples, hostOnly, openThread } from './support/explorer';

test('a format registered beside the built-in ones is offered, written and described', async ({ launch }, testInfo) => {
  hostOnly(testInfo);
  test.setTimeout(90_000);
  const skein = await launch({ formats: [...BUILT_IN_FORMATS, toyFormat] });
  const { page } = skein;
  const ex = await demoExamples(page);
  const dir = await mkdtemp(join(tmpdir(), 'skein-e2e-formats-'));
  const replies = await openThread(page, ex.bigThreadPostId);

  // offered: last in the dialog, with its hint, after every built-in one
  await replies.page().getByRole('button', { name: 'Export…' }).click();
  const dialog = page.getByRole('dialog', { name: /^Export/ });
  const formats = dialog.getByRole('group', { name: 'Format' }).getByRole('radio');
  await expect(formats).toHaveCount(12);
  await expect(formats.last()).toHaveAccessibleName(/^Toy TSV a format the tests register/);
  await expect(dialog.getByRole('radio', { name: /^JSON one file/ })).toBeChecked();

  // written: the save dialog asks for a .tsv, the file holds a line per item loaded
  await dialog.getByRole('radio', { name: /^Toy TSV/ }).check();
  await dialog.getByRole('radio', { name: /What is loaded now/ }).check();
  const target = join(dir, 'thread.tsv');
  await skein.setSavePath(target);
  await dialog.getByRole('button', { name: 'Choose file and export' }).click();
  await expect(dialog.getByRole('status')).toContainText('Saved a partial export');
  expect(hostOf(skein).saveRequests().at(-1)).toMatchObject({
    defaultPath: expect.stringMatching(/\.tsv$/),
    filters: [{ name: 'Toy TSV', extensions: ['tsv'] }],
  });
  const lines = (await readFile(target, 'utf8')).trimEnd().split('\n');
  expect(lines.length).toBeGreaterThan(0);
  expect(lines.every((l) => /^\d{15,19}\t/.test(l))).toBe(true);

  // described: the manifest beside it has the format's own section
  const manifest = JSON.parse(await readFile(`${target}.manifest.json`, 'utf8')) as {
    format: string;
    toy?: { columns: string[]; rows: number };
  };
  expect(manifest).toMatchObject({ format: 'toy-tsv', toy: { columns: ['id', 'text'], rows: lines.length } });
  await dialog.getByRole('button', { name: 'Close' }).click();

  // the Archive view offers it too (for posts), after JSON Lines, its default
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Archive' }).click();
  const format = page.getByRole('group', { name: 'Export from the archive' }).getByRole('combobox', { name: 'Format' });
  await expect(format.locator('option').first()).toHaveText('JSON Lines');
  await expect(format.locator('option').last()).toHaveText('Toy TSV');
});
