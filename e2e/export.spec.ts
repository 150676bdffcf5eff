/**
 * Export from the thread view: the menu command opens the dialog, the save
 * path comes from main's dialog (the host answers it), and the file's
 * manifest and item count match what the view shows.
 */
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from './fixtures';
import { demoExamples, openThread } from './support/explorer';

interface Manifest {
  view: { kind: string; operation: string };
  requests: Array<{ params: Record<string, unknown> }>;
  scope: string;
  mode: string;
  pages: Array<{ cursor: string | null; from_cache: boolean }>;
  counts: { pages: number; items: number; calls: number };
  complete: boolean;
  incomplete_reason: string | null;
  files: string[];
}

test('exporting a thread view writes a file whose manifest and item count match the view', async ({ skein }) => {
  test.setTimeout(90_000);
  const { page } = skein;
  const ex = await demoExamples(page);
  const dir = await mkdtemp(join(tmpdir(), 'skein-e2e-export-'));
  const replies = await openThread(page, ex.bigThreadPostId);

  // the menu command (Ctrl/Cmd+E) opens the dialog of the view on screen
  await skein.emit('menu', 'export');
  const dialog = page.getByRole('dialog', { name: /^Export/ });
  await expect(dialog).toBeVisible();
  const loadedLabel = dialog.getByText(/What is loaded now/);
  await expect(loadedLabel).toContainText(/\(\d[\d,]* items\)/);
  const shown = Number((/\(([\d,]+) items\)/.exec((await loadedLabel.textContent()) ?? '')?.[1] ?? '').replace(/,/g, ''));
  expect(shown).toBeGreaterThan(0);
  await expect(dialog.getByText('No new calls: everything comes from what Skein already loaded.')).toBeVisible();

  // "what is loaded now", as JSON (the default)
  const target = join(dir, 'thread.json');
  await skein.setSavePath(target);
  await dialog.getByRole('button', { name: 'Choose file and export' }).click();
  await expect(dialog.getByRole('status')).toContainText('Saved a partial export (only what the view had loaded)');
  expect(skein.saveRequests().at(-1)?.defaultPath).toBe(`skein-thread-${ex.bigThreadPostId}.json`);

  const doc = JSON.parse(await readFile(target, 'utf8')) as { manifest: Manifest; items: Array<{ root_id: string; item: { id: string } }> };
  expect(doc.items).toHaveLength(shown);
  expect(doc.manifest).toMatchObject({
    view: { kind: 'thread', operation: 'postRepliesV2' },
    scope: 'loaded',
    mode: 'demo',
    complete: false,
    incomplete_reason: 'loaded-only',
    counts: { items: shown, calls: 0 },
    files: [target],
  });
  expect(doc.manifest.requests[0]?.params.tweetId).toBe(ex.bigThreadPostId);
  expect(doc.manifest.pages.every((p) => p.from_cache)).toBe(true);
  expect(new Set(doc.items.map((e) => e.root_id))).toEqual(new Set([ex.bigThreadPostId]));
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();

  // "fetch everything" with a page cap, as JSON Lines: partial, resumable, manifest beside it
  await replies.page().getByRole('button', { name: 'Export…' }).click();
  await expect(dialog).toBeVisible();
  await dialog.getByRole('radio', { name: /JSON Lines/ }).check();
  await dialog.getByRole('radio', { name: /Fetch everything/ }).check();
  await dialog.getByRole('textbox', { name: 'Pages' }).fill('3');
  const lines = join(dir, 'thread.jsonl');
  await skein.setSavePath(lines);
  await dialog.getByRole('button', { name: 'Choose file and export' }).click();
  await expect(dialog.getByRole('status')).toContainText('Saved a partial export (stopped at the page cap)');
  await expect(dialog.getByRole('button', { name: 'Resume' })).toBeVisible();
  const sidecar = JSON.parse(await readFile(join(dir, 'thread.manifest.json'), 'utf8')) as Manifest;
  const written = (await readFile(lines, 'utf8')).trimEnd().split('\n');
  expect(sidecar).toMatchObject({ scope: 'all', complete: false, incomplete_reason: 'cap-pages', counts: { pages: 3, items: written.length } });
  expect(sidecar.pages.map((p) => p.cursor)[0]).toBeNull();
  expect(skein.internalErrors()).toEqual([]);
});
