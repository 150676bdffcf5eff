/**
 * An export that keeps its posts' media, in demo mode: "Also keep the media of these posts" in the export dialog
 * of a profile's timeline, with what keeping the media of the posts loaded so far takes before the export starts; once the file is written, the dialog shows what keeping takes and how it ended (each
 * media URL fetched once: the sandbox's media log), and links to the collection the export became in the Archive.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from './fixtures';
import { demoExamples, hostOnly, openRoute, sandbox } from './support/explorer';

test('an export keeps the media of its posts, then links to its collection', async ({ skein }, testInfo) => {
  hostOnly(testInfo);
  test.setTimeout(120_000);
  const { page } = skein;
  const ex = await demoExamples(page);
  const api = await sandbox(skein);
  await api.clearMediaRequests();
  await openRoute(page, `#/user/${ex.profile.id}/posts`);
  const feed = page.getByRole('region', { name: `Posts by @${ex.profile.userName}` });
  await feed.scrollIntoViewIfNeeded(); // virtualized: rows exist once the list is on screen
  await expect(feed.locator('article[data-post-id]').first()).toBeVisible();

  await skein.emit('menu', 'export');
  const dialog = page.getByRole('dialog', { name: /^Export/ });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('radio', { name: /Fetch everything/ }).check();
  await dialog.getByRole('textbox', { name: 'Pages' }).fill('3');
  const keep = dialog.getByRole('checkbox', { name: 'Also keep the media of these posts' });
  await expect(keep).not.toBeChecked();
  await keep.check();
  // before anything starts: what keeping the media of the posts loaded so far takes (the rest is still to fetch)
  const before = dialog.getByRole('status').filter({ hasText: /^Media of the/ });
  await expect(before).toHaveText(
    /^Media of the \d+ posts loaded so far: \d+ files to fetch, about [\d.]+ [kMG]?B.*, about .*\. No API credits: media come from their servers\. The pages still to fetch add their media, counted once they are fetched\.$/,
  );
  await skein.setSavePath(join(await mkdtemp(join(tmpdir(), 'skein-e2e-export-media-')), 'timeline.jsonl'));
  await dialog.getByRole('button', { name: 'Choose file and export' }).click();

  const media = dialog.getByRole('region', { name: 'Media of this export' });
  const ended = media.getByRole('status').filter({ hasText: /^Kept \d+ files?/ });
  await expect(ended).toBeVisible({ timeout: 60_000 });
  const kept = Number(/^Kept (\d+)/.exec(await ended.innerText())?.[1]);
  expect(kept).toBeGreaterThan(0);
  const fetched = (await api.mediaRequests()).filter((r) => r.agent === 'Skein').map((r) => r.url);
  expect(fetched).toHaveLength(kept);
  expect(new Set(fetched).size).toBe(fetched.length);

  await media.getByRole('link', { name: 'Open its collection in the Archive' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('heading', { name: 'Archive', level: 1 })).toBeVisible();
  // the collection's own Keep media finds nothing left to fetch
  const panel = page.getByRole('region', { name: 'Keep media' });
  await panel.getByRole('button', { name: 'Keep media…' }).click();
  await expect(panel.getByRole('status').filter({ hasText: /^Nothing to fetch/ })).toBeVisible();
});
