/**
 * Export from the thread view: the menu command opens the dialog, the save
 * path comes from main's dialog (the host answers it), and the file's
 * manifest and item count match what the view shows.
 */
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, hostOf, test } from './fixtures';
import { demoExamples, openThread } from './support/explorer';

interface Manifest {
  view: { kind: string; operation: string };
  requests: Array<{ params: Record<string, unknown> }>;
  scope: string;
  mode: string;
  pages: Array<{ cursor: string | null; from_cache: boolean }>;
  counts: { pages: number; items: number; calls: number };
  complete: boolean;
  incomplete_reason: string | null;
  files: string[];
  order: { value: string; note: string } | null;
  csv?: { flavour: string };
}

test('exporting a thread view writes a file whose manifest and item count match the view', async ({ skein }) => {
  test.setTimeout(90_000);
  const { page } = skein;
  const ex = await demoExamples(page);
  const dir = await mkdtemp(join(tmpdir(), 'skein-e2e-export-'));
  const replies = await openThread(page, ex.bigThreadPostId);

  // the menu command (Ctrl/Cmd+E) opens the dialog of the view on screen
  await skein.emit('menu', 'export');
  const dialog = page.getByRole('dialog', { name: /^Export/ });
  await expect(dialog).toBeVisible();
  // the export is named by the post's author and first words, not its id; the tab says what its count counts
  await expect(dialog.getByRole('heading', { level: 2 })).toHaveText(/^Export “Replies to @\w+: “.+”/);
  await expect(dialog.getByRole('heading', { level: 2 })).not.toContainText(ex.bigThreadPostId);
  await expect(page.getByRole('tab', { name: /^Replies [\d.,K]+ direct$/ })).toBeVisible();
  // what is loaded keeps the order on screen (it costs nothing), and says a ranked listing can leave replies out
  await expect(dialog.getByRole('radio', { name: /What is loaded now/ })).toBeChecked();
  await expect(dialog.getByRole('radio', { name: /^Relevance/ })).toBeChecked();
  await expect(dialog.getByRole('note')).toHaveText(/A relevance-ranked listing can leave replies out/);
  // fetching everything defaults to Latest, the complete order
  await dialog.getByRole('radio', { name: /Fetch everything/ }).check();
  await expect(dialog.getByRole('radio', { name: /^Latest/ })).toBeChecked();
  await expect(dialog.getByRole('note')).toHaveCount(0);
  // another order chosen on purpose: what is loaded (in Relevance order) is not that export
  await dialog.getByRole('radio', { name: /^Likes/ }).check();
  await expect(dialog.getByRole('note')).toHaveText(/like-ranked listing can leave replies out/);
  await expect(dialog.getByRole('radio', { name: /What is loaded now/ })).toBeDisabled();
  await expect(dialog.getByText(/loaded in Relevance order/)).toBeVisible();
  await dialog.getByRole('radio', { name: /^Relevance/ }).check();
  await dialog.getByRole('radio', { name: /What is loaded now/ }).check();
  const loadedLabel = dialog.getByText(/What is loaded now/);
  await expect(loadedLabel).toContainText(/\(\d[\d,]* items\)/);
  const shown = Number(
    (/\(([\d,]+) items\)/.exec((await loadedLabel.textContent()) ?? '')?.[1] ?? '').replace(/,/g, ''),
  );
  expect(shown).toBeGreaterThan(0);
  await expect(dialog.getByText('No new calls: everything comes from what Skein already loaded.')).toBeVisible();

  // "what is loaded now", as JSON (the default)
  const target = join(dir, 'thread.json');
  await skein.setSavePath(target);
  await dialog.getByRole('button', { name: 'Choose file and export' }).click();
  await expect(dialog.getByRole('status')).toContainText('Saved a partial export (only what the view had loaded)');
  // a unique stem with the UTC time: two exports of one view never overwrite each other
  expect(hostOf(skein).saveRequests().at(-1)?.defaultPath).toMatch(
    new RegExp(`^skein-thread-${ex.bigThreadPostId}-\\d{8}T\\d{6}Z\\.json$`),
  );

  const doc = JSON.parse(await readFile(target, 'utf8')) as {
    manifest: Manifest;
    items: Array<{ root_id: string; item: { id: string } }>;
  };
  expect(doc.items).toHaveLength(shown);
  expect(doc.manifest).toMatchObject({
    view: { kind: 'thread', operation: 'postRepliesV2' },
    scope: 'loaded',
    mode: 'demo',
    complete: false,
    incomplete_reason: 'loaded-only',
    counts: { items: shown, calls: 0 },
    files: [target],
    order: { value: 'Relevance' },
  });
  expect(doc.manifest.requests[0]?.params.tweetId).toBe(ex.bigThreadPostId);
  expect(doc.manifest.pages.every((p) => p.from_cache)).toBe(true);
  expect(new Set(doc.items.map((e) => e.root_id))).toEqual(new Set([ex.bigThreadPostId]));
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();

  // "fetch everything" with a page cap, as JSON Lines: partial, resumable, manifest beside it
  await replies.page().getByRole('button', { name: 'Export…' }).click();
  await expect(dialog).toBeVisible();
  await dialog.getByRole('radio', { name: /JSON Lines/ }).check();
  await dialog.getByRole('radio', { name: /Fetch everything/ }).check();
  await dialog.getByRole('textbox', { name: 'Pages' }).fill('3');
  const lines = join(dir, 'thread.jsonl');
  await skein.setSavePath(lines);
  await dialog.getByRole('button', { name: 'Choose file and export' }).click();
  await expect(dialog.getByRole('status')).toContainText('Saved a partial export (stopped at the page cap)');
  await expect(dialog.getByRole('button', { name: 'Resume' })).toBeVisible();
  const sidecar = JSON.parse(await readFile(join(dir, 'thread.jsonl.manifest.json'), 'utf8')) as Manifest;
  const written = (await readFile(lines, 'utf8')).trimEnd().split('\n');
  expect(sidecar).toMatchObject({
    scope: 'all',
    complete: false,
    incomplete_reason: 'cap-pages',
    counts: { pages: 3, items: written.length },
    order: { value: 'Latest' },
  });
  // each line: where it came from, beside the raw item
  expect(Object.keys(JSON.parse(written[0]!) as object)).toEqual(['__skein', 'root_id', 'parent_id', 'depth', 'item']);
  expect(sidecar.pages.map((p) => p.cursor)[0]).toBeNull();
  if (skein.host) expect(skein.host.internalErrors()).toEqual([]);
});

