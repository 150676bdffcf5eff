/**
 * Bodies shaped exactly like the recordings of the live service (api-field-notes.md, "Confirmed on
 * real recorded bodies"), replayed to Skein through `apiBaseUrl`: every view renders without an error
 * state and without losing text, media or bios; a malformed item is skipped and the rest shown.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page, TestInfo } from '@playwright/test';
import { LONG_TEXT_END, recordedCommunityInfo, recordedLongPost } from '../src/shared/api/fixtures/recorded';
import { expect, test, type SkeinApp } from './fixtures';
import { openRoute } from './support/explorer';
import {
  LIST_ID,
  NOT_STARTED_SPACE_ID,
  REFUSED_USER_ID,
  SPACE_ID,
  startRecordedServer,
} from './support/recorded-server';

let server: Awaited<ReturnType<typeof startRecordedServer>>;
test.beforeAll(async () => {
  server = await startRecordedServer();
});
test.afterAll(() => server.close());

const SHOTS = join(import.meta.dirname, '..', '.tmp', 'shots');

/** a screenshot attached to the report and kept under .tmp/shots (light, and dark at 900x600 when asked) */
async function shot(page: Page, testInfo: TestInfo, name: string, dark = false): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  const body = await page.screenshot({ path: join(SHOTS, `${name}.png`) });
  await testInfo.attach(`${name}.png`, { body, contentType: 'image/png' });
  if (!dark) return;
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.setViewportSize({ width: 900, height: 600 });
  await page.screenshot({ path: join(SHOTS, `${name}-dark-900.png`) });
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1280, height: 800 });
}

