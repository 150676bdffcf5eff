/**
 * The demo sandbox answering as the live service's recordings show (its recorded quirks): what a
 * person sees is the whole long post, a retweet's original, the bio, the member list, the right error.
 */
import type { Locator, Page } from '@playwright/test';
import { LONG_TEXT_END } from '../src/shared/api/fixtures/recorded';
import { expect, test } from './fixtures';
import { attachScreenshot, demoExamples, openRoute, sandbox } from './support/explorer';

async function scrollTo(page: Page, locator: Locator): Promise<void> {
  await expect
    .poll(
      async () => {
        if ((await locator.count()) > 0) return true;
        await page.locator('.view-scroll').evaluate((el) => el.scrollBy(0, 1500));
        return false;
      },
      { intervals: [100], timeout: 30_000 },
    )
    .toBe(true);
  await locator.first().scrollIntoViewIfNeeded();
}

test('recorded posts and users through the sandbox: long texts whole, retweets as their original, bios', async ({
  skein,
}, testInfo) => {
  test.setTimeout(90_000);
  const { page } = skein;
  const ex = await demoExamples(page);
  const box = await sandbox(skein);
  await box.fault('recorded-posts', ['postQuotes']);
  await box.fault('recorded-users', ['userSearch']);

  await openRoute(page, `#/post/${ex.muchQuotedPostId}/quotes`);
  const main = page.getByRole('main');
  const repost = main.getByRole('article', { name: /, reposted by @/ }).first();
  await scrollTo(page, repost);
  await expect(repost.locator('.post__reposted')).toHaveText(/^Reposted by @\w+ · /);
  await expect(repost.locator('.post__text').first()).toContainText(LONG_TEXT_END);
  await expect(repost.locator('.post__text').first()).not.toContainText(/^RT @/);
  await expect(main.locator('.state--error')).toHaveCount(0);
  await attachScreenshot(page, testInfo, 'sandbox-recorded-retweet');

  await openRoute(page, '#/search?q=a');
  const first = main.locator('.user-card').first();
  // the first user's description is "" and its bio only in profile_bio: the card still shows it
  await expect(first.locator('.user-card__bio')).not.toBeEmpty();
  await expect(main.locator('.entry--fields')).toHaveCount(0);
  await attachScreenshot(page, testInfo, 'sandbox-recorded-users');
});

test('community, members, space and trends as the live service shapes them, through the sandbox', async ({
  skein,
}, testInfo) => {
  test.setTimeout(90_000);
  const { page } = skein;
  const ex = await demoExamples(page);
  const box = await sandbox(skein);
  await box.fault('community-live', ['communityInfo']);
  await box.fault('members-live', ['communityMembers']);
  await box.fault('space-documented', ['spaceDetail']);
  await box.fault('trends-unwrapped', ['trends']);
  const main = page.getByRole('main');

  await openRoute(page, `#/community/${ex.communityId}`);
  await expect(main.getByRole('list', { name: 'Facts' })).toContainText('Join policy: Open');
  await page.getByRole('tab', { name: 'Members' }).click();
  await expect(main.locator('.user-card').first()).toBeVisible();
  await page.getByRole('tab', { name: 'Moderators' }).click();
  await expect(main.getByText('Community moderators are not available yet')).toBeVisible();
  await attachScreenshot(page, testInfo, 'sandbox-community-live');

  await openRoute(page, `#/space/${ex.runningSpaceId}`);
  await expect(main.getByText('Live', { exact: true })).toBeVisible();
  await expect(main.getByRole('heading', { name: /^Listeners/ })).toBeVisible();
  await expect(main.locator('.state--error')).toHaveCount(0);

  await openRoute(page, '#/trends');
  await expect(main.getByRole('link', { name: /^Search “.+” in the browser$/ }).first()).toHaveAttribute(
    'href',
    /^https:\/\/x\.com\/search\?q=/,
  );
  await expect(main.getByText('No usable link')).toHaveCount(0);
  await attachScreenshot(page, testInfo, 'sandbox-trends-unwrapped');

  await box.clearFaults();
  await box.fault('not-started-404', ['spaceDetail']);
  await openRoute(page, `#/space/${ex.scheduledSpaceId}`);
  await expect(main.locator('.state--error')).toContainText('not found or not started yet');
});

test('a lookup whose call fails lists its ids as not asked, never as not found', async ({ skein }, testInfo) => {
  const { page } = skein;
  const ex = await demoExamples(page);
  await (await sandbox(skein)).fault('402', ['usersByIds']);
  await openRoute(page, `#/lookup/users?ids=${ex.profile.id}`);
  const main = page.getByRole('main');
  await expect(main.getByRole('status').filter({ hasText: /^Found 0 of 1 users/ })).toHaveText(
    /0 not found\. 1 not asked: the call failed\./,
  );
  await expect(main.locator('.lookup-missing--failed').getByRole('heading')).toHaveText(
    /^Not asked: the call failed \(Your API credits are used up \(HTTP 402\)/,
  );
  await expect(main.getByText('None of these ids were found')).toHaveCount(0);
  await expect(main.getByText(/of these ids were not asked because the call failed/)).toBeVisible();
  await attachScreenshot(page, testInfo, 'sandbox-lookup-402');
});
