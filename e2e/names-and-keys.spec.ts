/**
 * Names where people expect words (a list's name, a post's author and first words, never a bare id in a
 * heading or an export title; the whole id one Copy click away) and the keys of what is in front (Esc
 * closes the panel or question in front before it ever means Back; Back returns focus to what was opened).
 */
import { expect, test } from './fixtures';
import { attachScreenshot, currentHash, demoExamples, expectAccessible, hostOnly, openRoute } from './support/explorer';

const short = (id: string) => `${id.slice(0, 4)}…${id.slice(-4)}`;

test('a list opened from its card is headed by its name; Copy id puts the whole id on the clipboard', async ({
  skein,
}, testInfo) => {
  const { page } = skein;
  const ex = await demoExamples(page);
  expect(ex.listName).toBeTruthy();
  const name = ex.listName ?? '';
  await page
    .getByRole('region', { name: 'Or explore the demo world' })
    .getByRole('link', { name: new RegExp(`A list: ${name}`) })
    .click();
  await expect(page).toHaveURL(new RegExp(`#/list/${ex.listId}$`));
  await expect(page.getByRole('heading', { name, level: 1, exact: true })).toBeVisible();
  await expect(page.getByRole('heading', { level: 1 })).not.toContainText(ex.listId);
  const posts = page.getByRole('region', { name: `Posts of list “${name}”, newest first` });
  await expect(posts.locator('article[data-post-id]').first()).toBeVisible();

  // the export is titled by the name too
  await page.getByRole('button', { name: 'Export…', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: /^Export/ });
  await expect(dialog).toHaveAccessibleName(`Export “Posts of list “${name}””`);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(new RegExp(`#/list/${ex.listId}$`)); // Esc closed the dialog, it did not go back

  const copy = page.getByRole('button', { name: 'Copy list id' });
  if (testInfo.project.name !== 'electron') {
    await page
      .context()
      .grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(page.url()).origin });
  }
  await copy.click();
  await expect(page.getByRole('status').filter({ hasText: 'Copied' })).toBeVisible();
  if (testInfo.project.name !== 'electron') {
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(ex.listId);
  }
  await attachScreenshot(page, testInfo, 'list-named');
  await expectAccessible(page, testInfo, 'list-named');

  // the Go box names the list it has seen, instead of its number
  const go = page.getByRole('combobox', { name: 'Go to' });
  await go.fill(`list ${ex.listId}`);
  await expect(page.getByRole('option', { name: `List “${name}”` })).toBeVisible();
  await go.press('Escape');
});

test('a list opened by its id alone says "List" and a short id, and keeps the whole id one click away', async ({
  skein,
}, testInfo) => {
  hostOnly(testInfo);
  const { page } = skein;
  const ex = await demoExamples(page);
  await openRoute(page, `#/list/${ex.listId}`);
  await expect(page.getByRole('heading', { name: `List ${short(ex.listId)}`, level: 1 })).toBeVisible();
  await expect(page.getByText('The API does not give a list’s name.')).toBeVisible();
  // when the clipboard refuses, the id is shown to select by hand
  await page.evaluate(() => {
    Object.defineProperty(navigator, 'clipboard', {
      value: { writeText: () => Promise.reject(new Error('denied')) },
      configurable: true,
    });
  });
  await page.getByRole('button', { name: 'Copy list id' }).click();
  const notice = page.getByRole('status').filter({ hasText: `Could not copy; the id is ${ex.listId}` });
  await expect(notice).toBeVisible();
  // the notice is in front: Esc dismisses it, and only then means Back
  await page.keyboard.press('Escape');
  await expect(notice).toBeHidden();
  await expect(page).toHaveURL(new RegExp(`#/list/${ex.listId}$`));
  await page.keyboard.press('Escape');
  await expect.poll(() => currentHash(page)).toBe('');
});

test('a post’s export and the Go box name it by author and first words once it is known', async ({ skein }) => {
  const { page } = skein;
  const ex = await demoExamples(page);
  const go = page.getByRole('combobox', { name: 'Go to' });
  // not shown yet: the Go box can only say its number
  await go.fill(ex.mediaPostId);
  await expect(page.getByRole('option', { name: `Post ${ex.mediaPostId}` })).toBeVisible();
  await go.press('Enter');
  const focal = page.locator(`article.post--focal[data-post-id="${ex.mediaPostId}"]`);
  await expect(focal).toBeVisible();

  await page.getByRole('tab', { name: /^Quotes/ }).click();
  await page.getByRole('button', { name: 'Export…', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: /^Export/ });
  await expect(dialog).toHaveAccessibleName(/^Export “Quotes of @\w+: “.+”/);
  await expect(dialog).not.toHaveAccessibleName(new RegExp(ex.mediaPostId));
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  await go.fill(ex.mediaPostId);
  await expect(page.getByRole('option', { name: /^Post by @\w+: “.+”$/ })).toBeVisible();
  await go.press('Escape');
});

test('Esc closes the question in front before it means Back; focus returns to the button that asked', async ({
  skein,
}) => {
  const { page } = skein;
  await openRoute(page, '#/usage');
  await expect(page.getByRole('heading', { name: 'Usage', level: 1 })).toBeVisible();
  const reset = page.getByRole('button', { name: 'Reset counters' });
  await expect(reset).toBeEnabled();
  await reset.click();
  const question = page.getByRole('group', { name: 'Reset the usage counters?' });
  await expect(question).toBeVisible();
  await expect(question.getByRole('button', { name: 'Keep' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(question).toBeHidden();
  await expect(page).toHaveURL(/#\/usage$/);
  await expect(reset).toBeFocused();
  // nothing in front any more: now Esc means Back
  await page.keyboard.press('Escape');
  await expect.poll(() => currentHash(page)).toBe('');
});

test('Back returns focus to the card that was opened, as it does to a post', async ({ skein }) => {
  const { page } = skein;
  await demoExamples(page);
  const card = page
    .getByRole('region', { name: 'Or explore the demo world' })
    .getByRole('link', { name: /^A community/ });
  await card.focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/#\/community\/\d+$/);
  await expect(page.getByRole('heading', { level: 1 })).not.toHaveText('Home');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('heading', { name: 'Home', level: 1 })).toBeVisible();
  await expect(card).toBeFocused();
});
