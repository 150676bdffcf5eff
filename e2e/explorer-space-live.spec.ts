/**
 * A live audio space in demo mode: the cost is shown before polling starts;
 * between two polls the sandbox clock moves and the page shows who joined
 * and who left; pausing stops the polls; an ended space is not polled.
 * The page's clock is Playwright's, so polls happen when the test says.
 */
import type { SkeinApp } from './fixtures';
import { expect, hostOf, test } from './fixtures';
import { attachScreenshot, demoExamples, expectAccessible, openRoute } from './support/explorer';

async function sandbox(app: SkeinApp): Promise<string> {
  const base = await hostOf(app).sandboxUrl();
  if (!base) throw new Error('no demo sandbox');
  return base;
}

async function spaceCalls(app: SkeinApp): Promise<number> {
  const res = await fetch(`${await sandbox(app)}/__sandbox/usage`);
  const body = (await res.json()) as { totals: { byOperation: Record<string, { calls: number } | undefined> } };
  return body.totals.byOperation.spaceDetail?.calls ?? 0;
}

async function advanceSandboxClock(app: SkeinApp, ms: number): Promise<void> {
  const res = await fetch(`${await sandbox(app)}/__sandbox/clock`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ advanceMs: ms }),
  });
  expect(res.ok).toBe(true);
}

test('a running space: cost first, then joined and left between polls, and pause stops polling', async ({
  skein,
}, testInfo) => {
  test.setTimeout(120_000);
  const { page } = skein;
  await page.clock.install();
  const ex = await demoExamples(page);
  await openRoute(page, `#/space/${ex.runningSpaceId}`);
  await expect(page.getByRole('heading', { level: 1 })).not.toBeEmpty();
  await expect(page.getByText('Live', { exact: true })).toBeVisible();
  const status = page.getByTestId('live-status');
  await expect(status).toHaveText(/^not updating · /);
  await expect(page.getByRole('heading', { name: /^Listeners/ })).toBeVisible();
  await expect(page.getByText(/^Costs every 5 s: 12 calls a minute, 180 credits/)).toBeVisible();

  // nothing is polled before the user has seen what it costs
  await page.clock.fastForward('00:30');
  expect(await spaceCalls(skein)).toBe(1);

  await page.getByRole('button', { name: 'Start live updates' }).click();
  const dialog = page.getByRole('dialog', { name: 'Start live updates?' });
  await expect(dialog).toContainText('12 a minute');
  await expect(dialog).toContainText('180 credits');
  await attachScreenshot(page, testInfo, 'space-cost-confirm');
  await expectAccessible(page, testInfo, 'space-cost-confirm');
  await dialog.getByRole('button', { name: 'Start live updates' }).click();
  await expect(dialog).toBeHidden();
  await expect(status).toHaveText(/^live · updated/);

  // the space moves on a minute; the next poll shows who joined and who left
  await advanceSandboxClock(skein, 60_000);
  await page.clock.fastForward('00:05');
  await expect.poll(() => spaceCalls(skein)).toBeGreaterThanOrEqual(2);
  const changes = page.getByRole('status').filter({ hasText: 'Since the previous update' });
  await expect(changes).toHaveText(/Since the previous update: .*\d+ (joined|left)/);
  await expect(page.locator('.person__badge', { hasText: /^(joined|left · was \w+)$/ }).first()).toBeVisible();
  await attachScreenshot(page, testInfo, 'space-live-diff');
  await expectAccessible(page, testInfo, 'space-live');

  // paused: no more polls however long one waits
  const toggle = page.getByRole('switch', { name: 'Live updates' });
  await expect(toggle).toHaveAttribute('aria-checked', 'true');
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-checked', 'false');
  await expect(status).toHaveText(/^paused · /);
  await expect(page.getByRole('button', { name: 'Refresh once' })).toBeEnabled(); // nothing in flight
  const paused = await spaceCalls(skein);
  await page.clock.fastForward('02:00');
  expect(await spaceCalls(skein)).toBe(paused);

  // resumed without asking again (the cost was accepted this session)
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-checked', 'true');
  await page.clock.fastForward('00:05');
  await expect.poll(() => spaceCalls(skein)).toBeGreaterThan(paused);
  await expect(page.getByRole('dialog')).toHaveCount(0);

  // the window hidden (minimised, another app in front): no polls until it shows again
  const setVisibility = (state: 'hidden' | 'visible') =>
    page.evaluate((v) => {
      Object.defineProperty(document, 'visibilityState', { value: v, configurable: true });
      document.dispatchEvent(new Event('visibilitychange'));
    }, state);
  await setVisibility('hidden');
  await expect(status).toHaveText(/^paused while the window is hidden/);
  await expect(page.getByRole('button', { name: 'Refresh once' })).toBeEnabled();
  const hidden = await spaceCalls(skein);
  await page.clock.fastForward('01:00');
  expect(await spaceCalls(skein)).toBe(hidden);
  await setVisibility('visible');
  await expect(status).toHaveText(/^live · /);
  await page.clock.fastForward('00:05');
  await expect.poll(() => spaceCalls(skein)).toBeGreaterThan(hidden);
});

test('an ended space is not polled and says so; going back to it costs nothing', async ({ skein }, testInfo) => {
  test.setTimeout(90_000);
  const { page } = skein;
  await page.clock.install();
  const ex = await demoExamples(page);
  await openRoute(page, `#/space/${ex.endedSpaceId}`);
  await expect(page.getByText('Ended', { exact: true })).toBeVisible();
  await expect(page.getByText(/This space has ended/)).toBeVisible();
  await expect(page.getByText(/^Lasted /)).toBeVisible();
  // it says it ended and who took part, never "None right now"
  await expect(
    page.getByRole('note').filter({
      hasText: /^After it ended: [\d,]+ (people|person) took part; the API names only its (host|\d+ hosts) now\.$/,
    }),
  ).toBeVisible();
  await expect(page.getByText('None right now.')).toHaveCount(0);
  await expect(
    page.getByText('Not listed: the API lists only the hosts once a space has ended.').first(),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: 'Start live updates' })).toHaveCount(0);
  await attachScreenshot(page, testInfo, 'space-ended');
  await expectAccessible(page, testInfo, 'space-ended');
  await page.clock.fastForward('01:00');
  expect(await spaceCalls(skein)).toBe(1);

  await openRoute(page, '#/');
  await expect(page.getByRole('heading', { name: 'Home', level: 1 })).toBeVisible();
  await page.goBack();
  await expect(page.getByText(/This space has ended/)).toBeVisible();
  await expect(page.getByText('served from cache')).toBeVisible();
  expect(await spaceCalls(skein)).toBe(1);
});
