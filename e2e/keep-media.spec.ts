/**
 * Keeping the media of a collection, in demo mode: the estimate first, then every photo, video and GIF kept
 * under its SHA-256 (re-hashed here from the project's media folder), each media URL fetched once (the
 * sandbox's media log), the run timestamped by the sandbox's stand-in authority, and keeping again adds no
 * byte and fetches nothing. "Check kept files" re-hashes them from the disk, fetching nothing: all match and the
 * token proves them, then a flipped byte and a deleted file are each named and the token no longer proves them.
 */
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from './fixtures';
import {
  demoExamples,
  expectAccessible,
  hostOnly,
  openRoute,
  sandbox,
  shootLooks,
  profileCollection,
} from './support/explorer';

test('keep the media of a collection: files under their hashes, each URL once, again adds nothing, checked', async ({
  skein,
}, testInfo) => {
  hostOnly(testInfo);
  test.setTimeout(120_000);
  const { page } = skein;
  const ex = await demoExamples(page);
  // set-up: a collection of the profile's posts, as browsing its pages and "Save as collection" would make
  const collection = await profileCollection(page, ex.profile.id);
  expect(collection.items).toBeGreaterThanOrEqual(200);

  const api = await sandbox(skein);
  await api.clearMediaRequests();
  const kept = async () => (await api.mediaRequests()).filter((r) => r.agent === 'Skein').map((r) => r.url);

  await openRoute(page, `#/archive?collection=${collection.id}`);
  const keep = page.getByRole('region', { name: 'Keep media' });
  await keep.getByRole('button', { name: 'Keep media…' }).click();
  const estimate = keep.getByRole('status').filter({ hasText: /files? to fetch/ });
  await expect(estimate).toBeVisible();
  const planned = Number(/^(\d+) files? to fetch/.exec((await estimate.innerText()).replaceAll(',', ''))?.[1]);
  expect(planned).toBeGreaterThan(5);
  await keep.getByRole('button', { name: 'Keep media', exact: true }).click();
  await expect(keep.getByRole('status').filter({ hasText: /^Kept \d+ files/ })).toBeVisible({ timeout: 60_000 });
  await expect(keep.getByRole('status').filter({ hasText: /^Kept/ })).toContainText(`Kept ${planned} files`);
  // the run's files are timestamped by the demo's stand-in authority (the sandbox, on this computer)
  await expect(
    keep.getByText(/^Timestamped by 127\.0\.0\.1:\d+ at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC: a token/),
  ).toBeVisible();
  await expect(keep.getByText(`the hashes of the ${planned} files kept this time`)).toBeVisible();
  await shootLooks(page, testInfo, 'keep-media-timestamped');

  // every kept file, re-hashed from the project's media folder, is under the hash the table shows
  const table = keep.getByRole('table', { name: 'Kept media' });
  await expect(table.getByRole('row').nth(1)).toBeVisible();
  const shown = new Set((await table.locator('tbody tr td:nth-child(4)').allInnerTexts()).map((t) => t.trim()));
  const folder = join(skein.userDataDir, 'projects', 'Demo.skein-media');
  // the kept files themselves (the run's manifest and token are in timestamps/)
  const keptFiles = async () =>
    (await readdir(folder, { withFileTypes: true }))
      .filter((e) => e.isFile() && !e.name.startsWith('.'))
      .map((e) => e.name);
  const names = await keptFiles();
  expect(names.length).toBeGreaterThan(0);
  for (const name of names) {
    const hash = createHash('sha256')
      .update(await readFile(join(folder, name)))
      .digest('hex');
    expect(name.startsWith(hash)).toBe(true);
  }
  for (const hash of shown) expect(names.some((n) => n.startsWith(hash))).toBe(true);
  expect(names.some((n) => n.endsWith('.mp4'))).toBe(true);
  expect(names.some((n) => n.endsWith('.png'))).toBe(true);

  // each media URL fetched once
  const fetched = await kept();
  expect(fetched).toHaveLength(planned);
  expect(new Set(fetched).size).toBe(planned);

  // the viewer shows a kept photo from the project's folder, with when it was kept and its hash: no request
  await api.clearMediaRequests();
  const photo = table.getByRole('row').filter({ hasText: 'Photo' }).first();
  const photoHash = (await photo.locator('td').nth(3).innerText()).trim();
  await photo.getByRole('button', { name: 'View' }).click();
  const viewer = keep.getByRole('figure', { name: 'Kept file' });
  await expect(viewer.getByRole('img', { name: 'The kept photo' })).toBeVisible();
  expect(await viewer.getByRole('img').evaluate((i) => (i as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
  await expect(viewer).toContainText(photoHash);
  await expect(viewer).toContainText('its bytes still match');
  expect(await api.mediaRequests()).toEqual([]);
  await viewer.scrollIntoViewIfNeeded();
  await shootLooks(page, testInfo, 'keep-media-viewer');

  // the collection's evidence package, opened with the tools a researcher has: nothing fetched to make it
  const dir = await mkdtemp(join(tmpdir(), 'skein-e2e-evidence-'));
  try {
    await skein.setSavePath(join(dir, 'profile.evidence.zip'));
    await keep.getByRole('button', { name: 'Make an evidence package…' }).click();
    const made = keep.getByRole('region', { name: 'Evidence package' }).getByRole('status');
    await expect(made).toContainText(`Evidence package written to ${join(dir, 'profile.evidence.zip')}`, {
      timeout: 60_000,
    });
    await expect(made).toContainText(`${planned} files`);
    await expect(made).toContainText(/Its manifest is timestamped by 127\.0\.0\.1:\d+ at /);
    expect(await api.mediaRequests()).toEqual([]);
    const out = join(dir, 'unpacked');
    execFileSync('python3', [
      '-c',
      'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])',
      join(dir, 'profile.evidence.zip'),
      out,
    ]);
    expect(execFileSync('sha256sum', ['-c', '--quiet', 'SHA256SUMS'], { cwd: out, encoding: 'utf8' })).toBe('');
    const manifest = JSON.parse(await readFile(join(out, 'manifest.json'), 'utf8')) as {
      posts: { count: number };
      items: Array<{ file: string | null; timestamp: unknown }>;
    };
    expect(manifest.posts.count).toBe(collection.items);
    expect(manifest.items.filter((i) => i.file !== null && i.timestamp !== null)).toHaveLength(planned);
    await writeFile(join(dir, 'ca.pem'), await (await fetch(`${api.baseUrl}/tsa/certificate.pem`)).text());
    expect(
      execFileSync(
        'openssl',
        ['ts', '-verify', '-data', 'manifest.json', '-in', 'manifest.json.tsr', '-CAfile', join(dir, 'ca.pem')],
        {
          cwd: out,
          encoding: 'utf8',
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      ),
    ).toContain('Verification: OK');
    await made.scrollIntoViewIfNeeded();
    await shootLooks(page, testInfo, 'keep-media-evidence');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }

  // keeping again: nothing to fetch, no byte stored, no request
  await keep.getByRole('button', { name: 'Keep media again' }).click();
  await expect(keep.getByRole('status').filter({ hasText: /^Kept 0 files/ })).toContainText(
    `0 kB new; ${planned} were already kept`,
  );
  // (the log was cleared before the viewer): keeping again asked the sandbox for nothing
  expect(await kept()).toEqual([]);
  expect(await keptFiles()).toHaveLength(names.length);
  // a run that kept nothing has nothing to timestamp, and says nothing about it
  await expect(keep.getByText(/^Timestamped by/)).toHaveCount(0);

  // checking the kept files re-hashes them from this computer: all match, and nothing is fetched
  await api.clearMediaRequests();
  const check = keep.getByRole('region', { name: 'Check kept files' });
  await check.getByRole('button', { name: 'Check kept files' }).click();
  const files = check.getByRole('status').filter({ hasText: 'kept file' });
  const tokens = check.getByRole('status').filter({ hasText: 'timestamp token' });
  await expect(files).toHaveText(
    new RegExp(`^All ${names.length} kept files match what was kept \\(\\d+(\\.\\d)? [kMG]B\\)\\.$`),
  );
  await expect(tokens).toHaveText('The one timestamp token checked still proves its files.');

  // a photo's byte flipped and a video deleted on disk: the next check names both, with when they were kept
  const photoFile = names.find((n) => n.endsWith('.png') || n.endsWith('.jpg')) as string;
  const videoFile = names.find((n) => n.endsWith('.mp4')) as string;
  const bytes = await readFile(join(folder, photoFile));
  bytes.writeUInt8((bytes.at(-1) as number) ^ 1, bytes.length - 1);
  await writeFile(join(folder, photoFile), bytes);
  await unlink(join(folder, videoFile));
  await check.getByRole('button', { name: 'Check kept files' }).click();
  await expect(files).toHaveText(`2 of ${names.length} kept files no longer match what was kept:`);
  // and the run's token no longer proves its files, though the token itself is untouched
  await expect(tokens).toHaveText('1 of 1 timestamp tokens checked no longer proves its files:');
  await expect(
    check.getByRole('list', { name: 'Timestamp tokens that no longer prove their files' }).getByRole('listitem'),
  ).toHaveText(/^The token from 127\.0\.0\.1:\d+ of .* UTC: 2 of the files it names are no longer kept unchanged\.$/);
  const listed = check.getByRole('list', { name: 'Kept files that no longer match' }).getByRole('listitem');
  await expect(listed).toHaveCount(2);
  const changed = listed.filter({ hasText: photoFile.slice(0, 64) });
  await expect(changed).toContainText(/^The photo of post \d+, kept \d{4}-\d\d-\d\d \d\d:\d\d UTC, has changed/);
  const missing = listed.filter({ hasText: videoFile.slice(0, 64) });
  await expect(missing).toContainText(/^The video of post \d+, kept .* UTC, is missing from the media folder/);
  expect(await api.mediaRequests()).toEqual([]);
  // the collection is a saved search: said once above its media, however often the view has been drawn
  await expect(page.getByRole('region', { name: 'Bring the saved search up to date' })).toHaveCount(1);
  await expectAccessible(page, testInfo, 'keep-media-check');
  await check.scrollIntoViewIfNeeded();
  await shootLooks(page, testInfo, 'keep-media-check');
});
