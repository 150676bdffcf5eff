/**
 * Saved jobs: "Save as job…" in the export dialog (a thread collection with a cap) and in the hydration dialog
 * writes a job file where the person chose, holding what the dialog would start — the view, the scope, the caps,
 * the format, a hydration's ids — and never the key or the API's address; nothing is bought by saving. The
 * collection's job run by the built runner (`skein run`) on the open project stops at its cap (exit 4), and the
 * Archive view lists the run and shows its file.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './host';
import { expect, hostOf, test } from './fixtures';
import { demoExamples, openRoute, openThread, shootLooks } from './support/explorer';

/** the built runner (`skein run …`) against the demo sandbox as a live API, to its end: its exit code and output */
async function runBuiltRunner(
  args: string[],
  dir: string,
  sandbox: string,
): Promise<{ code: number | null; printed: string }> {
  const runner = spawn(process.execPath, [join(ROOT, 'out', 'main', 'skein.js'), 'run', ...args], {
    env: {
      ...process.env,
      SKEIN_USER_DATA_DIR: join(dir, 'runner'),
      SKEIN_API_BASE_URL: sandbox,
      SKEIN_API_KEY: 'e2e-runner-key',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let printed = '';
  runner.stdout.on('data', (c: Buffer) => (printed += c.toString()));
  runner.stderr.on('data', (c: Buffer) => (printed += c.toString()));
  const code = await new Promise<number | null>((done) => runner.once('exit', done));
  return { code, printed };
}

test('Save as job… writes the dialog’s collection and hydration to job files without the key; a headless run is listed', async ({
  skein,
}) => {
  test.setTimeout(90_000);
  const { page } = skein;
  const ex = await demoExamples(page);
  const dir = await mkdtemp(join(tmpdir(), 'skein-e2e-jobs-'));
  const sandbox = (await hostOf(skein).sandboxUrl())!;
  const ledger = async () =>
    ((await (await fetch(`${sandbox}/__sandbox/usage`)).json()) as { totals: { calls: number } }).totals.calls;
  try {
    // the thread's collection, capped at two pages, saved instead of started
    const replies = await openThread(page, ex.bigThreadPostId);
    await replies.page().getByRole('button', { name: 'Export…' }).click();
    const dialog = page.getByRole('dialog', { name: /^Export/ });
    await dialog.getByRole('radio', { name: /JSON Lines/ }).check();
    await dialog.getByRole('radio', { name: /Fetch everything/ }).check();
    await dialog.getByRole('textbox', { name: 'Pages' }).fill('2');
    const before = await ledger();
    await skein.setSavePath(join(dir, 'thread.skein-job.json'));
    await dialog.getByRole('button', { name: 'Save as job…' }).click();
    await expect(dialog.getByRole('status')).toContainText('Saved as a job');
    await expect(dialog.getByRole('status')).toContainText('thread.skein-job.json');
    const thread = JSON.parse(await readFile(join(dir, 'thread.skein-job.json'), 'utf8')) as Record<string, unknown>;
    expect(thread).toMatchObject({
      skein_job: 1,
      kind: 'export',
      job: {
        view: { kind: 'thread', params: { tweetId: ex.bigThreadPostId } },
        format: 'jsonl',
        scope: 'all',
        caps: { maxPages: 2 },
      },
      destination: { path: 'thread.jsonl' },
    });
    const text = JSON.stringify(thread);
    expect(text).not.toContain(sandbox);
    expect(text).not.toMatch(/key/i);
    // saving started nothing: the dialog still offers to start, and nothing was bought
    await expect(dialog.getByRole('button', { name: 'Choose file and export' })).toBeVisible();
    expect(await ledger()).toBe(before);
    await dialog.getByRole('button', { name: 'Close' }).click();

    // a hydration's dialog: the ids travel in the file, not the id of the list kept on this computer
    const ids = [ex.muchQuotedPostId, ex.mediaPostId, '1999999999999999991'];
    await writeFile(join(dir, 'posts.txt'), `${ids.join('\n')}\n`);
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Hydrate ids' }).click();
    await page.getByLabel(/A file of post ids/).setInputFiles(join(dir, 'posts.txt'));
    await page.getByRole('button', { name: 'Read the ids' }).click();
    const panel = page.getByRole('region', { name: 'posts.txt' });
    await expect(panel.getByText('3 post ids ready to hydrate')).toBeVisible();
    await panel.getByRole('button', { name: 'Hydrate…' }).click();
    const hydrating = page.getByRole('dialog', { name: 'Hydrate “posts.txt”' });
    await hydrating.getByRole('radio', { name: /JSON Lines/ }).check();
    await skein.setSavePath(join(dir, 'read-back.skein-job.json'));
    await hydrating.getByRole('button', { name: 'Save as job…' }).click();
    await expect(hydrating.getByRole('status')).toContainText('Saved as a job');
    const hydration = JSON.parse(await readFile(join(dir, 'read-back.skein-job.json'), 'utf8')) as {
      job: { view: Record<string, unknown> };
    };
    expect(hydration).toMatchObject({
      skein_job: 1,
      kind: 'hydrate',
      ids: { entity: 'posts', list: ids },
      destination: { path: 'read-back.jsonl' },
    });
    expect(hydration.job.view.idsFrom).toBeUndefined();
    expect(await ledger()).toBe(before);

    // the collection's job run by the headless runner on the open project: the app lists it, with its file
    if (test.info().project.name !== 'electron') {
      const state = (await page.evaluate(() =>
        (window as unknown as { skein: { projects: { state: () => Promise<unknown> } } }).skein.projects.state(),
      )) as { ok: boolean; data: { demo: { location: string } | null } };
      const project = state.data.demo?.location;
      expect(project).toBeTruthy();
      const { code, printed } = await runBuiltRunner(
        [join(dir, 'thread.skein-job.json'), '--project', project ?? ''],
        dir,
        sandbox,
      );
      expect(code, printed).toBe(4);
      expect(printed).toMatch(/^page 2 /m);
      expect(printed).toContain('Stopped at its page cap');
      await openRoute(page, '#/archive');
      const runs = page.getByRole('region', { name: 'Jobs run without a window' });
      await expect(runs.getByRole('listitem')).toHaveCount(1);
      await expect(runs.getByRole('listitem')).toContainText('collection, stopped at its cap');
      await runs.getByRole('button', { name: 'Show the file' }).click();
      await expect(runs.getByRole('status')).toContainText(/Shown in your file manager|thread\.jsonl/);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('a watch saved as a job from its form is switched on by the built runner, which the Archive and Watches show', async ({
  skein,
}) => {
  test.setTimeout(90_000);
  const { page } = skein;
  const ex = await demoExamples(page);
  const dir = await mkdtemp(join(tmpdir(), 'skein-e2e-watch-job-'));
  const sandbox = (await hostOf(skein).sandboxUrl())!;
  const ledger = async () =>
    ((await (await fetch(`${sandbox}/__sandbox/usage`)).json()) as { totals: { calls: number } }).totals.calls;
  try {
    const list = (await (await fetch(`${sandbox}/__sandbox/lists/${ex.listId}`)).json()) as {
      members: Array<{ id: string }>;
    };
    const ids = list.members.slice(0, 4).map((m) => m.id);
    await page.getByRole('link', { name: 'Watches' }).click();
    await page.getByRole('button', { name: 'New watch' }).click();
    const form = page.getByRole('form', { name: 'New watch' });
    await form.getByLabel('Name').fill('Four accounts');
    await form.getByLabel('Targets').fill(ids.join(', '));
    await form.getByLabel('Run every (number)').fill('12');
    const save = form.getByRole('button', { name: 'Save as job…' });
    // nothing to save before the cost is estimated and the caps are set
    await expect(save).toBeDisabled();
    await form.getByRole('button', { name: 'Estimate the cost' }).click();
    await expect(form.getByTestId('whole-watch')).toHaveText(/over 7 days, first read included/);
    const before = await ledger();
    await skein.setSavePath(join(dir, 'four.skein-job.json'));
    await save.click();
    await expect(form.getByRole('status').filter({ hasText: 'Saved as a job' })).toContainText('four.skein-job.json');
    const file = JSON.parse(await readFile(join(dir, 'four.skein-job.json'), 'utf8')) as Record<string, unknown>;
    expect(file).toMatchObject({
      skein_job: 2,
      kind: 'watch',
      days: 7,
      watch: { name: 'Four accounts', targets: ids, schedule: { everyMinutes: 720, until: null } },
    });
    expect(JSON.stringify(file)).not.toContain(sandbox);
    expect(JSON.stringify(file)).not.toMatch(/key/i);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await form
        .locator('.watch-form__buttons')
        .screenshot({ path: test.info().outputPath(`watch-saved-as-job-buttons-${scheme}.png`) });
    }
    await page.emulateMedia({ colorScheme: 'light' });
    await shootLooks(page, test.info(), 'watch-saved-as-job');
    // saving switched nothing on and bought nothing
    expect(await ledger()).toBe(before);
    await expect(page.getByRole('article', { name: 'Four accounts' })).toHaveCount(0);

    if (test.info().project.name !== 'electron') {
      const state = (await page.evaluate(() =>
        (window as unknown as { skein: { projects: { state: () => Promise<unknown> } } }).skein.projects.state(),
      )) as { ok: boolean; data: { demo: { location: string } | null } };
      const project = state.data.demo?.location ?? '';
      const { code, printed } = await runBuiltRunner(
        [join(dir, 'four.skein-job.json'), '--project', project, '--once'],
        dir,
        sandbox,
      );
      expect(code, printed).toBe(0);
      expect(printed).toMatch(/Switched on watch \d+, until /);
      expect(printed).toMatch(/Ran what was due: 1 run, \d+ posts kept/);
      expect(await ledger()).toBeGreaterThan(before);

      await openRoute(page, '#/archive');
      const runs = page.getByRole('region', { name: 'Jobs run without a window' });
      const row = runs.getByRole('listitem').filter({ hasText: 'Four accounts' });
      await expect(row).toContainText('watch, switched on (run the job again, or from cron, to go on)');
      await row.getByRole('link', { name: 'Open Watches' }).click();
      await expect(page.getByRole('article', { name: 'Four accounts' })).toBeVisible();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
