/**
 * The second round of recorded live shapes (api-field-notes.md, "Round 2", bodies the live service
 * really sent), reproduced by the sandbox's quirks, as a person sees them: a post quoting a post that
 * quotes a deleted post, polls, link previews and broadcasts, automated accounts, posts that start with
 * @mentions without being replies, "" for none, the trends' own time and place, the live 429's words and
 * the ambiguous 403.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page, TestInfo } from '@playwright/test';
import { startSandbox, type Sandbox } from '../src/sandbox';
import { RECORDED_429_BODY } from '../src/shared/api/fixtures/recorded-round2';
import { expect, test } from './fixtures';
import { apiCall, demoExamples, openRoute, sandbox, type PostLike } from './support/explorer';

const SHOTS = join(import.meta.dirname, '..', '.tmp', 'shots');

/** screenshots of `target` in the middle of the view, light and dark (and dark in a small window), kept under .tmp/shots */
async function shots(page: Page, testInfo: TestInfo, name: string, target: Locator): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  const size = page.viewportSize() ?? { width: 1280, height: 800 };
  for (const [scheme, width, height] of [
    ['light', size.width, size.height],
    ['dark', size.width, size.height],
    ['dark', 760, 640],
  ] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.setViewportSize({ width, height });
    await target.evaluate((el) => el.scrollIntoView({ block: 'center' }));
    const file = `${name}-${scheme}${width === size.width ? '' : `-${width}`}.png`;
    const body = await page.screenshot({ path: join(SHOTS, file) });
    await testInfo.attach(file, { body, contentType: 'image/png' });
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize(size);
}

