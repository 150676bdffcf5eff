/**
 * Posts: the card (entities, counters, media and lightbox, quoted posts,
 * reply context), the post view's tabs (threaded replies, direct replies,
 * quotes), and list states (paging-guard stops, duplicates removed).
 */
import { expect, test } from './fixtures';
import {
  apiCall,
  attachScreenshot,
  demoExamples,
  expectAccessible,
  findPost,
  hostOnly,
  openRoute,
  openThread,
  postTimesInOrder,
  type PostLike,
  sandbox,
  clickWhenStill,
} from './support/explorer';

test('the post card: author, time, text entities, counters and links out', async ({ skein }, testInfo) => {
  hostOnly(testInfo);
  const { page } = skein;
  const ex = await demoExamples(page);
  const [media] = (await apiCall(page, 'postsByIds', { tweet_ids: ex.mediaPostId })).items as Array<
    PostLike & { url: string; author: { name: string; userName: string; isBlueVerified: boolean } }
  >;
  await openRoute(page, `#/post/${ex.mediaPostId}`);
  const card = page.locator(`article.post--focal[data-post-id="${ex.mediaPostId}"]`);
  await expect(card.getByRole('link', { name: media!.author.name, exact: true })).toHaveAttribute(
    'href',
    /^#\/user\/\d+\/posts$/,
  );
  if (media!.author.isBlueVerified) await expect(card.getByRole('img', { name: 'Verified' })).toBeVisible();
  await expect(card.getByText(`@${media!.author.userName}`)).toBeVisible();
  await expect(card.locator('time')).toHaveAttribute('title', /\d{4}/);
  const counters = card.getByRole('list', { name: 'Counters' }).getByRole('listitem');
  await expect(counters).toHaveCount(6);
  await expect(counters).toHaveText([/replies|reply/, /reposts?/, /likes?/, /quotes?/, /bookmarks?/, /views?/]);
  await card.getByRole('link', { name: 'Open on the web' }).click();
  // the bridge call answers after the click: wait for it, never read at once
  // host only: the app process opens links itself
  const host = skein.host;
  if (host) await expect.poll(() => host.openedExternally()).toContain(media!.url);

  // entities in the thread: a link shows its expanded form and opens in the browser, a mention opens the profile
  const replies = await openThread(page, ex.bigThreadPostId);
  const link = replies.locator('a.entity--url').first();
  const href = await link.getAttribute('href');
  expect(href).toMatch(/^https?:\/\//);
  // the thread's list re-measures its cards as they come: click each once it holds still
  await clickWhenStill(link);
  if (host) await expect.poll(() => host.openedExternally()).toContain(href);
  const tag = replies.locator('a.entity--hashtag').first();
  await clickWhenStill(tag);
  if (host) await expect.poll(() => host.openedExternally().some((u) => /\/search\?q=%23/.test(u))).toBe(true);
  await expect(replies.getByText(/^Replying to/).first()).toBeVisible();
  await clickWhenStill(replies.locator('.post__reply-context a').first());
  await expect(page).toHaveURL(/#\/user\/\d+\/posts$/);
  await expect(page.getByRole('tab', { name: 'Posts' })).toBeVisible();
  await attachScreenshot(page, testInfo, 'profile-from-mention');
});

test('a counter the API did not give reads unknown, never 0', async ({ skein }, testInfo) => {
  hostOnly(testInfo);
  const { page } = skein;
  const ex = await demoExamples(page);
  // the live service's post shape: viewCount missing or [0] on some posts
  await (await sandbox(skein)).fault('live-objects', ['postQuotes']);
  await openRoute(page, `#/post/${ex.muchQuotedPostId}/quotes`);
  const quotes = page.getByRole('region', { name: 'Quotes' });
  await expect(quotes.locator('article').first()).toBeVisible();
  const unknown = quotes.locator('.counters__unknown').first();
  await expect(unknown).toHaveText('unknown views');
  await expect(unknown).toHaveAttribute('title', 'unknown views');
});

test('media: a grid of images opens a lightbox with keyboard, alt text and original size', async ({
  skein,
}, testInfo) => {
  const { page } = skein;
  const ex = await demoExamples(page);
  const post = await findPost(
    page,
    'postQuotes',
    { tweetId: ex.muchQuotedPostId },
    (p) => (p.entities?.media?.length ?? 0) >= 2,
  );
  await openRoute(page, `#/post/${post.id}`);
  const card = page.locator(`article.post--focal[data-post-id="${post.id}"]`);
  const first = card.locator(':scope > .media-grid').getByRole('button', { name: /^Open image 1 of \d+/ });
  await expect(first).toBeVisible();
  await first.click();
  const dialog = page.getByRole('dialog', { name: /^Image 1 of \d+$/ });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText(/^Alt text:|No alt text was provided/)).toBeVisible();
  await expectAccessible(page, testInfo, 'lightbox');
  await attachScreenshot(page, testInfo, 'lightbox');
  await page.keyboard.press('ArrowRight');
  // the second may be a video or a GIF: the demo's posts mix them, as the platform's do
  await expect(page.getByRole('dialog', { name: /^(Image|Video|GIF) 2 of \d+$/ })).toBeVisible();
  await page.keyboard.press('ArrowLeft');
  await expect(dialog).toBeVisible();
  const original = page.getByRole('button', { name: 'Original size' });
  await original.click();
  await expect(original).toHaveAttribute('aria-pressed', 'true');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page).toHaveURL(new RegExp(`#/post/${post.id}$`)); // Esc closed the lightbox, it did not go back
});

