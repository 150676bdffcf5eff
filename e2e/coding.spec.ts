/**
 * The coding workbench, as a researcher uses it in demo mode: a codebook, a stratified sample of
 * 100 demo posts, two named coders coding blind by keyboard with 20 % overlap — the first key after choosing
 * who codes already codes, arrows never leave the workbench, a click on the post's text reads it in place at no
 * call, a switch of coder is confirmed — agreement shown once asked for, equal to a computation made here from
 * what each coder pressed and read in words, reconciliation that records the decided value apart, both share
 * packages made at once and named on screen, and coding a post where it is shown (a thread) with the same keys.
 * Screenshots of the workbench, agreement, reconciliation and files, light, dark and in a 760 px window.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { launchApp } from './host';
import { apiCall, demoExamples, hostOnly, openThread, sandbox, shootLooks } from './support/explorer';

type Box = { x: number; y: number; width: number; height: number };

/** What a coder presses for a post: from its id, the two coders agreeing on most posts, not all. */
function choice(id: string, coder: 'Ana' | 'Ben'): number {
  const n = Number(id.slice(-4));
  const base = n % 3;
  return coder === 'Ben' && n % 5 === 0 ? (base + 1) % 3 : base;
}

/** Krippendorff's nominal α from its definition: pairs of values within items, against all pairs. */
function referenceAlpha(pairs: Array<[number, number]>): number {
  const all = pairs.flat();
  const n = all.length;
  const observed = pairs.filter(([a, b]) => a !== b).length * 2;
  let expected = 0;
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) if (i !== j && all[i] !== all[j]) expected++;
  return 1 - ((n - 1) * observed) / expected;
}

/** Cohen's κ from its definition. */
function referenceKappa(pairs: Array<[number, number]>): number {
  const n = pairs.length;
  const po = pairs.filter(([a, b]) => a === b).length / n;
  let pe = 0;
  for (let c = 0; c < 3; c++)
    pe += (pairs.filter(([a]) => a === c).length / n) * (pairs.filter(([, b]) => b === c).length / n);
  return (po - pe) / (1 - pe);
}

/** "1 disagreement", "2 disagreements": the count reads as a person would say it. */
const disagreements = (n: number) => (n === 1 ? 'disagreement' : 'disagreements');

/** Who codes at this computer: the first choice in place, any later one a confirmed switch. */
async function codeAs(page: Page, coder: 'Ana' | 'Ben'): Promise<boolean> {
  const first = page.getByRole('combobox', { name: 'Coding as' });
  const me = page.getByTestId('coding-as');
  if ((await me.count()) > 0 && (await me.textContent()) === coder) return false;
  if (await first.isVisible()) await first.selectOption({ label: coder });
  else {
    await page.getByRole('button', { name: 'Switch coder…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Code as someone else?' });
    await dialog.getByRole('combobox', { name: 'Code as' }).selectOption({ label: coder });
    await dialog.getByRole('button', { name: `Switch to ${coder}` }).click();
    await expect(dialog).toBeHidden();
  }
  await expect(page.getByTestId('coding-as')).toHaveText(coder);
  return true;
}

async function codeQueue(page: Page, coder: 'Ana' | 'Ben', pressed: Map<string, number>): Promise<void> {
  await page.getByRole('tab', { name: 'Code', exact: true }).click();
  const switched = await codeAs(page, coder);
  const progress = page.getByTestId('coding-progress');
  await expect(progress).toContainText('Item 1 of 60 · 0 done');
  // the workbench took the focus from the switch: the next key codes
  if (switched) await expect(page.getByRole('region', { name: 'Coding workbench' })).toBeFocused();
  const item = page.getByRole('region', { name: 'Item to code' }).locator('[data-post-id]').first();
  const fields = page.getByRole('group', { name: /^Codes/ });
  for (let i = 0; i < 60; i++) {
    const id = (await item.getAttribute('data-post-id'))!;
    const c = choice(id, coder);
    // blind: nothing of another coder's shows
    await expect(fields.getByRole('button', { pressed: true })).toHaveCount(0);
    await page.keyboard.press(String(c + 1));
    await expect(fields.getByRole('button', { pressed: true })).toHaveCount(1);
    pressed.set(id, c);
    if (i < 59) {
      await page.keyboard.press('j');
      await expect(progress).toContainText(`Item ${i + 2} of 60`);
    }
  }
  await expect(progress).toContainText('60 done');
}