test('the CSV comes in two flavours, and the caps fields sit inside the dialog', async ({ skein }) => {
  test.setTimeout(90_000);
  const { page } = skein;
  const ex = await demoExamples(page);
  const dir = await mkdtemp(join(tmpdir(), 'skein-e2e-csv-'));
  const replies = await openThread(page, ex.bigThreadPostId);
  const dialog = page.getByRole('dialog', { name: /^Export/ });

  for (const [name, file] of [
    ['CSV for analysis', 'a.csv'],
    ['CSV for spreadsheets', 's.csv'],
  ] as const) {
    await replies.page().getByRole('button', { name: 'Export…' }).click();
    await expect(dialog).toBeVisible();
    await dialog.getByRole('radio', { name: new RegExp(name) }).check();
    await expect(dialog.getByRole('checkbox', { name: /One line per row/ })).toBeVisible();
    await dialog.getByRole('radio', { name: /^Relevance/ }).check();
    await dialog.getByRole('radio', { name: /What is loaded now/ }).check();
    await skein.setSavePath(join(dir, file));
    await dialog.getByRole('button', { name: 'Choose file and export' }).click();
    await expect(dialog.getByRole('status')).toContainText('Saved a partial export');
    await dialog.getByRole('button', { name: 'Close' }).click();
  }
  const analysis = await readFile(join(dir, 'a.csv'), 'utf8');
  expect(analysis.startsWith('id,')).toBe(true);
  expect(analysis.split('\n')[1]).toMatch(/^\d{15,19},/);
  const sheet = await readFile(join(dir, 's.csv'), 'utf8');
  expect(sheet.startsWith('\uFEFFid,')).toBe(true);
  expect(sheet.split('\n')[1]).toMatch(/^"=""\d{15,19}""",/);
  expect((JSON.parse(await readFile(join(dir, 'a.csv.manifest.json'), 'utf8')) as Manifest).csv?.flavour).toBe(
    'analysis',
  );

  // the caps: three fields in one row, each wholly inside the dialog, in a small window too
  for (const size of [
    { width: 1280, height: 800 },
    { width: 900, height: 600 },
  ]) {
    await page.setViewportSize(size);
    await replies.page().getByRole('button', { name: 'Export…' }).click();
    await dialog.getByRole('radio', { name: /Fetch everything/ }).check();
    const box = (await dialog.boundingBox())!;
    const fields = await Promise.all(
      ['Pages', 'Items', 'Credits'].map(async (n) => (await dialog.getByRole('textbox', { name: n }).boundingBox())!),
    );
    for (const f of fields) {
      expect(f.x).toBeGreaterThanOrEqual(box.x + 8);
      expect(f.x + f.width).toBeLessThanOrEqual(box.x + box.width - 8);
      expect(f.y).toBeCloseTo(fields[0]!.y, 0);
    }
    await dialog.getByRole('button', { name: 'Close' }).click();
  }
});

