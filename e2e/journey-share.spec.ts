/**
 * A newcomer shares a collected dataset, from Home, with no coding at all: a profile's posts collected to JSON
 * Lines, then the "Share or cite a dataset" card, a collection chosen, both packages written — the real ids for
 * re-hydration (read back in pandas as text, equal to the file's ids) and the pseudonymised one for review (in
 * which no id or handle of the collection is found) — each with a README and a citation; then the package for
 * re-hydration read back, zip and all, in Hydrate ids, as the colleague who receives it would.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from './fixtures';
import { hostOnly, shootLooks } from './support/explorer';
import { hasPandas, PYTHON } from './support/readers';

/** what a recipient reads of the two zips: the ids as text, the review's items and the files inside */
const READ = `
import json, sys, zipfile, pandas as pd
rehydration, review = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(rehydration) as z:
    ids = pd.read_csv(z.open('post_ids.txt'), header=None, dtype=str)[0].tolist()
    names = sorted(z.namelist())
with zipfile.ZipFile(review) as z:
    items = pd.read_csv(z.open('items.csv'), dtype=str, keep_default_na=False)
    text = ''.join(z.read(n).decode('utf-8') for n in z.namelist())
print(json.dumps({'ids': ids, 'names': names, 'review_rows': len(items), 'review_columns': list(items.columns),
                  'review_text': text}))
`;