/** scroll the view down until `locator` is rendered (lists are virtual: rows far below are not in the page) */
async function reveal(page: Page, locator: Locator): Promise<void> {
  await expect(async () => {
    if ((await locator.count()) === 0) {
      await page.locator('.view-scroll').evaluate((el) => el.scrollBy(0, 500));
      throw new Error('not rendered yet');
    }
    await locator.first().scrollIntoViewIfNeeded({ timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
}

test('a post that quotes a post quoting a deleted post: both shown, the deleted one unavailable', async ({
  skein,
}, testInfo) => {
  test.setTimeout(60_000);
  const { page } = skein;
  const ex = await demoExamples(page);
  await (await sandbox(skein)).fault('deleted-quotes', ['postsByIds']);
  await openRoute(page, `#/post/${ex.mediaPostId}`);
  const main = page.getByRole('main');
  const focal = main.locator('.post--focal');
  await expect(focal.locator('.post--quoted').first()).toBeVisible();
  await expect(focal.getByText('Quoting a post that is unavailable')).toBeVisible();
  await expect(main.getByText(/unreadable items? skipped/)).toHaveCount(0);
  await expect(main.locator('.state--error')).toHaveCount(0);
  await shots(page, testInfo, 'round2-quote-of-deleted', focal.getByText('Quoting a post that is unavailable'));

  // a post quoting a deleted post directly: the quoted box says so, and links nowhere
  await (await sandbox(skein)).fault('deleted-quotes', ['userTimeline']);
  await openRoute(page, `#/user/${ex.profile.id}/posts`);
  const box = main.getByRole('group', { name: 'Unavailable post' }).first();
  await reveal(page, box);
  await expect(box).toContainText('This post is unavailable.');
  // the id the live service keeps is there to copy, as text
  await expect(box).toContainText(/Its id: \d+\./);
  await expect(box.getByRole('link')).toHaveCount(0);
  await shots(page, testInfo, 'round2-deleted-quote', box);
});

test('polls, link previews and broadcasts on a timeline', async ({ skein }, testInfo) => {
  test.setTimeout(60_000);
  const { page } = skein;
  const ex = await demoExamples(page);
  await (await sandbox(skein)).fault('cards', ['userTimeline']);
  await openRoute(page, `#/user/${ex.profile.id}/posts`);
  const main = page.getByRole('main');
  const poll = main.getByRole('region', { name: 'Poll' }).first();
  await reveal(page, poll);
  await expect(poll.getByRole('listitem', { name: 'Open data by default: 5,678 votes, 82 %' })).toBeVisible();
  await expect(poll).toContainText('6,912 votes');
  await expect(poll).toContainText(/Ended .+ · final/);
  await shots(page, testInfo, 'round2-poll', poll);

  const link = main
    .getByRole('link', { name: 'Link preview: Harbour data released in full (www.example.org)' })
    .first();
  await expect(link).toBeVisible();
  await expect(link).toHaveAttribute('href', 'https://www.example.org/harbour-data');
  // the preview's picture is the sandbox's own, and it loads
  await expect
    .poll(() => link.locator('img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
    .toBe(true);
  await shots(page, testInfo, 'round2-link-card', link);

  const broadcast = main.getByRole('group', { name: 'Live broadcast' }).first();
  await reveal(page, broadcast);
  await expect(
    broadcast.getByRole('link', { name: 'Open the broadcast “Harbour live: the storm comes in”' }),
  ).toBeVisible();
  await expect(main.locator('.state--error')).toHaveCount(0);
});

test('an automated account: the label on its profile and on its posts', async ({ skein }, testInfo) => {
  const { page } = skein;
  const ex = await demoExamples(page);
  await (await sandbox(skein)).fault('automated', ['usersByIds', 'postsByIds', 'userTimeline']);
  await openRoute(page, `#/user/${ex.profile.id}/posts`);
  const main = page.getByRole('main');
  const profile = main.getByRole('region', { name: 'Profile' });
  await expect(profile.getByRole('note', { name: 'Automated account, run by @harbourlab' })).toHaveText(
    /Automated by @harbourlab/,
  );
  // the profile's own posts (its pinned one first): every third author of a page is automated
  const post = main.getByRole('article').first();
  await expect(post.getByRole('note', { name: 'Automated account, run by @harbourlab' })).toBeVisible();
  await shots(page, testInfo, 'round2-automated', profile.getByRole('note'));
});

test('a post that starts with @mentions is not a reply; "" for none reads as unknown', async ({ skein }) => {
  const { page } = skein;
  const ex = await demoExamples(page);
  const box = await sandbox(skein);
  await box.fault('mentions-not-replies', ['userTimeline']);
  // which post of the first page took the shape: the renderer's own bridge call says
  const first = await apiCall(page, 'userTimeline', { userId: ex.profile.id });
  const shaped = (first.items as Array<PostLike & { isReply?: boolean; inReplyToUsername?: string | null }>).find(
    (p) => p.isReply === false && typeof p.inReplyToUsername === 'string' && p.text?.startsWith('@'),
  );
  expect(shaped).toBeDefined();
  await openRoute(page, `#/user/${ex.profile.id}/posts`);
  const main = page.getByRole('main');
  const article = main.locator(`article[data-post-id="${shaped!.id}"]`);
  await reveal(page, article);
  await expect(article.locator('.post__text').first()).toContainText(shaped!.text!.slice(0, 20));
  await expect(article.locator('.post__reply-context')).toHaveCount(0);

  await box.clearFaults();
  await box.fault('empty-nones', ['userMentions']);
  await openRoute(page, `#/user/${ex.profile.id}/mentions`);
  const unnamed = main.getByRole('article', { name: /^Post by \(no name\) @/ }).first();
  await reveal(page, unnamed);
  await expect(unnamed.getByText('unknown time')).toBeVisible();
  await expect(unnamed).not.toContainText('1970');
});

test('trends say their own time and place', async ({ skein }) => {
  const { page } = skein;
  await (await sandbox(skein)).fault('trends-live', ['trends']);
  await openRoute(page, '#/trends');
  await expect(page.getByRole('main').getByLabel('Trends as of')).toHaveText(
    /^Trending worldwide as of \d\d:\d\d UTC · renewed every 5 minutes$/,
  );
});

test('the live 429: the service’s words with the countdown, and what to do on the free tier', async ({
  skein,
}, testInfo) => {
  test.setTimeout(60_000);
  const { page } = skein;
  await (await sandbox(skein)).fault('429-free-tier', ['trends']);
  await openRoute(page, '#/trends');
  const alert = page.getByRole('main').getByRole('alert');
  await expect(alert).toContainText('Rate limited', { timeout: 40_000 });
  await expect(alert).toContainText(RECORDED_429_BODY.message);
  await expect(alert).toContainText(/Wait until \d\d:\d\d:\d\d/);
  await expect(alert).toContainText('Lower the pace in Settings (Requests per second: 0.2 or less');
  await expect(alert.getByRole('button', { name: 'Open Settings' })).toBeVisible();
  await shots(page, testInfo, 'round2-429', alert);
});

test.describe('the live 403 "API key required" to a key that was sent', () => {
  let box: Sandbox;
  test.beforeAll(async () => {
    box = await startSandbox({ size: 'small' });
  });
  test.afterAll(() => box.close());

  const rule = async (body: Record<string, unknown>) => {
    await fetch(`${box.baseUrl}/__sandbox/faults`, { method: 'DELETE' });
    const res = await fetch(`${box.baseUrl}/__sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(201);
  };

  test('once: Skein waits, asks again, and says it was throttling, not the key', async ({ launch }, testInfo) => {
    test.setTimeout(60_000);
    await rule({ fault: '403-key-required', operations: ['trends'], count: 1 });
    const { page } = await launch({ apiBaseUrl: box.baseUrl, apiKey: 'a-key-with-credits' });
    await openRoute(page, '#/trends');
    await expect(page.getByRole('main').getByRole('list', { name: /^Trends for / })).toBeVisible({ timeout: 30_000 });
    const notice = page.getByRole('status', { name: 'Call notice' });
    await expect(notice).toContainText('It was the service throttling, not your key.');
    await shots(page, testInfo, 'round2-403-throttled', notice);
  });

  test('twice: the key, most likely; said so, and the stored key is kept', async ({ launch }, testInfo) => {
    test.setTimeout(60_000);
    await rule({ fault: '403-key-required', operations: ['trends'] });
    const { page } = await launch({ apiBaseUrl: box.baseUrl, apiKey: 'a-key-with-credits' });
    await openRoute(page, '#/trends');
    const alert = page.getByRole('main').getByRole('alert');
    await expect(alert).toContainText('The service refused the API key', { timeout: 30_000 });
    await expect(alert).toContainText('asked again: same answer');
    await expect(alert).toContainText('Your stored key was kept.');
    await shots(page, testInfo, 'round2-403-twice', alert);
    await alert.getByRole('button', { name: 'Open Settings' }).click();
    await expect(page.getByTestId('key-status')).toContainText('Configured');
  });
});