test('quoted posts nest once; a quote of a quote collapses to a link; the Quotes tab does not repeat the viewed post', async ({
  skein,
}, testInfo) => {
  const { page } = skein;
  const ex = await demoExamples(page);
  await openRoute(page, `#/post/${ex.muchQuotedPostId}/quotes`);
  const quotes = page.getByRole('region', { name: 'Quotes' });
  await expect(page.getByRole('tab', { name: /^Quotes \d/ })).toHaveAttribute('aria-selected', 'true');
  // each quote refers to the viewed post in one line instead of repeating it, image and all
  const first = quotes.locator('article.post--feed').first();
  await expect(first.getByText(/^Quoting the post above: @\w+ · /)).toBeVisible();
  await expect(quotes.locator('article.post--quoted')).toHaveCount(0);
  await expectAccessible(page, testInfo, 'quotes');
  await attachScreenshot(page, testInfo, 'quotes');

  // a quote of a quote (a few in the sandbox's 2,000 quotes): the quoted post is nested, what it quotes becomes a link
  const quoter = await findPost(
    page,
    'postQuotes',
    { tweetId: ex.muchQuotedPostId },
    (p) => (p.quoteCount ?? 0) > 0,
    60,
  );
  const quoteOfQuote = await findPost(page, 'postQuotes', { tweetId: quoter.id }, () => true, 5);
  await openRoute(page, `#/post/${quoteOfQuote.id}`);
  const deeper = page.locator('article.post--focal article.post--quoted').first();
  await expect(deeper).toHaveAttribute('data-post-id', quoter.id);
  const link = deeper.getByRole('link', { name: /^Quoted post by @/ });
  await expect(link).toBeVisible();
  await link.click();
  await expect(page).toHaveURL(new RegExp(`#/post/${ex.muchQuotedPostId}/replies$`));
});

