/**
 * The browser shell as a user runs it: `node out/main/web.js` (what `npm run web`
 * runs), its printed URL opened in a browser. No test hook exists in this
 * process: exports land in the exports folder, and an allowed link opens as a
 * new tab of the browser.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from '@playwright/test';
import { ROOT, launchChromium } from './host';
import { expect, test } from './fixtures';
import { demoExamples, openThread } from './support/explorer';

let child: ChildProcess | undefined;
let browser: Browser | undefined;
let dir = '';
let output = '';

// eslint-disable-next-line no-empty-pattern
test.beforeEach(({}, testInfo) => {
  test.skip(testInfo.project.name === 'electron', 'the browser shell only');
});

test.afterEach(async () => {
  await browser?.close();
  if (child && child.exitCode === null) {
    const exited = new Promise((done) => child?.once('exit', done));
    child.kill('SIGTERM');
    await exited;
  }
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function startShell(): Promise<string> {
  dir = await mkdtemp(join(tmpdir(), 'skein-e2e-cli-'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    SKEIN_USER_DATA_DIR: join(dir, 'data'),
    SKEIN_EXPORTS_DIR: join(dir, 'exports'),
  };
  delete env.SKEIN_API_BASE_URL;
  delete env.SKEIN_API_KEY;
  const proc = spawn(process.execPath, [join(ROOT, 'out', 'main', 'web.js'), '--no-open'], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child = proc;
  proc.stdout.setEncoding('utf8');
  proc.stderr.setEncoding('utf8');
  proc.stderr.on('data', (chunk: string) => (output += chunk));
  return new Promise<string>((done, fail) => {
    proc.stdout.on('data', (chunk: string) => {
      output += chunk;
      const url = /http:\/\/127\.0\.0\.1:\d+\/__skein\/auth\?secret=[\w-]+/.exec(output)?.[0];
      if (url && output.includes('Press Ctrl+C')) done(url);
    });
    proc.once('exit', (code) => fail(new Error(`the shell exited (${code}): ${output}`)));
  });
}

test('npm run web: the printed URL opens Skein in demo mode; exports and links work without Electron', async () => {
  test.setTimeout(90_000);
  const url = await startShell();
  const secret = new URL(url).searchParams.get('secret') ?? '';
  expect(Buffer.from(secret, 'base64url').length).toBeGreaterThanOrEqual(16);
  expect(output.split(secret).length - 1).toBe(1);

  browser = await launchChromium();
  const context = await browser.newContext({ viewport: { width: 1280, height: 840 } });
  await context.route('https://example.org/**', (route) =>
    route.fulfill({ body: 'elsewhere', contentType: 'text/plain' }),
  );
  const page = await context.newPage();
  await page.goto(url);
  await expect(page.getByRole('main').first()).toBeVisible();
  expect(page.url()).not.toContain('secret');
  const info = await page.evaluate(() => window.skein!.app.info());
  expect(info).toMatchObject({ ok: true, data: { mode: 'demo' } });

  // an allowed link is a new tab of this browser, and Skein's own tab stays where it was
  const popup = context.waitForEvent('page');
  await page.evaluate(() => window.skein!.app.openExternal({ url: 'https://example.org/a?b=1' }));
  const tab = await popup;
  await tab.waitForLoadState();
  expect(tab.url()).toBe('https://example.org/a?b=1');
  expect(await tab.evaluate(() => window.opener === null)).toBe(true);
  await tab.close();

  // an export is written inside the exports folder, under the name Skein suggests
  const ex = await demoExamples(page);
  const replies = await openThread(page, ex.bigThreadPostId);
  await expect(replies.getByText('Original post')).toBeVisible();
  // no native menu: its shortcut (Ctrl/Cmd+E) is the page's
  await page.keyboard.press('Control+e');
  const dialog = page.getByRole('dialog', { name: /^Export/ });
  await dialog.getByRole('button', { name: 'Choose file and export' }).click();
  await expect(dialog.getByRole('status')).toContainText('Saved a partial export');
  // the name Skein suggests: skein-<kind>-<subject>-<UTC time>.json
  const written = (await readdir(join(dir, 'exports'))).filter((f) => /^skein-thread-.+-\d{8}T\d{6}Z\.json$/.test(f));
  expect(written).toHaveLength(1);
  const doc = JSON.parse(await readFile(join(dir, 'exports', written[0]!), 'utf8')) as { items: unknown[] };
  expect(doc.items.length).toBeGreaterThan(0);
  expect(output).not.toMatch(/failed|Error/);
});
