/**
 * People: profiles (by id and by @handle), their timeline with both flags
 * sent, mentions, people search with infinite scroll, and batch lookups of
 * posts and users (chunked to 100, found vs not found).
 */
import { expect, hostOf, test } from './fixtures';
import {
  apiCall,
  attachScreenshot,
  demoExamples,
  expectAccessible,
  hostOnly,
  openRoute,
  sandbox,
  scrollToListEnd,
  clickWhenStill,
} from './support/explorer';

test('a profile: header, bio entities, counts, pinned posts, timeline toggles sent explicitly, mentions', async ({
  skein,
}, testInfo) => {
  hostOnly(testInfo);
  const { page } = skein;
  const ex = await demoExamples(page);
  const control = await sandbox(skein);
  const [user] = (await apiCall(page, 'usersByIds', { userIds: ex.profile.id })).items as Array<{
    name: string;
    pinnedTweetIds: string[];
  }>;
  await control.clearRequests();
  await openRoute(page, `#/user/${ex.profile.id}`);

  const header = page.getByRole('region', { name: 'Profile' });
  await expect(header.getByRole('heading', { level: 1, name: user!.name })).toBeVisible();
  await expect(header.getByText(`@${ex.profile.userName}`, { exact: false }).first()).toBeVisible();
  await expect(header.getByRole('img', { name: user!.name })).toBeVisible();
  await expect(header.getByText(/^(Can be messaged|Does not accept messages)$/)).toBeVisible();
  await expect(header.getByText(/^Joined [A-Z][a-z]+ \d{4}$/)).toBeVisible();
  const counts = header.getByRole('list', { name: 'Counts' }).getByRole('listitem');
  await expect(counts).toHaveText([/followers$/, /following$/, /posts$/]);
  // bio entities: a mention opens the profile, a link opens the browser
  const bio = header.locator('.profile__bio');
  await expect(bio.locator('a.entity--mention').first()).toHaveAttribute('href', /^#\/user\/\d+\/posts$/);
  const bioLink = bio.locator('a.entity--url').first();
  await bioLink.click();
  const bioHref = await bioLink.getAttribute('href');
  const host = hostOf(skein);
  await expect.poll(() => host.openedExternally()).toContain(bioHref);
  if (user!.pinnedTweetIds.length) {
    await expect(
      page.getByRole('region', { name: 'Pinned posts' }).locator(`article[data-post-id="${user!.pinnedTweetIds[0]}"]`),
    ).toBeVisible();
  }

  // the timeline: both flags are always sent, and the toggles change them
  const posts = page.getByRole('region', { name: `Posts by @${ex.profile.userName}` });
  await posts.scrollIntoViewIfNeeded(); // virtualized: rows exist once the list is on screen
  await expect(posts.locator('article').first()).toBeVisible();
  const timelineUrls = async () =>
    (await control.requests()).filter((r) => r.url.includes('/user/tweet_timeline')).map((r) => r.url);
  await expect.poll(async () => (await timelineUrls()).length).toBeGreaterThan(0);
  for (const url of await timelineUrls()) {
    expect(url).toContain('includeReplies=false');
    expect(url).toContain('includeParentTweet=false');
  }
  await expectAccessible(page, testInfo, 'profile');
  await attachScreenshot(page, testInfo, 'profile');
  await page.getByRole('checkbox', { name: 'Include replies' }).check();
  await expect(page).toHaveURL(/replies=1/);
  await expect
    .poll(async () =>
      (await timelineUrls()).some((u) => u.includes('includeReplies=true') && u.includes('includeParentTweet=false')),
    )
    .toBe(true);
  await page.getByRole('checkbox', { name: 'Include the post each reply answers' }).check();
  await expect
    .poll(async () =>
      (await timelineUrls()).some((u) => u.includes('includeReplies=true') && u.includes('includeParentTweet=true')),
    )
    .toBe(true);

  // mentions
  await page.getByRole('tab', { name: 'Mentions' }).click();
  const mentions = page.getByRole('region', { name: `Posts mentioning @${ex.profile.userName}` });
  await mentions.scrollIntoViewIfNeeded();
  await expect(mentions.locator('article').first()).toBeVisible();
  await expect(mentions.locator('article').first()).toContainText(`@${ex.profile.userName}`);
  await attachScreenshot(page, testInfo, 'mentions');
});

test('an @handle resolves through people search, exact match first', async ({ skein }, testInfo) => {
  hostOnly(testInfo);
  const { page } = skein;
  const ex = await demoExamples(page);
  const control = await sandbox(skein);
  await control.clearRequests();
  const go = page.getByRole('combobox', { name: 'Go to' });
  await go.fill(`@${ex.profile.userName.toLowerCase()}`);
  await go.press('Enter');
  await expect(
    page.getByRole('region', { name: 'Profile' }).getByText(`@${ex.profile.userName}`, { exact: false }).first(),
  ).toBeVisible();
  const ops = (await control.requests()).map((r) => r.operation);
  expect(ops[0]).toBe('userSearch');
  expect(ops).not.toContain('usersByIds');

  // a handle nobody has exactly: the nearest people are offered
  await go.fill('@Anne');
  await go.press('Enter');
  await expect(page.getByText('No account is called exactly @Anne')).toBeVisible();
  await expect(page.locator('article.user-card').first()).toBeVisible();
});

test('people search: ranked people with bio and counts, scrolled to the end', async ({ skein }, testInfo) => {
  const { page } = skein;
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Search people' }).click();
  await page.getByRole('searchbox', { name: 'Search people' }).fill('anne');
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page).toHaveURL(/#\/search\?q=anne$/);
  const results = page.getByRole('region', { name: 'People matching “anne”' });
  const first = results.locator('article.user-card').first();
  await expect(first).toBeVisible();
  await expect(first.locator('.user-card__rank')).toHaveText('1');
  await expect(first.getByRole('list', { name: 'Counts' }).getByRole('listitem')).toHaveText([
    /followers$/,
    /following$/,
    /posts$/,
  ]);
  await expectAccessible(page, testInfo, 'people-search');
  await attachScreenshot(page, testInfo, 'people-search');
  await scrollToListEnd(page);
  await expect(results.getByText(/^End of people · \d+ people$/)).toBeVisible();
  // back to the top: the first card was let go while the list scrolled; click its rank, which holds no link
  // (a click on a bio would open the bio's link, whatever the card generated there says)
  await page.getByRole('main').evaluate((m) => (m.scrollTop = 0));
  const rank = results.locator('article.user-card').first().locator('.user-card__rank').filter({ hasText: /^1$/ });
  await clickWhenStill(rank);
  await expect(page).toHaveURL(/#\/user\/\d+\/posts$/);

  await page.goto(page.url().replace(/#.*$/, '') + '#/search?q=zzzz');
  await expect(page.getByText('Nobody matches “zzzz”.')).toBeVisible();
});

test('look up posts by ids: pasted ids and links, batched by 100, found vs not found', async ({ skein }, testInfo) => {
  hostOnly(testInfo);
  const { page } = skein;
  const ex = await demoExamples(page);
  const control = await sandbox(skein);
  // 150 real ids from the big thread
  const ids: string[] = [];
  let cursor: string | null = null;
  while (ids.length < 150) {
    const d = await apiCall(page, 'postRepliesV2', { tweetId: ex.bigThreadPostId, ...(cursor ? { cursor } : {}) });
    ids.push(...(d.items as Array<{ id: string }>).map((p) => p.id).filter((id) => !ids.includes(id)));
    cursor = d.paging?.nextCursor ?? null;
  }
  const wanted = ids.slice(0, 150);
  const missing = ['1', '22'];
  const text = [
    ...wanted.slice(0, 149),
    `https://social.example/x/status/${wanted[149]}`,
    ...missing,
    'not-an-id',
    wanted[0],
  ].join(',\n');
  await control.clearRequests();

  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Look up ids' }).click();
  await page.getByRole('textbox', { name: 'Post ids or post URLs' }).fill(text);
  await expect(
    page.getByText(/152 ids read \(2 calls of up to 100\), 1 repeated, 1 not readable: not-an-id/),
  ).toBeVisible();
  await page.getByRole('button', { name: 'Look up' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: 'Found 150 of 152 posts (2 calls). 2 not found.' }),
  ).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Ids not found' })).toHaveValue(missing.join('\n'));
  await expect(
    page.getByRole('region', { name: 'Found posts' }).locator(`article[data-post-id="${wanted[0]}"]`),
  ).toBeVisible();
  const batches = (await control.requests()).filter((r) => r.operation === 'postsByIds');
  expect(batches).toHaveLength(2);
  await expectAccessible(page, testInfo, 'lookup-posts');
  await attachScreenshot(page, testInfo, 'lookup-posts');
});

test('look up users by ids: found vs not found', async ({ skein }, testInfo) => {
  const { page } = skein;
  const ex = await demoExamples(page);
  const people = (await apiCall(page, 'userSearch', { query: 'anne' })).items as Array<{
    id: string;
    userName: string;
  }>;
  const ids = [
    ex.profile.id,
    ...people
      .slice(0, 4)
      .map((u) => u.id)
      .filter((id) => id !== ex.profile.id),
    '999',
  ];
  await openRoute(page, '#/lookup/users');
  await expect(page.getByRole('tab', { name: 'Users' })).toHaveAttribute('aria-selected', 'true');
  // dropped as a text file
  const box = page.getByRole('textbox', { name: 'User ids, @handles or profile URLs' });
  const dataTransfer = await page.evaluateHandle((text) => {
    const dt = new DataTransfer();
    dt.items.add(new File([text], 'ids.txt', { type: 'text/plain' }));
    return dt;
  }, ids.join('\n'));
  await box.dispatchEvent('drop', { dataTransfer });
  await expect(box).toHaveValue(ids.join('\n'));
  await page.getByRole('button', { name: 'Look up' }).click();
  const found = ids.length - 1;
  await expect(
    page.getByRole('status').filter({ hasText: `Found ${found} of ${ids.length} users (1 call). 1 not found.` }),
  ).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Ids not found' })).toHaveValue('999');
  await expect(
    page.getByRole('region', { name: 'Found users' }).locator(`article[data-user-id="${ex.profile.id}"]`),
  ).toBeVisible();
  await expectAccessible(page, testInfo, 'lookup-users');
  await attachScreenshot(page, testInfo, 'lookup-users');
});

test('look up users by @handle and profile URL (cost shown first); spreadsheet-damaged ids are refused before any call', async ({
  skein,
}, testInfo) => {
  const { page } = skein;
  const ex = await demoExamples(page);
  await openRoute(page, '#/lookup/users');
  const box = page.getByRole('textbox', { name: 'User ids, @handles or profile URLs' });
  const calls = page.getByText(/Calls this session:/);
  const before = await calls.textContent();
  await box.fill(
    `@${ex.profile.userName}\nhttps://social.example/nobody_has_this\n1.23457E+18\n1850000000000000000\n="${ex.profile.id}"`,
  );
  await expect(
    page
      .getByRole('note')
      .filter({ hasText: /Resolving 2 handles costs 2 people searches, about [\d,]+ credits, before the lookup/ }),
  ).toBeVisible();
  const refused = page.getByRole('alert').filter({ hasText: '2 ids were damaged by a spreadsheet' });
  await expect(refused).toContainText('1.23457E+18 — scientific notation');
  await expect(refused).toContainText('1850000000000000000 — rounded by a spreadsheet (15 digits, then zeros)');
  // nothing spent yet
  await expect(calls).toHaveText(before ?? '');
  await attachScreenshot(page, testInfo, 'lookup-handles');

  await page.getByRole('button', { name: 'Resolve handles and look up' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Found 1 of 1 users (1 call)' })).toBeVisible();
  await expect(page.getByRole('alert').filter({ hasText: 'Not resolved' })).toContainText('@nobody_has_this');
  // what was typed, refused input included, stays in the box
  await expect(box).toHaveValue(/1\.23457E\+18/);
  await expect(
    page.getByRole('region', { name: 'Found users' }).locator(`article[data-user-id="${ex.profile.id}"]`),
  ).toBeVisible();
});

test('"Mentions of @…" from Home lands on the mentions, not above them', async ({ skein }) => {
  const { page } = skein;
  await page.getByRole('link', { name: /Mentions of @/ }).click();
  const mentions = page.getByRole('region', { name: /^Posts mentioning @/ });
  const first = mentions.locator('article[data-post-id]').first();
  await expect(first).toBeVisible();
  // the tabs sit at the top of the view, and the first mention is on screen
  const main = (await page.locator('main').boundingBox())!;
  await expect
    .poll(async () =>
      Math.abs((await page.getByRole('tablist', { name: 'Profile sections' }).boundingBox())!.y - main.y),
    )
    .toBeLessThan(8);
  const box = (await first.boundingBox())!;
  expect(box.y).toBeLessThan(main.y + main.height);
  expect(box.y).toBeGreaterThanOrEqual(main.y);

  // something above grows late (a pinned post's card, its video) where the browser's scroll anchoring does not
  // hold the view: the mentions stay where the reader landed, and the list still draws the ones on screen (it
  // knows where it starts now)
  const id = await first.getAttribute('data-post-id');
  const landedOn = mentions.locator(`article[data-post-id="${id}"]`);
  // (NaN while a re-render has the card out of the page for a moment: the polls below wait for it)
  const top = async () => (await landedOn.boundingBox())?.y ?? Number.NaN;
  const landed = await top();
  const grow = (px: number) =>
    page.locator('main').evaluate((el, height) => {
      el.style.overflowAnchor = 'none';
      const late = document.createElement('div');
      late.style.height = `${height}px`;
      el.querySelector('.view--profile')!.prepend(late);
    }, px);
  await grow(1200);
  await expect.poll(async () => Math.abs((await top()) - landed)).toBeLessThan(2);
  await expect(landedOn).toBeVisible();
  // once the reader scrolls, the view is theirs: nothing pulls it back
  await page.locator('main').hover();
  await page.mouse.wheel(0, 120);
  // (a wheel's scroll may be smooth: read where it comes to rest)
  const settled = async () => {
    const at = await top();
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    return at === (await top()) && at < landed - 60;
  };
  await expect.poll(settled).toBe(true);
  const read = await top();
  await grow(300);
  await expect.poll(top).toBeGreaterThan(read + 250);
  await expect(landedOn).toBeVisible();
});

test('"Mentions of @…" opened again, after the reader went back to the top, lands on the mentions again', async ({
  skein,
}) => {
  const { page } = skein;
  const link = page.getByRole('link', { name: /Mentions of @/ });
  const tabsAtTop = async () => {
    const main = (await page.locator('main').boundingBox())!;
    const tabs = await page.getByRole('tablist', { name: 'Profile sections' }).boundingBox();
    return tabs ? Math.abs(tabs.y - main.y) : Number.NaN;
  };
  await link.click();
  const mentions = page.getByRole('region', { name: /^Posts mentioning @/ });
  await expect(mentions.locator('article[data-post-id]').first()).toBeVisible();
  await expect.poll(tabsAtTop).toBeLessThan(8);
  // the reader scrolls back up to the banner, then leaves: the view is remembered at its top
  await page.locator('main').hover();
  await page.mouse.wheel(0, -5000);
  await expect.poll(() => page.locator('main').evaluate((m) => m.scrollTop)).toBe(0);
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Home' }).click();
  await expect(page.getByRole('heading', { name: 'Home', level: 1 })).toBeVisible();
  // opened again, its mentions already in the app's cache: the view mounts with them, and still lands on them
  await link.click();
  await expect(mentions.locator('article[data-post-id]').first()).toBeVisible();
  await expect.poll(tabsAtTop).toBeLessThan(8);
});
