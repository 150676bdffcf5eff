/**
 * A newcomer's hydration, from Home: the id file a paper shared (plain text, a comment line, a blank line and
 * an id the service no longer has), opened from the "Hydrate a shared id list" card, read for free, its cost
 * shown before any call, hydrated to CSV in ⌈n/100⌉ calls by the sandbox's own ledger, and the file read
 * back in pandas with every id as text, equal to the ids that came back.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, hostOf, test } from './fixtures';
import { demoExamples, hostOnly, shootLooks } from './support/explorer';
import { hasPandas, PYTHON } from './support/readers';

const GONE = '1999999999999999993';

test('a shared id file hydrated from Home, its cost shown first, read back in pandas', async ({ skein }, testInfo) => {
  hostOnly(testInfo);
  test.skip(!process.env.CI && !hasPandas(), 'needs python3-pandas (README, Readers)');
  test.setTimeout(90_000);
  const { page } = skein;
  const dir = await mkdtemp(join(tmpdir(), 'skein-e2e-journey-hydrate-'));
  try {
    const base = (await hostOf(skein).sandboxUrl())!;
    const ledger = async () =>
      ((await (await fetch(`${base}/__sandbox/usage`)).json()) as { totals: { calls: number } }).totals.calls;
    // the ids a paper shared: read straight from the service (not through Skein, so its project holds none)
    const ex = await demoExamples(page);
    const timeline = (await (await fetch(`${base}/social/user/tweet_timeline?userId=${ex.profile.id}`)).json()) as {
      tweets: Array<{ id: string }>;
    };
    const ids = timeline.tweets.map((t) => t.id).slice(0, 12);
    expect(ids.length).toBeGreaterThan(5);
    await writeFile(
      join(dir, 'shared-ids.txt'),
      ['# post ids shared with the paper', ...ids.slice(0, 6), '', ...ids.slice(6), GONE, ''].join('\n'),
    );

    const jobs = page.getByRole('region', { name: 'What do you want to do?' });
    await expect(jobs.getByRole('link', { name: 'Hydrate a shared id list' })).toBeVisible();
    await shootLooks(page, testInfo, 'hydrate-01-home', {
      show: jobs.getByRole('link', { name: 'Hydrate a shared id list' }),
    });
    await jobs.getByRole('link', { name: 'Hydrate a shared id list' }).click();
    await expect(page.getByRole('heading', { name: 'Hydrate ids', level: 1 })).toBeVisible();
    await shootLooks(page, testInfo, 'hydrate-02-open-a-file');
    await page.getByLabel(/A file of post ids/).setInputFiles(join(dir, 'shared-ids.txt'));
    const before = await ledger();
    await page.getByRole('button', { name: 'Read the ids' }).click();
    const panel = page.getByRole('region', { name: 'shared-ids.txt' });
    const asked = ids.length + 1;
    await expect(panel.getByText(`${asked} post ids ready to hydrate`)).toBeVisible();
    // the comment line is not an id: refused and listed with its line, never sent
    await panel.getByText(/^Refused/).click();
    await expect(panel.getByRole('row', { name: /# post ids shared with the paper/ })).toBeVisible();
    // the cost before any call: one call of up to 100, in credits and in dollars that read like money (to the cent,
    // "< $0.01" under a cent)
    await expect(panel.getByText(/in 1 call of up to 100: at most [\d,]+ credits \((< )?\$\d+\.\d\d\)/)).toBeVisible();
    expect(await ledger()).toBe(before);
    await shootLooks(page, testInfo, 'hydrate-03-read-and-cost');

    await panel.getByRole('button', { name: 'Hydrate…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Hydrate “shared-ids.txt”' });
    await expect(dialog.getByText(/1 call.*credits \((< )?\$\d+\.\d\d\)/).first()).toBeVisible();
    // the first heading has room under the dialog's title, as in every dialog
    const [title, format] = await Promise.all([
      dialog.getByRole('heading', { name: 'Hydrate “shared-ids.txt”' }).boundingBox(),
      dialog.getByRole('group', { name: 'Format' }).boundingBox(),
    ]);
    expect(format!.y - (title!.y + title!.height)).toBeGreaterThanOrEqual(10);
    await shootLooks(page, testInfo, 'hydrate-04-dialog-estimate');
    await dialog.getByRole('radio', { name: /CSV for analysis/ }).check();
    await skein.setSavePath(join(dir, 'hydrated.csv'));
    await dialog.getByRole('button', { name: 'Choose file and hydrate' }).click();
    await expect(dialog.getByRole('status')).toContainText('Done:');
    await shootLooks(page, testInfo, 'hydrate-05-dialog-done', { show: dialog.getByRole('status') });
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect(panel.getByText(`${asked} post ids, hydrated: ${ids.length} came back, 1 did not`)).toBeVisible();
    await shootLooks(page, testInfo, 'hydrate-06-after-report', { show: panel });
    expect(await ledger()).toBe(before + 1);

    // what a researcher does next: pandas, ids kept as text
    const read = execFileSync(
      PYTHON,
      [
        '-c',
        'import json, sys, pandas as pd\n' +
          'df = pd.read_csv(sys.argv[1], dtype=str, keep_default_na=False)\n' +
          'print(json.dumps({"ids": list(df["id"]), "columns": list(df.columns)}))',
        join(dir, 'hydrated.csv'),
      ],
      { encoding: 'utf8' },
    );
    const parsed = JSON.parse(read) as { ids: string[]; columns: string[] };
    expect([...parsed.ids].sort()).toEqual([...ids].sort());
    expect(parsed.columns).toContain('text');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