test('replies: a threaded tree with collapse/expand, a flat mode, three orders; direct replies', async ({
  skein,
}, testInfo) => {
  hostOnly(testInfo);
  const { page } = skein;
  const ex = await demoExamples(page);
  const control = await sandbox(skein);
  await openRoute(page, `#/post/${ex.bigThreadPostId}`);
  const replies = page.getByRole('region', { name: 'Replies' });
  await expect(replies.locator('.vlist__row').first().getByText('Original post')).toBeVisible();
  await expect(page.getByRole('tab', { name: /^Replies \d/ })).toHaveAttribute('aria-selected', 'true');
  await expect(replies.locator('.thread-row[data-depth="1"]').first()).toBeVisible();
  await expectAccessible(page, testInfo, 'thread');
  await attachScreenshot(page, testInfo, 'thread');

  // collapse one branch, then everything, and back
  const toggle = replies.getByRole('button', { name: /^Collapse \d+ repl(y|ies) under @/ }).first();
  const name = (await toggle.getAttribute('aria-label'))!;
  const count = /Collapse (\d+ repl(?:y|ies))/.exec(name)![1]!;
  await toggle.click();
  const expand = replies.getByRole('button', { name: name.replace('Collapse', 'Expand') });
  await expect(expand).toHaveAttribute('aria-expanded', 'false');
  await expect(replies.getByText(`${count} hidden`).first()).toBeVisible();
  await expand.click();
  await expect(replies.getByRole('button', { name })).toHaveAttribute('aria-expanded', 'true');
  await page.getByRole('button', { name: 'Collapse all' }).click();
  await expect(replies.locator('.thread-row[data-depth="1"]')).toHaveCount(0);
  await page.getByRole('button', { name: 'Expand all' }).click();
  await expect(replies.locator('.thread-row[data-depth="1"]').first()).toBeVisible();

  // flat, in the order the API ranks them: loading more only adds below, never reshuffles what was read
  await page.getByRole('radio', { name: 'Flat, as the service ranks them' }).check();
  await expect(page).toHaveURL(/view=flat/);
  await expect(replies.locator('.thread-row')).toHaveCount(0);
  const ids = () =>
    replies.locator('article.post[data-post-id]').evaluateAll((els) => els.map((e) => e.getAttribute('data-post-id')));
  await expect.poll(async () => (await ids()).length).toBeGreaterThanOrEqual(5);
  const before = (await ids()).slice(0, 5);
  const lastIndex = async () => {
    await page.locator('main').evaluate((m) => m.scrollTo(0, m.scrollHeight));
    return Number(await replies.locator('.vlist__row').last().getAttribute('data-index'));
  };
  await expect.poll(lastIndex).toBeGreaterThan(25);
  await page.locator('main').evaluate((m) => m.scrollTo(0, 0));
  await expect.poll(async () => (await ids()).slice(0, 5)).toEqual(before);

  // order: asks the API with the chosen queryType
  await control.clearRequests();
  await page.getByRole('combobox', { name: 'Order' }).selectOption('Latest');
  await expect(page).toHaveURL(/order=Latest/);
  await expect(replies.locator('article').first()).toBeVisible();
  await expect
    .poll(async () =>
      (await control.requests()).some((r) => r.url.includes('/tweet/replies/v2') && r.url.includes('queryType=Latest')),
    )
    .toBe(true);

  // direct replies (v1)
  await page.getByRole('tab', { name: 'Direct replies' }).click();
  await expect(page).toHaveURL(/\/direct/);
  await expect(page.getByRole('region', { name: 'Direct replies' }).locator('article').first()).toBeVisible();
  await expect.poll(async () => (await control.requests()).some((r) => /\/tweet\/replies\?/.test(r.url))).toBe(true);
});

