/**
 * A new person's watch, from Home in demo mode: ten @handles pasted into the form, their resolution's cost seen
 * before it is asked for, a week's run and a budget in dollars, the whole watch's cost with its first read; it
 * runs, its card says how many posts of the ten accounts it holds, and the Archive opens them as a collection;
 * a profile's "Watch…" opens the form on its account. Looked at in light, dark and a narrow window.
 */
import { expect, hostOf, test } from './fixtures';
import { attachScreenshot, demoExamples } from './support/explorer';

test('ten @handles watched from the form, their posts opened in the Archive', async ({ skein }, testInfo) => {
  test.setTimeout(120_000);
  const { page } = skein;
  await page.setViewportSize({ width: 1280, height: 800 });
  // ten accounts of the demo world (its generated list's members), as a person would paste their handles
  const ex = await demoExamples(page);
  const base = await hostOf(skein).sandboxUrl();
  const list = (await (await fetch(`${base}/__sandbox/lists/${ex.listId}`)).json()) as {
    members: Array<{ userName: string }>;
  };
  const handles = list.members.slice(0, 10).map((m) => m.userName);
  expect(handles).toHaveLength(10);
  const pasted = [
    ...handles.slice(0, 8).map((h) => `@${h}`),
    `https://x.com/${handles[8]}`,
    `https://twitter.com/${handles[9]}`,
  ].join(', ');

  await page.getByRole('link', { name: 'Watches' }).click();
  await expect(page.getByRole('heading', { name: 'Watches', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'New watch' }).click();
  const form = page.getByRole('form', { name: 'New watch' });
  await form.getByLabel('Name').fill('Ten demo accounts');
  // a typo first: said in plain words, naming the field, never as a bug
  await form.getByLabel('Targets').fill(`${pasted}, https://x.com/home`);
  await expect(form.getByRole('alert')).toContainText('Targets: “https://x.com/home” is not a user id');
  await expect(page.getByText(/bug in Skein/)).toHaveCount(0);
  await form.getByLabel('Targets').fill(pasted);

  const resolve = form.getByRole('group', { name: 'Handles to resolve' });
  await expect(resolve).toContainText(
    /10 handles to resolve into account ids: 10 people searches, about [\d,]+ credits \(\$[\d.]+\)/,
  );
  await expect(form.getByRole('button', { name: 'Switch it on' })).toBeDisabled();
  await resolve.scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath('watch-resolve-light.png') });
  await page.setViewportSize({ width: 760, height: 800 });
  await page.screenshot({ path: testInfo.outputPath('watch-resolve-760.png') });
  await page.setViewportSize({ width: 1280, height: 800 });
  await form.getByRole('button', { name: 'Estimate the cost' }).click();
  await expect(form.getByTestId('whole-watch')).toContainText(
    /About [\d,]+ credits \(\$[\d.]+\) over 7 days, first read included, and resolving the handles\./,
  );
  await resolve.getByRole('button', { name: 'Resolve 10 handles' }).click();
  await expect(resolve).toHaveCount(0);
  await expect(form.getByText(/10 ready\./)).toBeVisible();
  // resolved: the estimate asked again for the ids, without the searches already made
  await expect(form.getByTestId('whole-watch')).toHaveText(
    /^About [\d,]+ credits \(\$[\d.]+\) over 7 days, first read included\.$/,
  );
  await expect(form.getByLabel('Run until')).toHaveValue(/^\d{4}-\d{2}-\d{2}$/);
  await expect(form.getByText('Its last day (UTC); 7 days from today.')).toBeVisible();
  // the caps the estimate proposes: a run's cap that covers the first read
  const firstRun = Number(
    (
      await form
        .getByRole('row', { name: /cheapest/ })
        .getByRole('cell')
        .first()
        .innerText()
    )
      .split(' ')[0]
      ?.replace(/,/g, ''),
  );
  const perRun = Number(await form.getByLabel('Per run (credits)').inputValue());
  expect(perRun).toBeGreaterThanOrEqual(firstRun);
  // the overshoot the person accepts is said beside the caps: accounts' pages are counted at 20 posts
  await expect(form.getByText(/A page is counted at the most one has held \(20 items, 300 credits\)/)).toBeVisible();
  await form.getByLabel('Budget ($)').fill('2.5');
  await expect(form.getByText('The total cap: 250,000 credits.')).toBeVisible();
  // looked at: the form's top and its estimate, in light, dark and a narrow window
  const estimate = form.getByRole('group', { name: 'How to collect, and what it costs' });
  for (const [name, scheme, width] of [
    ['light', 'light', 1280],
    ['dark', 'dark', 1280],
    ['760', 'light', 760],
  ] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.setViewportSize({ width, height: 800 });
    await form.getByLabel('Targets').scrollIntoViewIfNeeded();
    await page.screenshot({ path: testInfo.outputPath(`watch-form-${name}.png`) });
    await estimate.scrollIntoViewIfNeeded();
    await page.screenshot({ path: testInfo.outputPath(`watch-estimate-${name}.png`) });
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1280, height: 800 });
  await form.getByRole('button', { name: 'Switch it on' }).click();

  // its first run is due at once, and reads every account's starting point within the proposed cap
  const card = page.getByRole('article', { name: 'Ten demo accounts' });
  await expect(card).toBeVisible();
  await expect(card.getByTestId('runs')).toHaveText('1', { timeout: 30_000 });
  await expect(card.getByText('running now')).toHaveCount(0, { timeout: 30_000 });
  await expect(card.getByTestId('last-run')).toContainText(': done,');
  await expect(card).toContainText(`(@${handles[0]}, @${handles[1]}`);
  await expect(card).toContainText('Budget: $2.50 in total');
  const kept = card.getByTestId('kept');
  await expect(kept).toHaveText(/^[\d,]+ posts of 10 accounts kept$/);
  const posts = Number((await kept.innerText()).split(' ')[0]?.replace(/,/g, ''));
  expect(posts).toBeGreaterThan(10);
  for (const [name, scheme, width] of [
    ['light', 'light', 1280],
    ['dark', 'dark', 1280],
    ['760', 'light', 760],
  ] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.setViewportSize({ width, height: 800 });
    await card.scrollIntoViewIfNeeded();
    await page.screenshot({ path: testInfo.outputPath(`watch-card-${name}.png`) });
    await card.getByRole('button', { name: 'Run now' }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: testInfo.outputPath(`watch-card-${name}-end.png`) });
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1280, height: 800 });
  await attachScreenshot(page, testInfo, 'watch-card');

  // the Archive opens on that collection: the watch's posts, offline
  await card.getByRole('button', { name: 'Open them in the Archive' }).click();
  await expect(page.getByRole('heading', { name: 'Archive', level: 1 })).toBeVisible();
  const collection = page.getByLabel('Collection');
  await expect(collection.locator('option:checked')).toHaveText(/^Ten demo accounts · kept by the watch/);
  await expect(page.getByRole('status').filter({ hasText: /posts? found in this project/ })).toHaveText(
    new RegExp(`^${posts > 50 ? '50\\+' : posts} posts found in this project, offline`),
  );
  await page.screenshot({ path: testInfo.outputPath('watch-archive.png') });

  // from a profile: "Watch…" opens the form on that account, its id known (nothing to resolve)
  const go = page.getByRole('combobox', { name: 'Go to' });
  await go.fill(`@${handles[0]}`);
  await go.press('Enter');
  await page.getByRole('region', { name: 'Profile' }).getByRole('link', { name: 'Watch…' }).click();
  const prefilled = page.getByRole('form', { name: 'New watch' });
  await expect(prefilled.getByLabel('Targets')).toHaveValue(`@${handles[0]}`);
  await expect(prefilled.getByLabel('Name')).toHaveValue(`@${handles[0]}`);
  await expect(prefilled.getByText(/1 ready\./)).toBeVisible();
  await expect(prefilled.getByRole('group', { name: 'Handles to resolve' })).toHaveCount(0);
});