test("fetch everything on a thread: a range of calls and credits that holds the walk's, with its basis, narrowing as pages load", async ({
  skein,
}) => {
  test.setTimeout(180_000);
  const { page } = skein;
  const ex = await demoExamples(page);
  const sandbox = (await hostOf(skein).sandboxUrl())!;
  const dialog = page.getByRole('dialog', { name: /^Export/ });

  /** the calls a walk to the end takes, counted by asking the sandbox for every page (the judge, not the app) */
  const walkCalls = async (tweetId: string) => {
    let calls = 0;
    let cursor = '';
    for (;;) {
      const q = new URLSearchParams({ tweetId, queryType: 'Latest', ...(cursor ? { cursor } : {}) });
      const body = (await (await fetch(`${sandbox}/social/tweet/replies/v2?${q.toString()}`)).json()) as {
        has_next_page: boolean;
        next_cursor: string;
      };
      calls++;
      if (!body.has_next_page) return calls;
      cursor = body.next_cursor;
    }
  };
  /** the dialog's estimate for fetching everything, as it reads now: its middle, its range, its basis */
  const line = dialog.locator('.export__estimate p').first();
  const read = async () => {
    const [middle, low, high] = (
      /^About ([\d,]+) calls \(between ([\d,]+) and ([\d,]+)\)/.exec(await line.innerText()) ?? []
    )
      .slice(1)
      .map((v) => Number(v.replace(/,/g, '')));
    const basis = await dialog.locator('.export__estimate p.muted').innerText();
    return { middle: middle!, low: low!, high: high!, basis };
  };
  const open = async () => {
    await page.getByRole('button', { name: 'Export…' }).click();
    await dialog.getByRole('radio', { name: /Fetch everything/ }).check();
    await expect(line).toContainText(/^About [\d,]+ calls \(between [\d,]+ and [\d,]+\), about [\d,]+ credits/);
  };
  const estimate = async () => {
    await open();
    const e = await read();
    await dialog.getByRole('button', { name: 'Close' }).click();
    return e;
  };

  for (const root of [ex.bigThreadPostId, ex.wideThreadPostId]) {
    // the thread as it opens (most relevant first, one page): the estimate reads that page from the project
    const replies = await openThread(page, root);
    const truth = await walkCalls(root);
    const first = await estimate();
    expect(first.low).toBeLessThanOrEqual(truth);
    expect(first.high).toBeGreaterThanOrEqual(truth);
    expect(Math.max(first.middle / truth, truth / first.middle)).toBeLessThan(2);
    expect(first.basis).toMatch(/The post counts only its direct replies; its conversation is about [\d,]+ replies/);
    expect(first.basis).toMatch(/loaded in most relevant order/);
    if (root !== ex.wideThreadPostId) continue;
    // two more pages loaded in the view: the range holds the truth and narrows
    const lastIndex = async () => {
      await page.locator('main').evaluate((m) => m.scrollTo(0, m.scrollHeight));
      return Number(await replies.locator('.vlist__row').last().getAttribute('data-index'));
    };
    await expect.poll(lastIndex, { timeout: 30_000 }).toBeGreaterThanOrEqual(55);
    // the dialog asks again as it opens: the estimate reads the pages the project holds now
    await open();
    await expect.poll(async () => (await read()).high - (await read()).low).toBeLessThan(first.high - first.low);
    const later = await read();
    expect(later.low).toBeLessThanOrEqual(truth);
    expect(later.high).toBeGreaterThanOrEqual(truth);
    await dialog.getByRole('button', { name: 'Close' }).click();
  }
});
