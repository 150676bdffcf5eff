/**
 * Communities, lists, trends and articles in demo mode: a community (its 501 tabs free and asked
 * once), a list's posts and followers, trends for three places, and an
 * article that is announced but not available.
 */
import type { SkeinApp } from './fixtures';
import { expect, hostOf, test } from './fixtures';
import { attachScreenshot, demoExamples, expectAccessible, openRoute, postTimesInOrder } from './support/explorer';

interface LedgerEntry {
  operation: string;
  status: number;
  credits: number;
}
interface Ledger {
  calls: LedgerEntry[];
  totals: {
    calls: number;
    credits: number;
    byOperation: Record<string, { calls: number; credits: number } | undefined>;
  };
}

async function ledger(app: SkeinApp): Promise<Ledger> {
  const base = await hostOf(app).sandboxUrl();
  if (!base) throw new Error('no demo sandbox');
  return (await (await fetch(`${base}/__sandbox/usage`)).json()) as Ledger;
}

test('a community: header, rules, and Members/Moderators explained as not available, asked once and free', async ({
  skein,
}, testInfo) => {
  test.setTimeout(120_000);
  const { page } = skein;
  const ex = await demoExamples(page);
  await openRoute(page, `#/community/${ex.communityId}`);
  const header = page.getByRole('region', { name: 'Community' });
  await expect(header.getByRole('heading', { level: 1 })).not.toBeEmpty();
  await expect(header.getByText(/members$/)).toBeVisible();
  await expect(header.getByText(/^Your role:/)).toBeVisible();
  await expect(header.getByText(/^(Can|Cannot) join/)).toBeVisible();
  await expect(page.getByRole('list', { name: 'Rules' }).getByRole('listitem').first()).toBeVisible();
  await attachScreenshot(page, testInfo, 'community');
  await expectAccessible(page, testInfo, 'community');

  await page.getByRole('tab', { name: 'Members' }).click();
  await expect(page.getByText('Community members are not available yet')).toBeVisible();
  await expect(page.getByText(/never\s+charged/)).toBeVisible();
  await attachScreenshot(page, testInfo, 'community-members-501');
  await expectAccessible(page, testInfo, 'community-members');
  await page.getByRole('tab', { name: 'Moderators' }).click();
  await expect(page.getByText('Community moderators are not available yet')).toBeVisible();
  // back and forth between the tabs, and away and back: no second ask
  await page.getByRole('tab', { name: 'Members' }).click();
  await expect(page.getByText('Community members are not available yet')).toBeVisible();
  await page.getByRole('tab', { name: 'Moderators' }).click();
  await expect(page.getByText('Community moderators are not available yet')).toBeVisible();

  const l = await ledger(skein);
  const members = l.calls.filter((c) => c.operation === 'communityMembers');
  const moderators = l.calls.filter((c) => c.operation === 'communityModerators');
  expect(members.map((c) => [c.status, c.credits])).toEqual([[501, 0]]);
  expect(moderators.map((c) => [c.status, c.credits])).toEqual([[501, 0]]);
  expect(l.calls.filter((c) => c.operation === 'communityInfo')).toHaveLength(1);
});

test('a list: posts newest first, then followers as user cards', async ({ skein }, testInfo) => {
  test.setTimeout(120_000);
  const { page } = skein;
  const ex = await demoExamples(page);
  await openRoute(page, `#/list/${ex.listId}`);
  await expect(
    page.getByRole('heading', { name: `List ${ex.listId.slice(0, 4)}…${ex.listId.slice(-4)}`, level: 1 }),
  ).toBeVisible();
  const posts = page.locator('article[data-post-id]');
  await expect(posts.first()).toBeVisible();
  const times = await postTimesInOrder(page.getByRole('main'), 3);
  expect([...times].sort((a, b) => b - a)).toEqual(times);
  await attachScreenshot(page, testInfo, 'list-posts');
  await expectAccessible(page, testInfo, 'list-posts');

  // loading more than ten pages at once says what it costs first; Cancel spends nothing
  const callsBefore = (await ledger(skein)).totals.byOperation.listTimeline?.calls;
  // the cost of any number of pages is on screen before a page is asked for
  await expect(page.getByText('up to 5 calls, about 750 credits')).toBeVisible();
  await page.getByLabel('Load', { exact: true }).selectOption('25');
  await expect(page.getByText('up to 25 calls, about 3,750 credits')).toBeVisible();
  await page.getByRole('button', { name: 'Load', exact: true }).click();
  const confirm = page.getByRole('dialog', { name: 'Load 25 more pages of posts?' });
  await expect(confirm).toContainText('25');
  await expect(confirm).toContainText('3,750 credits');
  await attachScreenshot(page, testInfo, 'list-cost-confirm');
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toBeHidden();
  expect((await ledger(skein)).totals.byOperation.listTimeline?.calls).toBe(callsBefore);

  await page.getByRole('tab', { name: 'Followers' }).click();
  await expect(page.locator('.user-card, .entry').first()).toBeVisible();
  await attachScreenshot(page, testInfo, 'list-followers');
  await expectAccessible(page, testInfo, 'list-followers');
  const l = await ledger(skein);
  expect(l.totals.byOperation.listTimeline?.calls).toBeGreaterThanOrEqual(1);
  expect(l.totals.byOperation.listFollowers?.calls).toBeGreaterThanOrEqual(1);
});