test('flat replies in Latest order: newest first exactly, kept as pages arrive; oldest first once every reply is loaded', async ({
  skein,
}, testInfo) => {
  hostOnly(testInfo);
  // three pages and two readings on a 14,000 px window, each poll allowed 30 s: more than the default test budget
  test.setTimeout(120_000);
  const { page } = skein;
  const ex = await demoExamples(page);
  // a window tall enough for three pages of replies, every row on screen at once (nothing scrolls, so nothing
  // loads while the rows are read)
  const viewport = page.viewportSize();
  await page.setViewportSize({ width: 1280, height: 14_000 });
  await openRoute(page, `#/post/${ex.bigThreadPostId}/replies?order=Latest&view=flat`);
  const replies = page.getByRole('region', { name: 'Replies' });
  await expect(page.getByRole('radio', { name: 'Flat, newest first' })).toBeChecked();
  // oldest first cannot be true before the last page (the listing pages back in time): it says so
  const oldest = page.getByRole('radio', { name: /^Flat, oldest first/ });
  await expect(oldest).toBeDisabled();
  await expect(oldest).toHaveAccessibleName('Flat, oldest first (needs every reply loaded)');

  // two more pages: the depth-first listing brings replies newer than some already shown; they take their place
  const rendered = () =>
    replies.locator('.vlist__row').evaluateAll((rows) =>
      rows
        .map(
          (r) =>
            [
              Number(r.getAttribute('data-index')),
              r.querySelector('article[data-post-id] time')?.getAttribute('datetime'),
            ] as const,
        )
        .sort((a, b) => a[0] - b[0])
        .map(([, time]) => Date.parse(time ?? '')),
    );
  const more = replies.getByRole('button', { name: 'Load more replies' });
  for (const rows of [40, 60]) {
    await more.click();
    await expect.poll(async () => (await rendered()).length, { timeout: 30_000 }).toBeGreaterThanOrEqual(rows);
  }
  // read until two readings agree: a page still on its way is sorted in by then
  let times: number[] = [];
  await expect
    .poll(
      async () => {
        const now = await rendered();
        const same = now.join() === times.join();
        times = now;
        return same;
      },
      { intervals: [500], timeout: 30_000 },
    )
    .toBe(true);
  if (viewport) await page.setViewportSize(viewport);
  // the post itself first, then every reply newer than the one below it
  const [post, ...rest] = times;
  const inversions = rest.filter((t, i) => i > 0 && t > rest[i - 1]!).length;
  expect(inversions).toBe(0);
  expect(
    rest.filter((t) => t < post!).map((t) => new Date(t).toISOString()),
    `posted ${new Date(post!).toISOString()}`,
  ).toEqual([]);

  // a short conversation, every reply in one page: oldest first is offered, and is exactly that
  const branch = await findPost(
    page,
    'postRepliesV2',
    { tweetId: ex.wideThreadPostId, queryType: 'Latest' },
    (p) => (p.replyCount ?? 0) >= 2 && p.id !== ex.wideThreadPostId,
  );
  await openRoute(page, `#/post/${branch.id}/replies?order=Latest&view=flat`);
  const short = page.getByRole('region', { name: 'Replies' });
  await expect(short.locator('article').nth(2)).toBeVisible();
  await expect(oldest).toBeEnabled();
  await oldest.check();
  await expect(page).toHaveURL(/sort=oldest/);
  const ascending = (await postTimesInOrder(short, 3)).slice(1);
  expect([...ascending].sort((a, b) => a - b)).toEqual(ascending);
  await attachScreenshot(page, testInfo, 'flat-oldest-first');
});

