/**
 * A new person's watch, from Home in demo mode: ten @handles pasted into the form, their resolution's cost seen
 * before it is asked for, a week's run and a budget in dollars, the whole watch's cost with its first read; it
 * runs, its card says how many posts of the ten accounts it holds, and the Archive opens them as a collection;
 * a profile's "Watch…" opens the form on its account. Looked at in light, dark and a narrow window. Then the
 * same journey for a week, on a clock the test moves: the card's posts are the project's rows, and the ledger is
 * within a quarter of the whole-watch projection the form showed.
 */
import { join } from 'node:path';
import type { Locator } from '@playwright/test';
import { DatabaseSync } from 'node:sqlite';
import { expect, hostOf, test } from './fixtures';
import { attachScreenshot, demoExamples, hostOnly, shootLooks } from './support/explorer';

test('ten @handles watched from the form, their posts opened in the Archive', async ({ skein }, testInfo) => {
  // fourteen steps shot in three looks each: 52 s alone, 84 s with two other suites running on the 2 cores
  test.setTimeout(180_000);
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

  // from Home, as a person starts
  const jobs = page.getByRole('region', { name: 'What do you want to do?' });
  await expect(jobs.getByRole('link', { name: 'Watch accounts over time' })).toBeVisible();
  await shootLooks(page, testInfo, 'watch-01-home');
  await jobs.getByRole('link', { name: 'Watch accounts over time' }).click();
  await expect(page.getByRole('heading', { name: 'Watches', level: 1 })).toBeVisible();
  await shootLooks(page, testInfo, 'watch-02-no-watch-yet');
  await page.getByRole('button', { name: 'New watch' }).click();
  const form = page.getByRole('form', { name: 'New watch' });
  await expect(form.getByLabel('Targets')).toBeVisible();
  await shootLooks(page, testInfo, 'watch-03-empty-form');
  await form.getByLabel('Name').fill('Ten demo accounts');
  // a typo first: said in plain words, naming the field, never as a bug
  await form.getByLabel('Targets').fill(`${pasted}, https://x.com/home`);
  await expect(form.getByRole('alert')).toContainText('Targets: “https://x.com/home” is not a user id');
  await expect(page.getByText(/bug in Skein/)).toHaveCount(0);
  await shootLooks(page, testInfo, 'watch-04-typo', { show: form.getByRole('alert') });
  await form.getByLabel('Targets').fill(pasted);

  const resolve = form.getByRole('group', { name: 'Handles to resolve' });
  await expect(resolve).toContainText(
    /10 handles to resolve into account ids: 10 people searches, about [\d,]+ credits \((< )?\$[\d,]+\.\d\d\)/,
  );
  await expect(form.getByRole('button', { name: 'Switch it on' })).toBeDisabled();
  await shootLooks(page, testInfo, 'watch-05-handles-to-resolve', { show: resolve });
  await form.getByRole('button', { name: 'Estimate the cost' }).click();
  await expect(form.getByTestId('whole-watch')).toContainText(
    /About [\d,]+ credits \((< )?\$[\d,]+\.\d\d\) over 7 days, first read included, and resolving the handles\./,
  );
  await shootLooks(page, testInfo, 'watch-06-estimate-before-resolving', { show: form.getByTestId('whole-watch') });
  await resolve.getByRole('button', { name: 'Resolve 10 handles' }).click();
  await expect(resolve).toHaveCount(0);
  await expect(form.getByText(/10 ready\./)).toBeVisible();
  // resolved: the estimate asked again for the ids, without the searches already made
  await expect(form.getByTestId('whole-watch')).toHaveText(
    /^About [\d,]+ credits \((< )?\$[\d,]+\.\d\d\) over 7 days, first read included\.$/,
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
  // looked at: the form's top, its estimate and its caps, before switching it on
  await shootLooks(page, testInfo, 'watch-07-resolved-form', { show: form.getByLabel('Targets') });
  const estimate = form.getByRole('group', { name: 'How to collect, and what it costs' });
  // every dollar figure reads like money: to the cent ("< $0.01" under a cent), never "$0.004512"
  // (read as laid out: a table's cells apart, not run together)
  const dollars = async (l: Locator) => (await l.innerText()).match(/\$[\d,]*\.\d+/g) ?? [];
  const notMoney = (figures: string[]) => figures.filter((f) => !/^\$[\d,]+\.\d\d$/.test(f));
  expect((await dollars(form)).length).toBeGreaterThan(4);
  expect(notMoney(await dollars(form))).toEqual([]);
  await shootLooks(page, testInfo, 'watch-08-estimate', { show: estimate });
  await shootLooks(page, testInfo, 'watch-09-caps-and-switch-on', {
    show: form.getByRole('button', { name: 'Switch it on' }),
  });
  await form.getByRole('button', { name: 'Switch it on' }).click();

  // its first run is due at once, and reads every account's starting point within the proposed cap
  const card = page.getByRole('article', { name: 'Ten demo accounts' });
  await expect(card).toBeVisible();
  await expect(card.getByTestId('runs')).toHaveText('1', { timeout: 30_000 });
  await expect(card.getByText('running now')).toHaveCount(0, { timeout: 30_000 });
  await expect(card.getByTestId('last-run')).toContainText(': done,');
  await expect(card).toContainText(`(@${handles[0]}, @${handles[1]}`);
  await expect(card).toContainText('Budget: $2.50 in total');
  expect(notMoney(await dollars(card))).toEqual([]);
  const kept = card.getByTestId('kept');
  await expect(kept).toHaveText(/^[\d,]+ posts of 10 accounts kept$/);
  const posts = Number((await kept.innerText()).split(' ')[0]?.replace(/,/g, ''));
  expect(posts).toBeGreaterThan(10);
  await shootLooks(page, testInfo, 'watch-10-first-run-card', { show: card });
  await shootLooks(page, testInfo, 'watch-11-card-actions', { show: card.getByRole('button', { name: 'Run now' }) });
  await attachScreenshot(page, testInfo, 'watch-card');

  // the Archive opens on that collection: the watch's posts, offline
  await card.getByRole('button', { name: 'Open them in the Archive' }).click();
  await expect(page.getByRole('heading', { name: 'Archive', level: 1 })).toBeVisible();
  const collection = page.getByLabel('Collection');
  await expect(collection.locator('option:checked')).toHaveText(/^Ten demo accounts · kept by the watch/);
  await expect(page.getByRole('status').filter({ hasText: /posts? found in this project/ })).toHaveText(
    new RegExp(`^${posts > 50 ? '50\\+' : posts} posts found in this project, offline`),
  );
  await shootLooks(page, testInfo, 'watch-12-archive-collection', {
    show: page.getByRole('status').filter({ hasText: /posts? found in this project/ }),
  });

  // from a profile: "Watch…" opens the form on that account, its id known (nothing to resolve)
  const go = page.getByRole('combobox', { name: 'Go to' });
  await go.fill(`@${handles[0]}`);
  await go.press('Enter');
  await expect(page.getByRole('region', { name: 'Profile' }).getByRole('link', { name: 'Watch…' })).toBeVisible();
  await shootLooks(page, testInfo, 'watch-13-profile');
  await page.getByRole('region', { name: 'Profile' }).getByRole('link', { name: 'Watch…' }).click();
  const prefilled = page.getByRole('form', { name: 'New watch' });
  await expect(prefilled.getByLabel('Targets')).toHaveValue(`@${handles[0]}`);
  await expect(prefilled.getByLabel('Name')).toHaveValue(`@${handles[0]}`);
  await expect(prefilled.getByText(/1 ready\./)).toBeVisible();
  await expect(prefilled.getByRole('group', { name: 'Handles to resolve' })).toHaveCount(0);
  await shootLooks(page, testInfo, 'watch-14-form-from-profile', { show: prefilled.getByLabel('Targets') });
});

const HOUR = 3_600_000;

test('a week of the watch on a moved clock: its card’s posts are the project’s, and it spends within a quarter of its projection', async ({
  launch,
}, testInfo) => {
  hostOnly(testInfo);
  test.setTimeout(300_000);
  // the machine's clock as main and the demo world see it, moved by the test (from today: the form's "until" is
  // the page's today plus 7 days); at the demo's own pace
  let offset = 0;
  const now = () => Date.now() + offset;
  const app = await launch({ now, sandbox: { now, seed: 5, activity: 1 }, watchTickMs: 200 });
  const { page } = app;
  const base = (await hostOf(app).sandboxUrl()) as string;
  const ex = await demoExamples(page);
  const list = (await (await fetch(`${base}/__sandbox/lists/${ex.listId}`)).json()) as {
    members: Array<{ userName: string }>;
  };
  const handles = list.members.slice(10, 20).map((m) => `@${m.userName}`);

  await page.getByRole('link', { name: 'Watches' }).click();
  await page.getByRole('button', { name: 'New watch' }).click();
  const form = page.getByRole('form', { name: 'New watch' });
  await form.getByLabel('Name').fill('A week of ten accounts');
  await form.getByLabel('Targets').fill(handles.join(', '));
  await form.getByLabel('Run every (number)').fill('12');
  await form.getByRole('button', { name: 'Estimate the cost' }).click();
  await form
    .getByRole('group', { name: 'Handles to resolve' })
    .getByRole('button', { name: 'Resolve 10 handles' })
    .click();
  await expect(form.getByText(/10 ready\./)).toBeVisible();
  const whole = form.getByTestId('whole-watch');
  await expect(whole).toHaveText(/^About [\d,]+ credits \((< )?\$[\d,]+\.\d\d\) over 7 days, first read included\.$/);
  const projected = Number((await whole.innerText()).split(' ')[1]?.replace(/,/g, ''));
  // from here the ledger holds the watch's own spending only
  await fetch(`${base}/__sandbox/usage/reset`, { method: 'POST' });
  await form.getByRole('button', { name: 'Switch it on' }).click();

  const card = page.getByRole('article', { name: 'A week of ten accounts' });
  const runs = card.getByTestId('runs');
  const next = card.getByTestId('next-run');
  await expect(runs).toHaveText('1', { timeout: 30_000 });
  // half a day at a time until the watch's last day has passed: each due run is the app's own scheduler's
  for (let step = 0; step < 20 && (await next.innerText()) !== '—'; step++) {
    const before = Number(await runs.innerText());
    offset += 12 * HOUR;
    await expect
      .poll(async () => Number(await runs.innerText()) > before || (await next.innerText()) === '—', {
        timeout: 30_000,
      })
      .toBe(true);
    await expect(card.getByText('running now')).toHaveCount(0, { timeout: 30_000 });
  }
  await expect(next).toHaveText('—');
  expect(Number(await runs.innerText())).toBeGreaterThanOrEqual(14);

  const ledger = (await (await fetch(`${base}/__sandbox/usage`)).json()) as { calls: Array<{ credits: number }> };
  const spent = ledger.calls.reduce((sum, c) => sum + c.credits, 0);
  testInfo.annotations.push({ type: 'spent ÷ projected', description: (spent / projected).toFixed(2) });
  expect(spent).toBeGreaterThanOrEqual(projected * 0.75);
  expect(spent).toBeLessThanOrEqual(projected * 1.25);

  // the card's figure is the project's rows: the posts the watch holds, counted in the file itself
  const kept = card.getByTestId('kept');
  const shown = Number((await kept.innerText()).split(' ')[0]?.replace(/,/g, ''));
  const file = new DatabaseSync(join(app.userDataDir, 'projects', 'Demo.skein'), { readOnly: true });
  try {
    const rows = file.prepare("SELECT count(*) AS n FROM watch_presence WHERE kind = 'post'").get() as { n: number };
    expect(shown).toBe(rows.n);
  } finally {
    file.close();
  }
  await shootLooks(page, testInfo, 'watch-week-01-card-after-a-week', { show: card });

  await card.getByRole('button', { name: 'Open them in the Archive' }).click();
  await expect(page.getByLabel('Collection').locator('option:checked')).toHaveText(
    /^A week of ten accounts · kept by the watch/,
  );
  await expect(page.getByRole('status').filter({ hasText: /posts? found in this project/ })).toHaveText(
    new RegExp(`^${shown > 50 ? '50\\+' : shown} posts found in this project, offline`),
  );
  await shootLooks(page, testInfo, 'watch-week-02-archive', {
    show: page.getByRole('status').filter({ hasText: /posts? found in this project/ }),
  });
});
