/**
 * A watch that keeps its media, in demo mode: switched on with "Keep the media of new posts after each run", it
 * keeps the media of the posts it holds after its first run and again after the next (only what is not kept
 * yet), each media URL fetched once across both runs (the sandbox's media log), and its card says how many files
 * were kept for it.
 */
import { expect, test } from './fixtures';
import { demoExamples, hostOnly, sandbox } from './support/explorer';

test('a watch keeps the media of its posts after each run, each file fetched once', async ({ launch }, testInfo) => {
  hostOnly(testInfo);
  test.setTimeout(180_000);
  const app = await launch({ watchTickMs: 200 });
  const { page } = app;
  const ex = await demoExamples(page);
  const api = await sandbox(app);
  await api.clearMediaRequests();
  const fetched = async () => (await api.mediaRequests()).filter((r) => r.agent === 'Skein').map((r) => r.url);

  await page.getByRole('link', { name: 'Watches' }).click();
  await page.getByRole('button', { name: 'New watch' }).click();
  const form = page.getByRole('form', { name: 'New watch' });
  await form.getByLabel('Name').fill('A list and its media');
  await form.getByLabel('What to follow').selectOption('list');
  await form.getByLabel('Targets').fill(ex.listId);
  await form.getByLabel('Run every (number)').fill('30');
  await form.getByLabel('Run every (unit)').selectOption('minutes');
  const keep = form.getByRole('checkbox', { name: 'Keep the media of new posts after each run' });
  await expect(keep).not.toBeChecked();
  await keep.check();
  await form.getByRole('button', { name: 'Estimate the cost' }).click();
  await form.getByRole('radio', { name: /Full page each run/ }).check();
  await form.getByRole('button', { name: 'Switch it on' }).click();

  const card = page.getByRole('article', { name: 'A list and its media' });
  await expect(card.getByTestId('runs')).toHaveText('1');
  const line = card.getByText(/media files? kept for this watch/);
  await expect(line).toBeVisible({ timeout: 60_000 });
  const first = await fetched();
  expect(first.length).toBeGreaterThan(0);
  await expect(line).toHaveText(`${first.length} media ${first.length === 1 ? 'file' : 'files'} kept for this watch.`);

  await card.getByRole('button', { name: 'Run now' }).click();
  await expect(card.getByTestId('runs')).toHaveText('2');
  // across both runs each media address was fetched once, and the card counts what was kept
  const both = await fetched();
  expect(new Set(both).size).toBe(both.length);
  await expect(line).toHaveText(`${both.length} media ${both.length === 1 ? 'file' : 'files'} kept for this watch.`);
});