test('trends for three places, with decoded queries, opening searches in the system browser', async ({
  skein,
}, testInfo) => {
  test.setTimeout(120_000);
  const { page } = skein;
  await openRoute(page, '#/trends');
  await expect(page.getByRole('heading', { name: 'Trends · Worldwide', level: 1 })).toBeVisible();
  const ranked = (place: string) => page.getByRole('list', { name: `Trends for ${place}, ranked` });
  await expect(ranked('Worldwide').getByRole('listitem')).toHaveCount(30);
  await attachScreenshot(page, testInfo, 'trends-worldwide');
  await expectAccessible(page, testInfo, 'trends');

  await page.getByLabel('Place').selectOption({ label: 'London' });
  await page.getByRole('button', { name: 'Show trends' }).click();
  await expect(page.getByRole('heading', { name: 'Trends · London', level: 1 })).toBeVisible();
  await expect(ranked('London').getByRole('listitem').first()).toBeVisible();

  await page.getByLabel('or WOEID / name').fill('2459115');
  await page.getByLabel('Count').fill('10');
  await page.getByRole('button', { name: 'Show trends' }).click();
  await expect(page.getByRole('heading', { name: 'Trends · New York', level: 1 })).toBeVisible();
  await expect(ranked('New York').getByRole('listitem')).toHaveCount(10);
  await attachScreenshot(page, testInfo, 'trends-new-york');

  // a query reads decoded: no percent escapes left for people to decipher
  const queries = await ranked('New York').locator('.trend__query code').allTextContents();
  expect(queries.some((q) => /%[0-9A-F]{2}/i.test(q))).toBe(false);
  const first = ranked('New York').getByRole('listitem').first();
  await first.getByRole('link', { name: /in the browser$/ }).click();
  const host = hostOf(skein);
  await expect.poll(() => host.openedExternally().length).toBe(1);
  expect(host.openedExternally()[0]).toMatch(/^https:\/\//);

  // back to London: answered from cache, no new call
  const before = (await ledger(skein)).totals.byOperation.trends?.calls;
  await page.goBack();
  await expect(page.getByRole('heading', { name: 'Trends · London', level: 1 })).toBeVisible();
  await expect(page.getByText('served from cache')).toBeVisible();
  expect((await ledger(skein)).totals.byOperation.trends?.calls).toBe(before);
  expect(before).toBe(3);

  await page.getByLabel('or WOEID / name').fill('Atlantis');
  await page.getByRole('button', { name: 'Show trends' }).click();
  await expect(page.getByRole('alert')).toContainText('not a place Skein knows by name');
});

test('Open article on a post: announced but not available, asked once, never charged', async ({ skein }, testInfo) => {
  test.setTimeout(90_000);
  const { page } = skein;
  const ex = await demoExamples(page);
  // offered only where the post carries an article
  await openRoute(page, `#/post/${ex.bigThreadPostId}`);
  await expect(page.locator('article.post--focal')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Open article' })).toHaveCount(0);
  await openRoute(page, `#/post/${ex.mediaPostId}`);
  const open = page.getByRole('button', { name: 'Open article' });
  await open.click();
  const panel = page.getByRole('region', { name: 'Article' });
  await expect(panel.getByText('Long-form articles are not available yet')).toBeVisible();
  await expect(panel).toContainText('never charged');
  await attachScreenshot(page, testInfo, 'article-501');
  await expectAccessible(page, testInfo, 'article');
  // Esc closes the panel in front first; it does not mean Back while something is open
  const url = page.url();
  await page.locator('article.post--focal').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('Escape');
  await expect(panel).toBeHidden();
  expect(page.url()).toBe(url);
  await open.click();
  await page.getByRole('button', { name: 'Hide article' }).click();
  await open.click();
  await expect(panel.getByText('Long-form articles are not available yet')).toBeVisible();
  // away and back: the answer is remembered for the session
  await openRoute(page, '#/');
  await expect(page.getByRole('heading', { name: 'Home', level: 1 })).toBeVisible();
  await page.goBack();
  await open.click();
  await expect(panel.getByText('Long-form articles are not available yet')).toBeVisible();
  const calls = (await ledger(skein)).calls.filter((c) => c.operation === 'article');
  expect(calls.map((c) => [c.status, c.credits])).toEqual([[501, 0]]);
});