test('a collected dataset shared and cited from Home, with no coding: real ids to re-hydrate, pseudonyms to review', async ({
  skein,
}, testInfo) => {
  hostOnly(testInfo);
  test.skip(!process.env.CI && !hasPandas(), 'needs python3-pandas (README, Readers)');
  test.setTimeout(120_000);
  const { page } = skein;
  const dir = await mkdtemp(join(tmpdir(), 'skein-e2e-journey-share-'));
  try {
    const jobs = page.getByRole('region', { name: 'What do you want to do?' });
    // nothing collected yet: the card says what comes first
    await expect(jobs.getByRole('link', { name: 'Share or cite a dataset' })).toHaveAccessibleDescription(
      /Collect something first/,
    );

    // collect: a profile's posts, two pages, as JSON Lines
    await jobs.getByRole('link', { name: 'Collect a dataset from a view' }).click();
    // where the card lands says how a dataset is collected from here
    await expect(page.getByText(/use its Export… button: it shows the cost before anything is bought/)).toBeVisible();
    await shootLooks(page, testInfo, 'share-collection-00-collect');
    await page.getByPlaceholder('Name, handle or words from a bio').fill('anne');
    await page.keyboard.press('Enter');
    const first = page.locator('article[data-user-id]').first();
    await first.getByRole('link').first().click();
    await page.getByRole('button', { name: 'Export…' }).first().click();
    const dialog = page.getByRole('dialog', { name: /^Export/ });
    await dialog.getByRole('radio', { name: /JSON Lines/ }).check();
    await dialog.getByRole('radio', { name: /Fetch everything/ }).check();
    await dialog.getByRole('textbox', { name: 'Pages' }).fill('2');
    const collected = join(dir, 'profile.jsonl');
    await skein.setSavePath(collected);
    await dialog.getByRole('button', { name: 'Choose file and export' }).click();
    await expect(dialog.getByRole('status').filter({ hasText: /Saved/ })).toBeVisible({ timeout: 60_000 });
    await dialog.getByRole('button', { name: 'Close' }).click();
    const collectedIds = (await readFile(collected, 'utf8'))
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { item: { id: string } }).item.id);
    expect(collectedIds.length).toBeGreaterThan(10);

    // share: from Home, the card now counts the collection
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Home' }).click();
    const card = jobs.getByRole('link', { name: 'Share or cite a dataset' });
    await expect(card).toHaveAccessibleDescription(/1 collection ready to share\./);
    await shootLooks(page, testInfo, 'share-collection-01-home', { show: card });
    await card.click();
    // no codebook: the coding's own files wait for one, the dataset can be shared now
    await expect(page.getByText(/A collection of this project can be shared and cited now/)).toBeVisible();
    const share = page.getByRole('region', { name: 'Share-and-cite package' });
    const form = share.getByRole('form', { name: 'Share package' });
    // what to share comes first: no sample yet, so a collection
    await expect(share.getByRole('radio', { name: /The coded sample chosen above/ })).toBeDisabled();
    await expect(share.getByRole('radio', { name: /A collection of this project/ })).toBeChecked();
    await expect(form.getByText('Choose a collection first.')).toBeVisible();
    await expect(form.getByRole('button', { name: 'Save the package…' })).toBeDisabled();
    const choice = share.getByRole('combobox', { name: 'Collection' });
    const option = choice.getByRole('option', { name: new RegExp(`\\(${collectedIds.length} items\\)$`) });
    await choice.selectOption({ label: (await option.textContent()) ?? '' });
    await shootLooks(page, testInfo, 'share-collection-02-chosen', { show: choice });
    const chosenId = await choice.inputValue();

    // both packages: the one for review needs a key, said before the click
    await form.getByRole('checkbox', { name: 'For re-hydration' }).check();
    await expect(form.getByText(/^Pseudonymising needs a key/)).toBeVisible();
    await page.getByRole('button', { name: 'Generate a key' }).click();
    await form.getByLabel('Title').fill('Anne’s posts, November 2026');
    await form.getByLabel(/^Authors, one per line/).fill('Example, Ana; 0000-0002-1825-0097');
    await skein.setSavePath(join(dir, 'annes-posts.zip'));
    await form.getByRole('button', { name: 'Save both packages…' }).click();
    const written = page.getByRole('status', { name: 'Packages written' });
    await expect(written).toContainText('2 packages written');
    await expect(written.getByRole('listitem').filter({ hasText: 'For re-hydration' })).toContainText(
      `${collectedIds.length} items.`,
    );
    await shootLooks(page, testInfo, 'share-collection-03-written', { show: written });

    // what the recipient reads, in pandas
    const read = JSON.parse(
      execFileSync(PYTHON, [
        '-c',
        READ,
        join(dir, 'annes-posts.for-rehydration.zip'),
        join(dir, 'annes-posts.for-review.zip'),
      ]).toString(),
    ) as { ids: string[]; names: string[]; review_rows: number; review_columns: string[]; review_text: string };
    expect(read.ids.sort()).toEqual([...collectedIds].sort());
    expect(read.names).toEqual(['CITATION.cff', 'README.txt', 'datacite.json', 'manifest.json', 'post_ids.txt']);
    expect(read.review_rows).toBe(collectedIds.length);
    expect(read.review_columns).toEqual(['item_id', 'item_kind', 'author_id', 'created_at']);
    for (const id of collectedIds) expect(read.review_text.includes(id), `the review holds ${id}`).toBe(false);
    expect(read.review_text).toContain('orcid: "https://orcid.org/0000-0002-1825-0097"');

    // and the colleague who receives the package for re-hydration reads it in Hydrate ids as it is, zip and all
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Hydrate ids' }).click();
    await page.getByLabel(/A file of post ids/).setInputFiles(join(dir, 'annes-posts.for-rehydration.zip'));
    await page.getByRole('button', { name: 'Read the ids' }).click();
    const panel = page.getByRole('region', { name: 'annes-posts.for-rehydration.zip › post_ids.txt' });
    await expect(panel.getByText(`${collectedIds.length} post ids ready to hydrate`)).toBeVisible();
    await shootLooks(page, testInfo, 'share-collection-04-hydrate-the-package');
    // the package for review holds no id to read, and says which file it lacks
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Hydrate ids' }).click();
    await page.getByLabel(/A file of post ids/).setInputFiles(join(dir, 'annes-posts.for-review.zip'));
    await page.getByRole('button', { name: 'Read the ids' }).click();
    await expect(page.getByRole('alert')).toHaveText(
      'This zip holds no post_ids.txt: a package for re-hydration holds post_ids.txt or user_ids.txt.',
    );

    // the Archive, showing that collection, offers the same form with it chosen
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Archive' }).click();
    await page.getByRole('combobox', { name: 'Collection' }).selectOption(chosenId);
    await shootLooks(page, testInfo, 'share-collection-05-archive', {
      show: page.getByRole('link', { name: 'Share or cite this collection…' }),
    });
    await page.getByRole('link', { name: 'Share or cite this collection…' }).click();
    await expect(page.getByRole('tab', { name: 'Files' })).toHaveAttribute('aria-selected', 'true');
    await expect(share.getByRole('combobox', { name: 'Collection' })).toHaveValue(chosenId);
    await expect(share.getByRole('radio', { name: /A collection of this project/ })).toBeChecked();
    if (skein.host) expect(skein.host.internalErrors()).toEqual([]);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
