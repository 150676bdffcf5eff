/**
 * Keeping the pages a collection links to, in demo mode: the count first, then the capture from the sandbox's
 * small web with its progress, then how it ended — pages kept, pages not kept with their reasons in plain words
 * — where the web archive (WACZ) is and who timestamped it; the file is there, and keeping again fetches
 * nothing. With the web archive save service turned on in Settings, each page is also sent (paced) to the
 * sandbox's stand-in, and each one is listed with its capture at the web archive or the reason there is none.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from './fixtures';
import {
  demoExamples,
  expectAccessible,
  hostOnly,
  openRoute,
  sandbox,
  profileCollection,
  shootLooks,
} from './support/explorer';
import { expectReplayed, replayWebPage, waczPages } from './support/replayweb';

test('keep the linked pages of a collection: counted, kept or refused with reasons, a WACZ, again nothing', async ({
  skein,
}, testInfo) => {
  hostOnly(testInfo);
  test.setTimeout(180_000);
  const { page } = skein;
  const ex = await demoExamples(page);
  const collection = await profileCollection(page, ex.profile.id);

  const api = await sandbox(skein);
  await api.clearWebRequests();
  await openRoute(page, `#/archive?collection=${collection.id}`);
  const keep = page.getByRole('region', { name: 'Keep linked pages' });
  await keep.getByRole('button', { name: 'Keep linked pages…' }).click();
  const estimate = keep.getByRole('status').filter({ hasText: /linked pages? to fetch/ });
  await expect(estimate).toBeVisible();
  const planned = Number(/^(\d+) linked pages? to fetch/.exec((await estimate.innerText()).replaceAll(',', ''))?.[1]);
  expect(planned).toBeGreaterThan(3);

  await keep.getByRole('button', { name: 'Keep linked pages', exact: true }).click();
  const ended = keep.getByRole('status').filter({ hasText: /^Kept \d+ linked pages?/ });
  await expect(ended).toBeVisible({ timeout: 60_000 });
  const text = await ended.innerText();
  const captured = Number(/^Kept (\d+)/.exec(text)?.[1]);
  expect(captured).toBeGreaterThan(0);
  // what was not kept is said in words, never as a code
  if (captured < planned) expect(text).toMatch(/Not kept: \d+ (gone|refused|timed out|failed)/);
  expect(text).not.toMatch(/timed-out|too-large|wrong-type/);

  // where the web archive is: a WACZ in the demo project's pages folder, there on disk
  const where = keep.getByText(/^Saved as a web archive \(WACZ\) that ReplayWeb\.page opens: /);
  await expect(where).toBeVisible();
  const path = (await where.innerText()).replace(/^.*opens: /, '').trim();
  expect(path.startsWith(join(skein.userDataDir, 'projects', 'Demo.skein-pages'))).toBe(true);
  expect(path).toMatch(/\.wacz$/);
  expect(existsSync(path)).toBe(true);
  // its web archive timestamped by the demo's stand-in authority (the sandbox, on this computer), as media's runs are
  await expect(
    keep.getByText(
      /^Timestamped by 127\.0\.0\.1:\d+ at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC: a token over this web archive/,
    ),
  ).toBeVisible();
  await shootLooks(page, testInfo, 'keep-pages-done', { show: keep });
  // ReplayWeb.page itself opens it and replays a kept page, offline
  const bundle = replayWebPage();
  if (bundle === null && process.env.CI) throw new Error("npm could not fetch ReplayWeb.page's bundle");
  if (bundle === null)
    testInfo.annotations.push({ type: 'not checked', description: 'ReplayWeb.page: npm could not fetch its bundle' });
  else {
    const kept = waczPages(path).find((p) => p.title !== undefined);
    expect(kept, 'a kept page with a title').toBeDefined();
    await expectReplayed(page.context().browser()!, bundle, path, { url: kept!.url, title: kept!.title! });
  }
  const fetched = (await api.webRequests()).filter((r) => r.agent === 'Skein').map((r) => r.url);
  expect(fetched.length).toBeGreaterThanOrEqual(planned);
  await expectAccessible(page, testInfo, 'keep-pages');

  // again: nothing fetched
  await api.clearWebRequests();
  await keep.getByRole('button', { name: 'Keep linked pages again' }).click();
  await expect(keep.getByRole('status').filter({ hasText: /^Kept 0 linked pages/ })).toContainText(
    `${captured} were already kept`,
  );
  const again = (await api.webRequests()).filter((r) => r.agent === 'Skein').map((r) => r.url);
  // a run that wrote no web archive has nothing to timestamp, and says nothing about it
  await expect(keep.getByText(/^Timestamped by/)).toHaveCount(0);
  // only what failed is asked again
  expect(again.length).toBeLessThanOrEqual(planned - captured);
  for (const url of again) expect(fetched).toContain(url);

  // the evidence package holds the web archives of the pages kept, and says why each other page is not there
  const dir = await mkdtemp(join(tmpdir(), 'skein-e2e-evidence-pages-'));
  try {
    const media = page.getByRole('region', { name: 'Keep media' });
    await media.getByRole('button', { name: 'Keep media…' }).click();
    await skein.setSavePath(join(dir, 'pages.evidence.zip'));
    await media.getByRole('button', { name: 'Make an evidence package…' }).click();
    const made = media.getByRole('region', { name: 'Evidence package' }).getByRole('status');
    await expect(made).toContainText(`${captured} of the `, { timeout: 60_000 });
    const out = join(dir, 'unpacked');
    execFileSync('python3', [
      '-c',
      'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])',
      join(dir, 'pages.evidence.zip'),
      out,
    ]);
    expect(execFileSync('sha256sum', ['-c', '--quiet', 'SHA256SUMS'], { cwd: out, encoding: 'utf8' })).toBe('');
    const manifest = JSON.parse(await readFile(join(out, 'manifest.json'), 'utf8')) as {
      linked_pages: Array<{ wacz: string | null; failure: string | null }>;
    };
    expect(manifest.linked_pages.filter((p) => p.wacz !== null)).toHaveLength(captured);
    for (const p of manifest.linked_pages.filter((x) => x.wacz === null)) expect(p.failure).toBeTruthy();
    expect(existsSync(join(out, manifest.linked_pages.find((p) => p.wacz)?.wacz ?? 'none'))).toBe(true);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('send the linked pages to a web archive: turned on in Settings, paced, each with its capture or a reason', async ({
  skein,
}, testInfo) => {
  hostOnly(testInfo);
  test.setTimeout(240_000);
  const { page } = skein;
  const ex = await demoExamples(page);
  const collection = await profileCollection(page, ex.profile.id);
  const api = await sandbox(skein);
  await api.clearSaveRequests();

  // off until turned on; what is sent is said beside it
  await openRoute(page, '#/settings');
  const service = page.getByRole('region', { name: 'Web archive save service' });
  await expect(service).toContainText('Only the page’s address is sent');
  const on = service.getByRole('checkbox', { name: 'Send linked pages to a web archive’s save service' });
  await expect(on).not.toBeChecked();
  // the box shows what main kept, once it answers
  await on.click();
  await expect(on).toBeChecked();
  await expect(service).toContainText('In demo mode the sandbox’s stand-in save service');
  await expect(service.getByLabel('Save service address')).toHaveValue('https://web.archive.org/save/');
  const pace = service.getByLabel('Seconds between requests');
  await expect(pace).toHaveValue('10');
  // a page cannot make Skein ask faster than once a second
  await pace.fill('0.1');
  await service.getByRole('button', { name: 'Save' }).nth(1).click();
  await expect(service.getByRole('alert')).toHaveText(/^Seconds between two requests: at least 1/);
  await pace.fill('1');
  await service.getByRole('button', { name: 'Save' }).nth(1).click();
  await expect(service.getByRole('alert')).toHaveCount(0);
  await expect(pace).toHaveValue('1');

  await openRoute(page, `#/archive?collection=${collection.id}`);
  const keep = page.getByRole('region', { name: 'Keep linked pages' });
  await keep.getByRole('button', { name: 'Keep linked pages…' }).click();
  const estimate = keep.getByRole('status').filter({ hasText: /linked pages? to fetch/ });
  await expect(estimate).toBeVisible();
  const planned = Number(/^(\d+) linked pages? to fetch/.exec((await estimate.innerText()).replaceAll(',', ''))?.[1]);
  await expect(estimate).toContainText(
    `${planned.toLocaleString('en')} linked pages to send to the web archive’s save service, one every 1 s`,
  );
  await keep.getByRole('button', { name: 'Keep linked pages', exact: true }).click();
  const saved = keep.getByRole('status').filter({ hasText: /^Saved at the web archive: \d+ linked pages?/ });
  await expect(saved).toBeVisible({ timeout: 180_000 });
  const savedCount = Number(/^Saved at the web archive: (\d+)/.exec(await saved.innerText())?.[1]);
  expect(savedCount).toBeGreaterThan(0);
  if (savedCount < planned) await expect(saved).toContainText(/Not saved: \d+ failed/);

  // each page: its capture at the web archive (a link the browser opens) or the reason in words
  await keep.getByText(/^Each linked page \(\d+\)$/).click();
  const items = keep.getByRole('list', { name: 'Linked pages' }).getByRole('listitem');
  await expect(items).toHaveCount(planned);
  await expect(keep.getByRole('link', { name: /^The web archive’s capture of https:\/\// })).toHaveCount(savedCount);
  await expect(
    items.filter({ hasText: /Not saved at the web archive: failed \(the save service answered 520: / }),
  ).toHaveCount(planned - savedCount);
  await expectAccessible(page, testInfo, 'keep-pages-save-service');

  // sent once each, at most one a second (the stand-in's log, on its own clock)
  const log = await api.saveRequests();
  expect(log).toHaveLength(planned);
  expect(new Set(log.map((r) => r.url)).size).toBe(planned);
  for (let i = 1; i < log.length; i++) expect((log[i]?.at ?? 0) - (log[i - 1]?.at ?? 0)).toBeGreaterThanOrEqual(900);
});
