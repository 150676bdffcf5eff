/**
 * Settings, the usage panel and caching in demo mode: mode and price table
 * edits, a timestamp authority (https only), a key that is never shown, the usage panel against the sandbox's
 * ledger, and a walk post → author → back → forward → back that pays once.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OPERATIONS, type OperationId } from '../src/shared/api/catalog';
import type { SkeinApp } from './fixtures';
import { expect, hostOf, test } from './fixtures';
import { launchApp } from './host';
import { attachScreenshot, demoExamples, expectAccessible, hostOnly, openRoute } from './support/explorer';

interface Ledger {
  calls: Array<{ operation: OperationId; status: number; credits: number }>;
  totals: {
    calls: number;
    credits: number;
    byOperation: Partial<Record<OperationId, { calls: number; credits: number }>>;
  };
}

async function sandbox(app: SkeinApp): Promise<string> {
  const base = await hostOf(app).sandboxUrl();
  if (!base) throw new Error('no demo sandbox');
  return base;
}
async function ledger(app: SkeinApp): Promise<Ledger> {
  return (await (await fetch(`${await sandbox(app)}/__sandbox/usage`)).json()) as Ledger;
}
async function requestedUrls(app: SkeinApp): Promise<string[]> {
  const body = (await (await fetch(`${await sandbox(app)}/__sandbox/requests`)).json()) as {
    requests: Array<{ url: string; operation: string | null }>;
  };
  return body.requests.filter((r) => r.operation !== null).map((r) => r.url);
}

test('settings: mode, price table edit and reset, and a key that is never shown', async ({ skein }, testInfo) => {
  test.setTimeout(120_000);
  const { page } = skein;
  const canary = 'sk-CANARY-7f3a9c-never-shown';
  await openRoute(page, '#/settings');
  await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
  await expect(page.getByRole('radio', { name: /^Demo/ })).toBeChecked();
  await attachScreenshot(page, testInfo, 'settings');
  await expectAccessible(page, testInfo, 'settings');

  // the price table: an edit is saved and used, a bad value is named, reset brings the defaults back
  const minimum = page.getByLabel('Minimum per call');
  await minimum.fill('-3');
  await page.getByRole('button', { name: 'Save prices' }).click();
  await expect(page.getByText('Minimum per call must be a number of 0 or more.')).toBeVisible();
  await minimum.fill('30');
  await page.getByRole('button', { name: 'Save prices' }).click();
  await expect(page.getByText('Prices saved.')).toBeVisible();
  await expect(minimum).toHaveValue('30');
  const saved = await page.evaluate(() =>
    (window as unknown as { skein: { settings: { get: () => Promise<unknown> } } }).skein.settings.get(),
  );
  expect((saved as { data: { prices: { minimumPerCall: number } } }).data.prices.minimumPerCall).toBe(30);
  await page.getByRole('button', { name: 'Reset to defaults' }).click();
  await expect(page.getByText('Prices reset to the defaults.')).toBeVisible();
  await expect(minimum).toHaveValue('15');

  // trusted time for kept media: what is sent is said; an authority is https only, and saved when it is
  const trusted = page.getByRole('region', { name: 'Trusted time for kept media and pages' });
  await expect(trusted).toContainText('Only hashes are sent');
  await expect(trusted).toContainText('In demo mode the sandbox’s stand-in authority');
  const authority = trusted.getByLabel('Timestamp authority');
  await authority.fill('http://tsa.example.org/tsr');
  await trusted.getByRole('button', { name: 'Save' }).first().click();
  await expect(trusted.getByRole('alert')).toHaveText(/^Enter the authority’s https:\/\/ address/);
  await authority.fill('https://tsa.example.org/tsr');
  await trusted.getByRole('button', { name: 'Save' }).first().click();
  await expect(trusted.getByRole('alert')).toHaveCount(0);
  await expect(authority).toHaveValue('https://tsa.example.org/tsr');
  const withAuthority = (await page.evaluate(() =>
    (window as unknown as { skein: { settings: { get: () => Promise<unknown> } } }).skein.settings.get(),
  )) as { data: { timestampAuthority: string | null } };
  expect(withAuthority.data.timestampAuthority).toBe('https://tsa.example.org/tsr');

  // the key: configured, where it is kept, never on screen
  const keyField = page.getByLabel('Key', { exact: true });
  await expect(keyField).toHaveAttribute('type', 'password');
  await keyField.fill(canary);
  await page.getByRole('button', { name: 'Save key' }).click();
  const keyStatus = page.getByTestId('key-status');
  await expect(keyStatus).toContainText('Configured');
  await expect(keyStatus).toContainText(/Kept (in the system keychain|on disk|for this session)/);
  // saving a key switches nothing: the mode in force stays, and the controls say which it is
  await expect(page.getByRole('status').filter({ hasText: 'Key saved.' })).toContainText('stays in Demo mode');
  await expect(page.getByRole('radio', { name: /^Demo/ })).toBeChecked();
  await expect(page.getByTestId('mode')).toHaveText('Demo mode');
  await expect(page.getByLabel('Replace key')).toHaveValue('');
  const everything = await page.evaluate(
    () => document.documentElement.outerHTML + [...document.querySelectorAll('input')].map((i) => i.value).join(' '),
  );
  expect(everything).not.toContain(canary);
  await attachScreenshot(page, testInfo, 'settings-key-configured');
  await page.getByRole('button', { name: 'Remove key' }).click();
  await expect(keyStatus).toContainText('Not configured');

  // mode: Live and back to Demo, shown in the status bar
  await page.getByRole('radio', { name: /^Live/ }).check();
  await expect(page.getByTestId('mode')).toHaveText('Live mode');
  await page.getByRole('radio', { name: /^Demo/ }).check();
  await expect(page.getByTestId('mode')).toHaveText('Demo mode');

  await page.getByRole('button', { name: 'Clear cache' }).click();
  await expect(page.getByText(/^Cache cleared \(\d+ answers?\)\.$/)).toBeVisible();
});

test('changing mode drops cached answers: the same trends are asked again afterwards', async ({ skein }) => {
  test.setTimeout(90_000);
  const { page } = skein;
  await openRoute(page, '#/trends?woeid=44418');
  await expect(
    page.getByRole('list', { name: 'Trends for London, ranked' }).getByRole('listitem').first(),
  ).toBeVisible();
  await openRoute(page, '#/settings');
  await page.getByRole('radio', { name: /^Live/ }).check();
  await expect(page.getByTestId('mode')).toHaveText('Live mode');
  await page.getByRole('radio', { name: /^Demo/ }).check();
  await expect(page.getByTestId('mode')).toHaveText('Demo mode');
  await openRoute(page, '#/trends?woeid=44418');
  await expect(
    page.getByRole('list', { name: 'Trends for London, ranked' }).getByRole('listitem').first(),
  ).toBeVisible();
  await expect(page.getByText('served from cache')).toHaveCount(0);
  expect((await ledger(skein)).totals.byOperation.trends?.calls).toBe(2);
});

test('the usage panel matches the sandbox ledger after a scripted session', async ({ skein }, testInfo) => {
  test.setTimeout(150_000);
  const { page } = skein;
  const ex = await demoExamples(page);
  await openRoute(page, `#/community/${ex.communityId}`);
  await page.getByRole('tab', { name: 'Moderators' }).click();
  await expect(page.getByText('Community moderators are not available yet')).toBeVisible();
  await openRoute(page, `#/list/${ex.listId}`);
  await expect(page.locator('article[data-post-id]').first()).toBeVisible();
  await openRoute(page, '#/trends?woeid=1');
  await expect(
    page.getByRole('list', { name: 'Trends for Worldwide, ranked' }).getByRole('listitem').first(),
  ).toBeVisible();
  await openRoute(page, `#/space/${ex.endedSpaceId}`);
  await expect(page.getByText(/This space has ended/)).toBeVisible();
  await openRoute(page, `#/community/${ex.communityId}`); // cached: no call
  await expect(page.getByText('served from cache')).toBeVisible();

  await openRoute(page, '#/usage');
  const byOperation = page.getByRole('table', { name: 'By operation' });
  await expect(byOperation).toBeVisible();
  const l = await ledger(skein);
  const ops = Object.keys(l.totals.byOperation) as OperationId[];
  expect(ops.sort()).toEqual(['communityInfo', 'communityModerators', 'listTimeline', 'spaceDetail', 'trends']);
  for (const op of ops) {
    const t = l.totals.byOperation[op]!;
    const row = byOperation.getByRole('row', { name: new RegExp(`^${OPERATIONS[op].title} \\d`) });
    await expect(row.getByRole('cell')).toHaveText([String(t.calls), String(t.credits), /^\$/]);
  }
  await expect(page.getByText('Calls this session', { exact: true }).locator('xpath=..')).toContainText(
    String(l.totals.calls),
  );
  await expect(page.getByText('Credits this session', { exact: true }).locator('xpath=..')).toContainText(
    `${l.totals.credits.toLocaleString('en-US')} credits`,
  );

  const recent = page.getByRole('table', { name: 'Recent calls' });
  await expect(
    recent.getByRole('row', { name: /^Community moderators .* 501 .* free: not available yet \(501\)/ }),
  ).toBeVisible();
  // each call says what it was about
  await expect(recent.getByRole('row', { name: new RegExp(`list ${ex.listId} · page 1`) })).toBeVisible();
  await expect(recent.getByRole('row', { name: new RegExp(`space ${ex.endedSpaceId}`) })).toBeVisible();
  // demo calls: free and not kept, said beside the figures
  await expect(page.getByRole('note').filter({ hasText: 'Demo mode: calls go to Skein' })).toContainText(
    'free and not kept',
  );
  await expect(page.getByText('All sessions (live mode)')).toBeVisible();
  expect(l.totals.byOperation.communityInfo?.calls).toBe(1); // the second visit was served from cache
  await attachScreenshot(page, testInfo, 'usage');
  await expectAccessible(page, testInfo, 'usage');

  await page.getByRole('button', { name: 'Reset counters' }).click();
  await page.getByRole('button', { name: 'Yes, reset' }).click();
  await expect(byOperation.getByText('No calls yet.')).toBeVisible();
});

test('post → author → back → forward → back makes no repeated call within the stale time', async ({ skein }) => {
  test.setTimeout(120_000);
  const { page } = skein;
  const ex = await demoExamples(page);
  await openRoute(page, `#/post/${ex.bigThreadPostId}`);
  const focal = page.locator(`article[data-post-id="${ex.bigThreadPostId}"]`).first();
  await expect(focal).toBeVisible();
  await expect(page.locator('article[data-post-id]').nth(1)).toBeVisible(); // replies arrived
  await focal.locator('.post__name').click();
  await expect(page).toHaveURL(/#\/user\/\d+\/posts$/);
  const profileHeading = page.getByRole('region', { name: 'Profile' }).getByRole('heading', { level: 1 });
  await expect(profileHeading).toBeVisible();
  await expect(page.locator('article[data-post-id]').first()).toBeVisible(); // timeline arrived
  const afterTwoViews = await requestedUrls(skein);

  await page.goBack();
  await expect(focal).toBeVisible();
  await page.goForward();
  await expect(profileHeading).toBeVisible();
  await expect(page.locator('article[data-post-id]').first()).toBeVisible();
  await page.goBack();
  await expect(focal).toBeVisible();
  await expect(page.locator('article[data-post-id]').nth(1)).toBeVisible();

  const urls = await requestedUrls(skein);
  expect(urls).toEqual(afterTwoViews);
  const repeated = urls.filter((u, i) => urls.indexOf(u) !== i);
  expect(repeated).toEqual([]);
});

// eslint-disable-next-line no-empty-pattern -- this spec writes the usage file first, then launches its own app on it
test('damaged lifetime totals are set aside and said so; the totals count on from then', async ({}, testInfo) => {
  hostOnly(testInfo);
  const userDataDir = await mkdtemp(join(tmpdir(), 'skein-e2e-usage-damaged-'));
  const file = join(userDataDir, 'usage.json');
  await writeFile(file, JSON.stringify({ lifetime: { calls: '<b>12</b>', credits: -1 } }));
  const app = await launchApp({ userDataDir });
  try {
    const { page } = app;
    await openRoute(page, '#/usage');
    const figures = page.getByText('All sessions (live mode)', { exact: true }).locator('xpath=..');
    await expect(figures).toContainText(/0 calls · \$0\.00\d* since \d{4}-\d{2}-\d{2}/);
    await expect(page.getByRole('note').filter({ hasText: 'could not be read' })).toContainText(
      'They are kept in the usage file as they were',
    );
    await attachScreenshot(page, testInfo, 'usage-lifetime-damaged');
    await expectAccessible(page, testInfo, 'usage-lifetime-damaged');
    expect(app.host?.internalErrors() ?? []).toEqual([]);
  } finally {
    await app.close();
  }
  // the damaged totals are in the file as they were, beside the totals counted since
  expect(JSON.parse(await readFile(file, 'utf8'))).toMatchObject({
    lifetime: { calls: 0, credits: 0 },
    lifetimeUnread: { value: { calls: '<b>12</b>', credits: -1 } },
  });
  await rm(userDataDir, { recursive: true, force: true });
});
