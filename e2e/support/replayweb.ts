/**
 * A WACZ opened in ReplayWeb.page itself, the tool researchers and courts are pointed to for web archives: its
 * published embed (`ui.js` and its service worker `sw.js`, one self-contained bundle each) served from a local
 * server beside the WACZ, in this test's Chromium, with no network. Its npm package cannot be a devDependency (its
 * own dependencies need a warcio newer than the registry here has, and pull in Electron's updater), so the
 * package's tarball is fetched once with `npm pack` — the registry is all this needs — into node_modules/.cache.
 * The package is AGPL-3.0: it is only run by the tests, never shipped.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { unzipSync, strFromU8 } from 'fflate';
import type { Browser } from '@playwright/test';
import { expect } from '../fixtures';

const VERSION = '2.5.3';
const CACHE = resolve(import.meta.dirname, '../../node_modules/.cache/replaywebpage');

/** The folder holding ReplayWeb.page's `ui.js` and `sw.js`, fetched if need be; null where npm cannot fetch it. */
export function replayWebPage(): string | null {
  const dir = join(CACHE, VERSION, 'package');
  if (existsSync(join(dir, 'ui.js')) && existsSync(join(dir, 'sw.js'))) return dir;
  try {
    mkdirSync(join(CACHE, VERSION), { recursive: true });
    const name = execFileSync('npm', ['pack', `replaywebpage@${VERSION}`, '--silent'], {
      cwd: join(CACHE, VERSION),
      encoding: 'utf8',
      timeout: 120_000,
    }).trim();
    execFileSync('tar', ['xzf', name, 'package/ui.js', 'package/sw.js'], { cwd: join(CACHE, VERSION) });
    return existsSync(join(dir, 'sw.js')) ? dir : null;
  } catch {
    return null;
  }
}

/** The pages a WACZ lists for a person to open (its `pages/pages.jsonl`, the header line left out). */
export function waczPages(path: string): Array<{ url: string; title?: string }> {
  const files = unzipSync(readFileSync(path), { filter: (f) => f.name === 'pages/pages.jsonl' });
  const text = strFromU8(files['pages/pages.jsonl'] ?? new Uint8Array());
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as { url?: string; title?: string; format?: string })
    .flatMap((p) => (p.url ? [{ url: p.url, ...(p.title ? { title: p.title } : {}) }] : []));
}

const TYPES: Record<string, string> = {
  '/': 'text/html',
  '/replay/': 'text/html',
  '/ui.js': 'application/javascript',
  '/replay/ui.js': 'application/javascript',
  '/replay/sw.js': 'application/javascript',
  '/archive.wacz': 'application/wacz+zip',
};

/**
 * Opens `url` from the WACZ at `path` in ReplayWeb.page and waits until the replayed page's title is `title`
 * (the title Skein read from the page when it captured it).
 */
export async function expectReplayed(
  browser: Browser,
  bundle: string,
  path: string,
  page: { url: string; title: string },
): Promise<void> {
  const bodies: Record<string, Buffer> = {
    '/': Buffer.from(
      `<!doctype html><html><head><script src="/ui.js"></script></head><body>
<replay-web-page source="/archive.wacz" url="${encodeURI(page.url)}" replayBase="/replay/" embed="replayonly"></replay-web-page>
</body></html>`,
    ),
    '/ui.js': readFileSync(join(bundle, 'ui.js')),
    // the replay frame's own page: what the service worker answers at its scope once it runs, and what this
    // server answers before it does (the frame may be opened first), both loading ui.js beside them
    '/replay/': Buffer.from(
      '<!doctype html><html><head><script src="./ui.js"></script></head><body><replay-app-main></replay-app-main></body></html>',
    ),
    '/replay/ui.js': readFileSync(join(bundle, 'ui.js')),
    '/replay/sw.js': readFileSync(join(bundle, 'sw.js')),
    '/archive.wacz': readFileSync(path),
  };
  const server = createServer((req, res) => {
    const at = new URL(req.url ?? '/', 'http://localhost').pathname;
    const body = bodies[at];
    if (!body) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': TYPES[at]!, 'content-length': body.length }).end(body);
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const context = await browser.newContext();
  try {
    const tab = await context.newPage();
    await tab.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    // the replayed page is the frame ReplayWeb.page serves at <collection>/<timestamp>mp_/<the page's URL>
    await expect
      .poll(
        async () => {
          const frame = tab.frames().find((f) => f.url().endsWith(`mp_/${page.url}`));
          // what is open instead, said in the failure
          if (!frame)
            return `no replayed page among the frames ${tab
              .frames()
              .map((f) => f.url())
              .join(', ')}`;
          return await frame.title().catch((e: unknown) => String(e));
        },
        { timeout: 60_000, message: `ReplayWeb.page replays ${page.url}` },
      )
      .toBe(page.title);
  } finally {
    await context.close();
    server.close();
  }
}