test('list states: a paging-guard stop, duplicates removed and a failed next page are shown in the list', async ({
  skein,
}, testInfo) => {
  hostOnly(testInfo);
  const { page } = skein;
  const ex = await demoExamples(page);
  const control = await sandbox(skein);

  // the API says there is more but sends no cursor: the list stops and says why
  await control.fault('no-cursor', ['postQuotes']);
  await openRoute(page, `#/post/${ex.muchQuotedPostId}/quotes`);
  const quotes = page.getByRole('region', { name: 'Quotes' });
  await expect(quotes.getByText(/^Stopped after 20 quotes: /)).toBeVisible();
  await control.clearFaults();

  // overlapping pages: repeats are dropped and counted
  await control.fault('duplicates', ['postReplies']);
  await openRoute(page, `#/post/${ex.bigThreadPostId}/direct`);
  const direct = page.getByRole('region', { name: 'Direct replies' });
  await expect(direct.locator('article').first()).toBeVisible();
  await page.getByRole('main').evaluate((m) => (m.scrollTop = m.scrollHeight));
  await expect(direct.getByText(/\d+ duplicates? removed/)).toBeVisible();
  await control.clearFaults();

  // a failed next page is shown in the list, with Retry, and the list goes on
  await openRoute(page, `#/user/${ex.profile.id}/mentions`);
  const quotes2 = page.getByRole('region', { name: `Posts mentioning @${ex.profile.userName}` });
  await quotes2.scrollIntoViewIfNeeded();
  await expect(quotes2.locator('article').first()).toBeVisible();
  await control.fault('503', ['userMentions'], 4);
  await page.getByRole('main').evaluate((m) => (m.scrollTop = m.scrollHeight));
  const failed = quotes2.getByRole('alert');
  await expect(failed.getByText(/^The service had a problem — more mentions$/)).toBeVisible({ timeout: 20_000 });
  const before = await quotes2.locator('article.post--feed').count();
  await failed.getByRole('button', { name: 'Retry' }).click();
  await expect(quotes2.getByRole('alert')).toHaveCount(0);
  await page.getByRole('main').evaluate((m) => (m.scrollTop = m.scrollHeight));
  await expect.poll(() => quotes2.locator('article.post--feed').count()).toBeGreaterThanOrEqual(before);
  await expect(page.getByRole('contentinfo').getByText(/Calls this session: \d+/)).toBeVisible();
});

test('errors say what happened and what to do', async ({ skein }, testInfo) => {
  hostOnly(testInfo);
  const { page } = skein;
  const ex = await demoExamples(page);
  const control = await sandbox(skein);
  const ids = [ex.mediaPostId, ex.muchQuotedPostId, ex.bigThreadPostId];
  const cases: Array<[fault: string, title: string, action: RegExp, count: number]> = [
    ['401', 'An API key is needed', /Set a valid API key in Settings/, 1],
    ['402', 'Out of API credits', /Recharge your API credits/, 1],
    ['status-error', 'The service reported an error', /Check the id or query and retry/, 1],
  ];
  for (const [i, [fault, title, action, count]] of cases.entries()) {
    await control.fault(fault, ['postsByIds'], count);
    await openRoute(page, `#/post/${ids[i]}`);
    const alert = page.getByRole('alert');
    await expect(alert.getByText(new RegExp(`^${title} — the post$`))).toBeVisible();
    await expect(alert.getByText(action)).toBeVisible();
  }
  await attachScreenshot(page, testInfo, 'error-api');
  await page.getByRole('alert').getByRole('button', { name: 'Retry' }).click();
  await expect(page.locator(`article.post--focal[data-post-id="${ex.bigThreadPostId}"]`)).toBeVisible();

  // a key problem offers Settings
  await control.fault('401', ['usersByIds'], 1);
  await openRoute(page, `#/user/${ex.profile.id}`);
  await page.getByRole('alert').getByRole('button', { name: 'Open Settings' }).click();
  await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();

  // rate limited after retries: until when
  await control.fault('429;retry-after=1', ['userSearch'], 4);
  await openRoute(page, '#/search?q=anne');
  await expect(page.getByRole('alert').getByText(/^Rate limited — people$/)).toBeVisible({ timeout: 20_000 });
  await expect(page.getByRole('alert').getByText(/^Wait until \d\d:\d\d:\d\d/)).toBeVisible();
  await expectAccessible(page, testInfo, 'error-rate-limited');

  // an id the API does not know: one message, no tabs, one call
  await control.clearRequests();
  await openRoute(page, '#/post/1');
  await expect(page.getByText('This post was not found')).toBeVisible();
  await expect(page.getByRole('tablist', { name: 'Post sections' })).toHaveCount(0);
  await expect(page.getByRole('alert')).toHaveCount(0);
  expect((await control.requests()).map((r) => r.operation)).toEqual(['postsByIds']);
});