test('a stratified sample of 100 coded blind by two coders with 20 % overlap; α and κ; reconciliation', async ({
  skein,
}, testInfo) => {
  hostOnly(testInfo);
  test.setTimeout(300_000);
  const { page } = skein;
  await page.setViewportSize({ width: 1280, height: 800 });
  // browse: pages of the demo's big thread fill the demo project
  const ex = await demoExamples(page);
  let cursor: string | null = null;
  for (let i = 0; i < 10; i++) {
    const data = await apiCall(page, 'postRepliesV2', { tweetId: ex.bigThreadPostId, ...(cursor ? { cursor } : {}) });
    cursor = data.paging?.nextCursor ?? null;
    if (!cursor) break;
  }

  // from Home, as a person starts: the coding job opens on the codebook
  const jobs = page.getByRole('region', { name: 'What do you want to do?' });
  await expect(jobs.getByRole('link', { name: 'Code a sample with a colleague' })).toBeVisible();
  await shootLooks(page, testInfo, 'coding-01-home');
  await jobs.getByRole('link', { name: 'Code a sample with a colleague' }).click();
  await expect(page.getByRole('heading', { name: 'Coding', level: 1 })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Codebook' })).toHaveAttribute('aria-selected', 'true');
  await shootLooks(page, testInfo, 'coding-02-codebook-starter');

  // a codebook: the starter's Stance field, renamed
  await page.getByLabel('Codebook name').fill('Stance toward the claim');
  await page.getByRole('button', { name: 'Create codebook' }).click();
  await expect(page.getByRole('combobox', { name: 'Codebook', exact: true })).toHaveValue(/\d+/);
  await expect(page.getByTestId('codebook-version')).toContainText('Version 1');
  await shootLooks(page, testInfo, 'coding-03-codebook-made');

  // two named coders
  await page.getByRole('tab', { name: 'Coders' }).click();
  for (const name of ['Ana', 'Ben']) {
    await page.getByLabel('New coder’s name').fill(name);
    await page.getByRole('button', { name: 'Add coder' }).click();
    await expect(page.locator('.coders__list').getByText(name, { exact: true })).toBeVisible();
  }
  await shootLooks(page, testInfo, 'coding-04-coders');

  // a stratified sample of 100, 20 % double-coded
  await page.getByRole('tab', { name: 'Samples' }).click();
  const form = page.getByRole('form', { name: 'Draw a sample' });
  await form.getByLabel('Name', { exact: true }).fill('Pilot');
  await form.getByLabel('Drawn').selectOption('stratified');
  await form.getByLabel('Stratified by').selectOption('day');
  await form.getByLabel('Size').fill('100');
  await form.getByLabel('Seed').fill('pilot-2026');
  await form.getByLabel('Double-coded (%)').fill('20');
  await form.getByRole('checkbox', { name: 'Ana' }).check();
  await form.getByRole('checkbox', { name: 'Ben' }).check();
  await expect(page.getByTestId('sample-represents')).toContainText('100 of them is');
  await expect(page.getByTestId('sample-represents')).toContainText('20 double-coded by all 2 coders');
  await shootLooks(page, testInfo, 'coding-05-sample-form', { show: page.getByTestId('sample-represents') });
  await form.getByRole('button', { name: 'Draw and assign' }).click();
  const listed = page.getByRole('listitem', { name: 'Sample Pilot' });
  await expect(listed).toContainText('100 posts of');
  await expect(listed).toContainText('stratified by day');
  await expect(listed).toContainText('Ana: 0 of 60 done');
  await expect(listed).toContainText('Ben: 0 of 60 done');

  // the step guide: a codebook, two coders and a sample made; coding is next
  const steps = page.getByRole('navigation', { name: 'Coding steps' });
  await expect(steps.getByRole('listitem')).toHaveText([
    /Codebook\s*done/,
    /Coders\s*done/,
    /Sample\s*done/,
    /Code\s*next/,
    /Agreement\s*to do/,
    /Reconcile\s*to do/,
    /Share\s*to do/,
  ]);
  await shootLooks(page, testInfo, 'coding-06-sample-drawn', { show: listed });

  // the workbench owns its keys and reads its item in place
  await page.getByRole('tab', { name: 'Code', exact: true }).click();
  await codeAs(page, 'Ana');
  const progress = page.getByTestId('coding-progress');
  await expect(progress).toContainText('Item 1 of 60 · 0 done');
  // the first key after choosing who codes already codes (the picker let go of the focus); again clears it
  await expect(page.getByRole('region', { name: 'Coding workbench' })).toBeFocused();
  await shootLooks(page, testInfo, 'coding-07-workbench-first-item');
  // in a small window the codes stack above the item, in sight while their keys are pressed
  await page.setViewportSize({ width: 760, height: 800 });
  await expect(page.getByRole('region', { name: 'Codes' })).toBeInViewport();
  await page.setViewportSize({ width: 1280, height: 800 });
  const codes = page.getByRole('group', { name: /^Codes/ });
  await page.keyboard.press('1');
  await expect(codes.getByRole('button', { pressed: true })).toHaveCount(1);
  await page.keyboard.press('1');
  await expect(codes.getByRole('button', { pressed: true })).toHaveCount(0);
  await page.getByRole('tab', { name: 'Code', exact: true }).focus();
  await page.keyboard.press('ArrowRight');
  await expect(progress).toContainText('Item 2 of 60');
  await expect(page.getByRole('tab', { name: 'Code', exact: true })).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('ArrowLeft');
  await expect(progress).toContainText('Item 1 of 60');
  await expect(page.getByRole('tab', { name: 'Code', exact: true })).toHaveAttribute('aria-selected', 'true');
  const control = await sandbox(skein);
  const callsBefore = (await control.requests()).length;
  const itemRegion = page.getByRole('region', { name: 'Item to code' });
  await itemRegion.locator('.post__text').first().click();
  await expect(progress).toContainText('Item 1 of 60');
  await expect(itemRegion.getByRole('link', { name: 'Open post page' })).toBeVisible();
  expect((await control.requests()).length).toBe(callsBefore);
  await shootLooks(page, testInfo, 'coding-08-read-in-place');

  // both code blind, by keyboard
  const ana = new Map<string, number>();
  const ben = new Map<string, number>();
  await codeQueue(page, 'Ana', ana);
  await shootLooks(page, testInfo, 'coding-09-ana-done');
  // coding as someone else is asked first (here: not yet)
  await page.getByRole('button', { name: 'Switch coder…' }).click();
  const asked = page.getByRole('dialog', { name: 'Code as someone else?' });
  await expect(asked).toContainText('the switch is recorded in the project');
  await shootLooks(page, testInfo, 'coding-10-switch-coder-dialog');
  await asked.getByRole('button', { name: 'Cancel' }).click();
  await expect(asked).toBeHidden();
  await expect(page.getByTestId('coding-as')).toHaveText('Ana');
  await codeQueue(page, 'Ben', ben);
  const both = [...ana.keys()].filter((id) => ben.has(id));
  expect(both).toHaveLength(20);

  // Ana chooses to see agreement: α and κ equal the computation from what each pressed
  await codeAs(page, 'Ana');
  await page.getByRole('tab', { name: 'Agreement' }).click();
  await expect(page.getByText('Coding is blind')).toBeVisible();
  await shootLooks(page, testInfo, 'coding-11-agreement-blind');
  await page.getByRole('button', { name: 'See agreement' }).click();
  const pairs = both.map((id) => [ana.get(id)!, ben.get(id)!] as [number, number]);
  const alpha = referenceAlpha(pairs);
  const kappa = referenceKappa(pairs);
  await expect(page.getByTestId('alpha-stance')).toHaveText(`nominal ${alpha.toFixed(3)}`);
  await expect(page.getByTestId('kappa-stance')).toHaveText(kappa.toFixed(3));
  const row = page
    .getByRole('table', { name: 'Agreement' })
    .getByRole('row')
    .filter({ has: page.getByTestId('alpha-stance') });
  await expect(row.getByRole('cell').nth(6)).toHaveText('20');
  await expect(row.getByRole('cell').nth(7)).toHaveText('2');
  // read in words: the convention named, the interval's width, and what more items would give
  const words = page.getByRole('region', { name: 'Agreement in words' });
  await expect(words).toContainText('by the usual convention');
  await expect(words).toContainText('With 20 items double-coded the interval is');
  await expect(words).toContainText('approximation');
  await shootLooks(page, testInfo, 'coding-12-agreement');
  await shootLooks(page, testInfo, 'coding-13-agreement-in-words', { show: words });

  // reconciliation: disagreements side by side, the decided value apart
  await page.getByRole('tab', { name: 'Reconcile' }).click();
  const disagreed = pairs.filter(([a, b]) => a !== b).length;
  expect(disagreed).toBeGreaterThan(0);
  await expect(page.getByTestId('disagreements')).toHaveText(`${disagreed} undecided ${disagreements(disagreed)}`);
  const first = page.locator('.reconcile__item').first();
  await expect(first.getByRole('row')).toHaveCount(2);
  await shootLooks(page, testInfo, 'coding-14-reconcile');
  await first.getByRole('group', { name: 'Decide' }).getByRole('button').first().click();
  await expect(page.getByTestId('disagreements')).toHaveText(
    `${disagreed - 1} undecided ${disagreements(disagreed - 1)}`,
  );
  await page.getByRole('checkbox', { name: 'Only undecided' }).uncheck();
  await expect(page.getByTestId('disagreements')).toHaveText(`${disagreed} ${disagreements(disagreed)}`);
  await expect(page.getByTestId('decided').first()).toContainText('(by Ana)');
  await shootLooks(page, testInfo, 'coding-15-decided', { show: page.getByTestId('decided').first() });
  // the coders' own values are untouched: agreement is the same
  await page.getByRole('tab', { name: 'Agreement' }).click();
  await expect(page.getByTestId('alpha-stance')).toHaveText(`nominal ${alpha.toFixed(3)}`);

  // sharing starts at Home too: its job opens the Files tab
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Home' }).click();
  await expect(jobs.getByRole('link', { name: 'Share or cite a dataset' })).toBeVisible();
  await shootLooks(page, testInfo, 'share-01-home');
  await jobs.getByRole('link', { name: 'Share or cite a dataset' }).click();
  await expect(page.getByRole('tab', { name: 'Files' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('heading', { name: 'Share-and-cite package' })).toBeVisible();
  await shootLooks(page, testInfo, 'share-02-files');

  // the package: what was written stays on screen, though the form is remade from the citation it saved
  // pseudonymising needs a key: said before any click, the button waiting for it
  const shareForm = page.getByRole('form', { name: 'Share package' });
  await expect(shareForm.getByText(/^Pseudonymising needs a key/)).toBeVisible();
  await expect(shareForm.getByRole('button', { name: 'Save the package…' })).toBeDisabled();
  await shootLooks(page, testInfo, 'share-03-package-needs-a-key', {
    show: shareForm.getByText(/^Pseudonymising needs a key/),
  });
  await page.getByRole('button', { name: 'Generate a key' }).click();
  await expect(page.getByText(/^Not set\./)).toHaveCount(0);
  await shareForm.getByLabel('Title').fill('Stance pilot');
  await shareForm.getByLabel(/^Authors, one per line/).fill('Example, Ana');
  // both packages at once, each named for what it allows
  await shareForm.getByRole('checkbox', { name: 'For re-hydration' }).check();
  await shootLooks(page, testInfo, 'share-04-both-packages', {
    show: shareForm.getByRole('button', { name: 'Save both packages…' }),
  });
  const zip = testInfo.outputPath('stance-pilot.zip');
  await skein.setSavePath(zip);
  await shareForm.getByRole('button', { name: 'Save both packages…' }).click();
  const written = page.getByRole('status', { name: 'Packages written' });
  await expect(written).toContainText('2 packages written');
  await expect(written.getByRole('listitem').filter({ hasText: 'For review' })).toContainText(
    testInfo.outputPath('stance-pilot.for-review.zip'),
  );
  await expect(written.getByRole('listitem').filter({ hasText: 'For re-hydration' })).toContainText(
    testInfo.outputPath('stance-pilot.for-rehydration.zip'),
  );
  await expect(written.getByRole('listitem').filter({ hasText: 'For re-hydration' })).toContainText('post_ids.txt');
  await written.getByRole('button', { name: 'Show for re-hydration in folder' }).click();
  // a browser window cannot open a folder: it says where the file is instead
  await expect(written).toContainText('This window cannot open a folder');
  await shootLooks(page, testInfo, 'share-05-written', { show: written });
  await expect(page.getByLabel('Title')).toHaveValue('Stance pilot');

  // the coders: the switches recorded, and how a colleague on another computer codes
  await page.getByRole('tab', { name: 'Coders' }).click();
  await page.getByText(/^Switches recorded in this project/).click();
  await expect(page.locator('.coders__switches')).toContainText('Ana → Ben');
  await page.getByRole('heading', { name: 'A colleague on another computer' }).scrollIntoViewIfNeeded();
  await expect(page.getByRole('heading', { name: 'A colleague on another computer' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Export or import a .qdpx (Files)' })).toBeVisible();
  await shootLooks(page, testInfo, 'coding-16-coders-switches', {
    show: page.getByRole('heading', { name: 'A colleague on another computer' }),
  });

  // coding where posts are shown: a thread, the post in focus, the same keys
  await page.getByRole('tab', { name: 'Code', exact: true }).click();
  await page.getByRole('checkbox', { name: 'Code in every view' }).check();
  await openThread(page, ex.bigThreadPostId);
  const panel = page.getByRole('complementary', { name: 'Coding panel' });
  await expect(panel).toBeVisible();
  await page.keyboard.press('j');
  const focused = page.locator('main article[data-post-id]:focus');
  await expect(focused).toHaveCount(1);
  const id = (await focused.getAttribute('data-post-id'))!;
  await expect(panel.getByTestId('coding-panel-item')).toHaveText(`post ${id}`);
  await page.keyboard.press('3');
  await expect(panel.getByRole('button', { name: /Neither/, pressed: true })).toBeVisible();
  // the panel never covers the post being coded: beside the view in a wide window, under it in a narrow one
  const main = page.getByRole('main');
  const overlap = (a: Box, b: Box) =>
    a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
  const seen = (post: Box, view: Box): Box | null => {
    const x = Math.max(post.x, view.x);
    const y = Math.max(post.y, view.y);
    const right = Math.min(post.x + post.width, view.x + view.width);
    const bottom = Math.min(post.y + post.height, view.y + view.height);
    return right > x && bottom > y ? { x, y, width: right - x, height: bottom - y } : null;
  };
  const wide = await Promise.all([focused.boundingBox(), panel.boundingBox()]);
  expect(overlap(wide[0]!, wide[1]!)).toBe(false);
  await shootLooks(page, testInfo, 'coding-17-coding-in-a-thread');
  // the panel sits above the status bar, which wraps to two lines in a small window
  await page.setViewportSize({ width: 760, height: 800 });
  const status = page.getByRole('contentinfo');
  await expect(status.getByRole('link', { name: 'Usage details' })).toBeInViewport();
  const [box, bar] = await Promise.all([panel.boundingBox(), status.boundingBox()]);
  expect(box!.y + box!.height).toBeLessThanOrEqual(bar!.y);
  // and under the view: what a person sees of the post in focus is never behind it
  await focused.scrollIntoViewIfNeeded();
  const [post, view, under] = await Promise.all([focused.boundingBox(), main.boundingBox(), panel.boundingBox()]);
  const visible = seen(post!, view!);
  expect(visible).not.toBeNull();
  expect(overlap(visible!, under!)).toBe(false);
  expect(view!.y + view!.height).toBeLessThanOrEqual(under!.y);
  // in between, where beside the view would leave it too narrow to read, the panel is under it too
  await page.setViewportSize({ width: 1000, height: 800 });
  await focused.scrollIntoViewIfNeeded();
  const mid = await Promise.all([focused.boundingBox(), main.boundingBox(), panel.boundingBox()]);
  expect(mid[1]!.width).toBeGreaterThan(700);
  expect(overlap(seen(mid[0]!, mid[1]!)!, mid[2]!)).toBe(false);
  await page.setViewportSize({ width: 1280, height: 800 });
  await panel.getByRole('button', { name: 'Stop coding here' }).click();
  await expect(panel).toBeHidden();
});

// eslint-disable-next-line no-empty-pattern -- this spec writes the coding settings first, then launches its own app
test('a model endpoint a newer Skein set up is off here and said so; choosing one replaces it', async ({}, testInfo) => {
  hostOnly(testInfo);
  const userDataDir = await mkdtemp(join(tmpdir(), 'skein-e2e-coding-newer-'));
  const file = join(userDataDir, 'coding.json');
  await writeFile(file, JSON.stringify({ modelKind: 'local', modelBaseUrl: { path: '/models' } }));
  const app = await launchApp({ userDataDir });
  try {
    const { page } = app;
    await page.evaluate(() => (window.location.hash = '#/coding/coders'));
    const endpoint = page.getByRole('region', { name: 'Model endpoint' });
    await expect(endpoint.getByRole('note')).toContainText(
      'A newer Skein set up a kind of endpoint this Skein cannot use (“local”). It is off here and kept as it was',
    );
    await expect(page.getByTestId('model-endpoint')).toContainText('Now: off.');
    await shootLooks(page, testInfo, 'coding-newer-endpoint', { show: endpoint });
    await endpoint.getByRole('radio', { name: /demo stand-in/i }).check();
    await endpoint.getByRole('button', { name: 'Use this endpoint' }).click();
    await expect(page.getByTestId('model-endpoint')).toContainText('Now: the demo stand-in.');
    await expect(endpoint.getByRole('note')).toHaveCount(0);
    expect(app.host?.internalErrors() ?? []).toEqual([]);
  } finally {
    await app.close();
  }
  expect(JSON.parse(await readFile(file, 'utf8'))).toMatchObject({ modelKind: 'demo' });
  await rm(userDataDir, { recursive: true, force: true });
});
