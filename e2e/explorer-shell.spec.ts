/**
 * The explorer's shell: demo Home, sidebar sections, the Go box, history
 * (buttons, Alt+←/→, mouse buttons, Esc/Backspace, menu), deep links, the
 * status bar, and j/k/Enter between posts.
 */
import { expect, test } from './fixtures';
import {
  attachScreenshot,
  currentHash,
  demoExamples,
  expectAccessible,
  hostOnly,
  openRoute,
  openThread,
  sandbox,
} from './support/explorer';

test('demo Home offers guided starting points; the status bar shows mode, calls and credits', async ({
  skein,
}, testInfo) => {
  const { page } = skein;
  await expect(page.getByRole('heading', { name: 'Home', level: 1 })).toBeVisible();
  const start = page.getByRole('region', { name: 'Or explore the demo world' });
  for (const name of [
    /A big thread/,
    /A much-quoted post/,
    /A post with media/,
    /A profile: @/,
    /Mentions of @/,
    /A community/,
    /A list/,
    /A live audio space/,
    /Trends/,
    /Search people/,
  ]) {
    await expect(start.getByRole('link', { name })).toBeVisible();
  }
  const status = page.getByRole('contentinfo');
  await expect(status.getByText('Demo mode')).toBeVisible();
  await expect(status.getByText('Calls this session: 0')).toBeVisible();
  await expectAccessible(page, testInfo, 'home');
  await attachScreenshot(page, testInfo, 'home');

  await start.getByRole('link', { name: /A big thread/ }).click();
  await expect(page.getByRole('heading', { name: 'Post', level: 1 })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Replies' }).getByText('Original post')).toBeVisible();
  await expect(status.getByText(/Calls this session: [1-9]/)).toBeVisible();
  await expect(status.getByText(/Estimated: [1-9][\d,]* credits \((< )?\$[\d,]+\.\d\d\)/)).toBeVisible();
});

test('sidebar sections are addressable routes with a heading each', async ({ skein }, testInfo) => {
  const { page } = skein;
  const nav = page.getByRole('navigation', { name: 'Sections' });
  const sections: Array<[string, RegExp, string]> = [
    ['Search people', /#\/search$/, 'Search people'],
    ['Look up ids', /#\/lookup\/posts$/, 'Look up ids'],
    ['Trends', /#\/trends$/, 'Trends'],
    ['Archive', /#\/archive$/, 'Archive'],
    ['Settings', /#\/settings$/, 'Settings'],
    ['Home', /#\/$/, 'Home'],
  ];
  for (const [link, url, heading] of sections) {
    await nav.getByRole('link', { name: link }).click();
    await expect(page).toHaveURL(url);
    await expect(page.getByRole('heading', { name: heading, level: 1 })).toBeVisible();
    await expect(nav.getByRole('link', { name: link })).toHaveAttribute('aria-current', 'page');
  }
  await openRoute(page, '#/no/such/view');
  await expect(page.getByRole('heading', { name: 'Nothing here', level: 1 })).toBeVisible();
  await expectAccessible(page, testInfo, 'not-found');
});

test('the Go box opens posts, profiles, communities, lists and spaces from what is pasted', async ({ skein }) => {
  const { page } = skein;
  const ex = await demoExamples(page);
  const go = page.getByRole('combobox', { name: 'Go to' });

  await page.keyboard.press('/');
  await expect(go).toBeFocused();
  await go.fill(`https://social.example/someone/status/${ex.mediaPostId}?s=20`);
  await expect(page.getByRole('option', { name: `Post ${ex.mediaPostId}` })).toBeVisible();
  await go.press('Enter');
  await expect(page).toHaveURL(new RegExp(`#/post/${ex.mediaPostId}/replies$`));
  await expect(page.getByRole('heading', { name: 'Post', level: 1 })).toBeVisible();

  await go.fill(`@${ex.profile.userName}`);
  await go.press('Enter');
  await expect(page.getByRole('heading', { level: 1 })).toContainText(/\S/);
  await expect(page.getByText(`@${ex.profile.userName}`, { exact: false }).first()).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`#/user/%40${ex.profile.userName}/posts$`));

  await go.fill(`https://social.example/i/communities/${ex.communityId}`);
  await go.press('Enter');
  await expect(page).toHaveURL(new RegExp(`#/community/${ex.communityId}$`));

  await go.fill(`list ${ex.listId}`);
  await go.press('Enter');
  await expect(page).toHaveURL(new RegExp(`#/list/${ex.listId}$`));

  await go.fill(`https://social.example/i/spaces/${ex.runningSpaceId}`);
  await go.press('Enter');
  await expect(page).toHaveURL(new RegExp(`#/space/${ex.runningSpaceId}$`));

  // a bare number may be many things: the choices are offered, ↓ picks one
  await go.fill(ex.profile.id);
  const options = page.getByRole('listbox', { name: 'Open as' }).getByRole('option');
  await expect(options).toHaveText([
    `Post ${ex.profile.id}`,
    `Profile with id ${ex.profile.id}`,
    `Community ${ex.profile.id}`,
    `List ${ex.profile.id}`,
  ]);
  await go.press('ArrowDown');
  await expect(options.nth(1)).toHaveAttribute('aria-selected', 'true');
  await go.press('Enter');
  await expect(page).toHaveURL(new RegExp(`#/user/${ex.profile.id}/posts$`));

  // the native menu's "Go to…" focuses it too
  await page.getByRole('heading', { level: 1 }).first().click();
  await skein.emit('menu', 'focus-go');
  await expect(go).toBeFocused();
});

test('history: buttons, Alt+arrows, mouse buttons, Esc/Backspace, menu and deep links', async ({ skein }) => {
  const { page } = skein;
  const ex = await demoExamples(page);
  const post = `#/post/${ex.mediaPostId}`;
  const profile = `#/user/${ex.profile.id}`;
  await openRoute(page, post);
  await expect(page.getByRole('heading', { name: 'Post', level: 1 })).toBeVisible();
  await openRoute(page, profile);
  await expect(page.getByRole('tab', { name: 'Posts' })).toBeVisible();

  const back = page.getByRole('button', { name: 'Back' });
  const forward = page.getByRole('button', { name: 'Forward' });
  const at = async (hash: string) => expect.poll(() => currentHash(page)).toBe(hash);

  await back.click();
  await at(post);
  await forward.click();
  await at(profile);
  await page.keyboard.press('Alt+ArrowLeft');
  await at(post);
  await page.keyboard.press('Alt+ArrowRight');
  await at(profile);
  const mouse = (button: number) =>
    page.evaluate((b) => window.dispatchEvent(new MouseEvent('mouseup', { button: b, bubbles: true })), button);
  await mouse(3);
  await at(post);
  await mouse(4);
  await at(profile);
  await page.getByRole('heading', { level: 1 }).first().click();
  await page.keyboard.press('Escape');
  await at(post);
  await page.keyboard.press('Backspace');
  await at('');
  await skein.emit('menu', 'forward');
  await at(post);
  await skein.emit('menu', 'back');
  await at('');

  // a deep link opens the view, tab included
  await page.goto(page.url().replace(/#.*$/, '') + `#/user/${ex.profile.id}/mentions`);
  await expect(page.getByRole('tab', { name: 'Mentions' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('region', { name: `Posts mentioning @${ex.profile.userName}` })).toBeVisible();
});

test('j/k move between posts, Enter opens the focused one', async ({ skein }) => {
  const { page } = skein;
  const ex = await demoExamples(page);
  await openThread(page, ex.bigThreadPostId);
  await page.getByRole('heading', { name: 'Post', level: 1 }).click();

  const focusedId = () => page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.postId ?? null);
  const seen: Array<string | null> = [];
  for (let i = 0; i < 4; i++) {
    await page.keyboard.press('j');
    seen.push(await focusedId());
  }
  // the focal post, the thread's first row (the same post, returned by the API), then two replies
  const [focal, threadStart, a, b] = seen;
  expect([focal, threadStart]).toEqual([ex.bigThreadPostId, ex.bigThreadPostId]);
  expect(a).toBeTruthy();
  expect(b).toBeTruthy();
  expect(new Set([focal, a, b]).size).toBe(3);
  await page.keyboard.press('k');
  expect(await focusedId()).toBe(a);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`#/post/${a}/replies$`));

  // Back returns focus to the reply that was opened
  await expect(page.locator(`article.post--focal[data-post-id="${a}"]`)).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page).toHaveURL(new RegExp(`#/post/${ex.bigThreadPostId}(/replies)?$`));
  await expect.poll(focusedId).toBe(a);
});

test("arrow keys on a post's tabs move focus without loading; Enter opens the tab", async ({ skein }, testInfo) => {
  hostOnly(testInfo);
  const { page } = skein;
  const ex = await demoExamples(page);
  await openThread(page, ex.bigThreadPostId);
  const control = await sandbox(skein);
  await control.clearRequests();
  const replies = page.getByRole('tab', { name: /^Replies/ });
  await replies.focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('tab', { name: /^Quotes/ })).toBeFocused();
  await expect(replies).toHaveAttribute('aria-selected', 'true');
  expect((await control.requests()).map((r) => r.operation)).toEqual([]);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('tab', { name: /^Quotes/ })).toHaveAttribute('aria-selected', 'true');
  await expect(page).toHaveURL(/\/quotes$/);
  await expect.poll(async () => (await control.requests()).map((r) => r.operation)).toContain('postQuotes');
});

test('the Go box reads only the service’s own links: another site’s link opens nothing and spends nothing', async ({
  skein,
}) => {
  const { page } = skein;
  await demoExamples(page);
  const go = page.getByRole('combobox', { name: 'Go to' });
  const calls = page.getByText(/Calls this session:/);
  const before = await calls.textContent();
  await go.fill('https://www.youtube.com/watch?v=dQw4w9WgXcQ');
  await expect(page.getByRole('status').filter({ hasText: "www.youtube.com can't be opened here" })).toBeVisible();
  await expect(page.getByRole('listbox', { name: 'Open as' })).toBeHidden();
  const url = page.url();
  await go.press('Enter');
  expect(page.url()).toBe(url);
  await expect(calls).toHaveText(before ?? '');
  await expect(go).toHaveAttribute('aria-describedby', /refusal/);
});