/** scroll the view down until `locator` is rendered (lists are virtual: rows far below are not in the page) */
async function scrollTo(page: Page, locator: Locator): Promise<void> {
  // a virtualized row can be let go between finding it and scrolling to it: try again until it holds
  await expect(async () => {
    if ((await locator.count()) === 0) {
      await page.locator('.view-scroll').evaluate((el) => el.scrollBy(0, 500));
      throw new Error('not rendered yet');
    }
    await locator.first().scrollIntoViewIfNeeded({ timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
}

async function noErrorState(page: Page): Promise<void> {
  await expect(page.locator('.state--error')).toHaveCount(0);
}

async function open(launch: (o: { apiBaseUrl: string; apiKey: string }) => Promise<SkeinApp>): Promise<Page> {
  const app = await launch({ apiBaseUrl: server.baseUrl, apiKey: 'recorded-key' });
  await app.page.setViewportSize({ width: 1280, height: 800 });
  return app.page;
}

test('posts: long texts whole, the reply hides only its mentions, a retweet shows its original, a bad item is skipped', async ({
  launch,
}, testInfo) => {
  test.setTimeout(90_000);
  const page = await open(launch);
  await openRoute(page, `#/post/${recordedLongPost.id}`);
  const main = page.getByRole('main');
  // the focal post and the same post in its thread: the whole 2,656 characters
  await expect(main.locator('.post--focal .post__text')).toContainText(LONG_TEXT_END);
  const replies = page.getByRole('region', { name: 'Replies' });
  const reply = replies.getByRole('article', { name: /@replier/ });
  // the thread is virtualized under a focal post taller than the window: its rows exist once it is on screen
  await scrollTo(page, reply);
  await expect(reply).toContainText(LONG_TEXT_END);
  await expect(reply.locator('.post__reply-context')).toHaveText(/Replying to @orig, @booster/);
  await expect(reply.locator('.post__text')).not.toContainText('@orig @booster');
  await expect(replies.getByText('1 unreadable item skipped', { exact: false })).toBeVisible();
  await noErrorState(page);
  await shot(page, testInfo, 'recorded-long-post', true);

  await openRoute(page, `#/post/${recordedLongPost.id}/quotes`);
  const rt = main.getByRole('article', { name: 'Post by Orig Example @orig, reposted by @booster' });
  await scrollTo(page, rt);
  await expect(rt.locator('.post__reposted')).toHaveText(/^Reposted by @booster · /);
  await expect(rt.locator('.post__text')).toContainText(LONG_TEXT_END);
  await expect(rt.locator('.post__text')).not.toContainText('RT @orig');
  await expect(rt.locator('img[src="https://pbs.example/media/photo1.jpg"]')).toHaveCount(1);
  await expect(rt.locator('img[src="https://pbs.example/media/photo2.jpg"]')).toHaveCount(1);
  await expect(rt.getByText(/video/i).first()).toBeVisible();
  await expect(rt.getByText('4.3K', { exact: false })).toBeVisible();
  await shot(page, testInfo, 'recorded-retweet', true);
  // a quoted long post is whole too: in the Quotes tab it is the post above, referred to in one line
  // (a card must stay one card high), so it is read on the quote's own page
  const quote = main.getByRole('article', { name: 'Post by Booster Example @booster' });
  await page.locator('.view-scroll').evaluate((el) => el.scrollTo(0, 0));
  await scrollTo(page, quote);
  await expect(quote.locator('.post__quote-link--viewed')).toContainText('Quoting the post above: @orig');
  const quoteId = await quote.first().getAttribute('data-post-id');
  await openRoute(page, `#/post/${quoteId}`);
  await expect(main.locator('.post--focal .post--quoted .post__text')).toContainText(LONG_TEXT_END);
  await noErrorState(page);
});

test('users: bios from profile_bio in the header and cards, followers with profile_bio {} as people, a failed lookup call is not "not found"', async ({
  launch,
}, testInfo) => {
  test.setTimeout(90_000);
  const page = await open(launch);
  const main = page.getByRole('main');
  await openRoute(page, '#/user/1111111111111111111');
  await expect(main.locator('.profile__bio')).toHaveText('Researcher @orig: notes on networks');
  await expect(main.getByRole('article', { name: /reposted by @booster/ })).toContainText(LONG_TEXT_END);
  await noErrorState(page);
  await shot(page, testInfo, 'recorded-profile');

  await openRoute(page, '#/search?q=orig');
  const card = main.locator('.user-card', { hasText: '@orig' });
  await expect(card.locator('.user-card__bio')).toHaveText('Researcher @orig: notes on networks');
  await noErrorState(page);

  await openRoute(page, `#/list/${LIST_ID}`);
  await page.getByRole('tab', { name: 'Followers' }).click();
  await expect(main.locator('.user-card', { hasText: '@quietfollower' })).toBeVisible();
  await expect(main.locator('.user-card', { hasText: '@loudfollower' }).locator('.user-card__bio')).toHaveText(
    'Researcher @loudfollower: notes on networks',
  );
  await expect(main.locator('.entry--fields')).toHaveCount(1); // the one entry that is not a user
  await noErrorState(page);
  await shot(page, testInfo, 'recorded-list-followers', true);

  // 101 ids: the first call (100) answers, the second (1) is refused with the recorded 401 body
  const ids = [
    '1111111111111111111',
    ...Array.from({ length: 99 }, (_, k) => String(7_000_000_000_000_000_123n + BigInt(k))),
    REFUSED_USER_ID,
  ];
  await openRoute(page, `#/lookup/users?ids=${ids.join(',')}`);
  // two calls at live mode's pace (one every 5 s), on a loaded machine
  await expect(main.getByRole('status').filter({ hasText: /^Found 1 of 101 users/ })).toHaveText(
    /99 not found\. 1 not asked: the call failed\./,
    { timeout: 30_000 },
  );
  const failed = main.locator('.lookup-missing--failed');
  await expect(failed.getByRole('heading')).toHaveText(
    /Not asked: the call failed \(The API key was refused \(HTTP 401\): “API key is invalid”\) \(1\)/,
  );
  await expect(failed.getByRole('textbox')).toHaveValue(REFUSED_USER_ID);
  await expect(failed.getByRole('button', { name: 'Retry this id' })).toBeVisible();
  await expect(main.getByText('None of these ids were found')).toHaveCount(0);
  await shot(page, testInfo, 'recorded-lookup-failed', true);
});

test('community, members, space and trends in their live shapes', async ({ launch }, testInfo) => {
  test.setTimeout(90_000);
  const page = await open(launch);
  const main = page.getByRole('main');
  await openRoute(page, `#/community/${recordedCommunityInfo.id}`);
  await expect(main.getByRole('heading', { level: 1 })).toHaveText('Archive Researchers');
  await expect(main).toContainText('4,321');
  await expect(main.getByRole('list', { name: 'Rules' })).toHaveText(/Cite your sources.*Be kind/);
  await expect(main.getByRole('list', { name: 'Facts' })).toContainText('Join policy: Open');
  await noErrorState(page);
  await shot(page, testInfo, 'recorded-community');
  await page.getByRole('tab', { name: 'Members' }).click();
  await expect(main.locator('.user-card', { hasText: '@orig' }).locator('.user-card__bio')).toHaveText(
    'Researcher @orig: notes on networks',
  );
  await scrollTo(page, main.locator('.user-card', { hasText: '@replier' }));
  await shot(page, testInfo, 'recorded-community-members', true);
  await page.getByRole('tab', { name: 'Moderators' }).click();
  await expect(main.getByText('Community moderators are not available yet')).toBeVisible();

  await openRoute(page, `#/space/${SPACE_ID}`);
  await expect(main.getByRole('heading', { level: 1 })).toHaveText('Reading the record, live');
  await expect(main.getByText('Live', { exact: true })).toBeVisible();
  await expect(main.getByRole('heading', { name: /^Listeners/ })).toBeVisible();
  await noErrorState(page);
  await shot(page, testInfo, 'recorded-space', true);
  await openRoute(page, `#/space/${NOT_STARTED_SPACE_ID}`);
  await expect(main.locator('.state--error')).toContainText('not found or not started yet');

  await openRoute(page, '#/trends');
  const trends = main.getByRole('list', { name: /Trends for/ });
  await expect(trends.getByRole('link', { name: 'Search “#OpenData” in the browser' })).toHaveAttribute(
    'href',
    'https://x.com/search?q=%23OpenData',
  );
  await expect(main.getByText('No usable link')).toHaveCount(0);
  // the answer's own time and place (its metadata), in UTC as the service keeps it
  await expect(main.getByLabel('Trends as of')).toHaveText(
    'Trending worldwide as of 31 Jul 2025, 22:13 UTC · renewed every 5 minutes',
  );
  await noErrorState(page);
  await shot(page, testInfo, 'recorded-trends', true);
});
