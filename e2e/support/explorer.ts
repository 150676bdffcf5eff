/**
 * Helpers for the explorer specs: open a route, read the sandbox's showcase
 * ids, check accessibility with axe, and attach a screenshot of a view.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, type Locator, type Page, type TestInfo } from '@playwright/test';
import type { DemoExamples } from '../../src/shared/ipc/app';
import { hostOf, type SkeinApp } from '../fixtures';

/** The sandbox's showcase ids, through the app's own bridge. */
export async function demoExamples(page: Page): Promise<DemoExamples> {
  const res = await page.evaluate(() =>
    (window as unknown as { skein: { demo: { examples: () => Promise<unknown> } } }).skein.demo.examples(),
  );
  const env = res as { ok: boolean; data: DemoExamples | null };
  if (!env.ok || !env.data) throw new Error(`no demo examples: ${JSON.stringify(res)}`);
  return env.data;
}

/** Open a route by its hash (`#/post/1`), as a deep link would. */
export async function openRoute(page: Page, hash: string): Promise<void> {
  await page.evaluate((h) => {
    window.location.hash = h;
  }, hash);
}

/** Open a post's view and wait for its thread (its first row reads "Original post"); the Replies region. */
export async function openThread(page: Page, postId: string): Promise<Locator> {
  await openRoute(page, `#/post/${postId}`);
  const replies = page.getByRole('region', { name: 'Replies' });
  await expect(replies.getByText('Original post')).toBeVisible();
  return replies;
}

/** The hash the app shows now. */
export function currentHash(page: Page): Promise<string> {
  return page.evaluate(() => window.location.hash);
}

/** axe-core finds no serious or critical violation on what is on screen. */
export async function expectAccessible(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  const result = await new AxeBuilder({ page }).analyze();
  const bad = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  if (bad.length) {
    await testInfo.attach(`axe-${name}.json`, { body: JSON.stringify(bad, null, 2), contentType: 'application/json' });
  }
  expect(
    bad.map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help} — ${v.nodes
          .map((n) => n.target.join(' '))
          .slice(0, 3)
          .join(' | ')}`,
    ),
    `axe on ${name}`,
  ).toEqual([]);
}

/**
 * The view as a person sees it in light, dark and a small window (760 px), saved beside the test's results to be
 * looked at; the window is left at 1280×800, light. `show`: what the step is about, scrolled into view at each
 * size (a narrower window pushes it further down).
 */
export async function shootLooks(
  page: Page,
  testInfo: TestInfo,
  name: string,
  opts: { show?: Locator } = {},
): Promise<void> {
  for (const [scheme, width] of [
    ['light', 1280],
    ['dark', 1280],
    ['light', 760],
  ] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.setViewportSize({ width, height: 800 });
    if (opts.show) await opts.show.scrollIntoViewIfNeeded();
    await page.screenshot({ path: testInfo.outputPath(`${name}-${scheme}-${width}.png`) });
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1280, height: 800 });
}

/** Save a screenshot of the current view as a test artifact. */
export async function attachScreenshot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  await testInfo.attach(`${name}.png`, { body: await page.screenshot(), contentType: 'image/png' });
}

/**
 * Hold End on the view: keep the scroller at its bottom (each time the list grows the next page is
 * asked for) until the list's end marker (or its paging-stop note) shows.
 */
export async function scrollToListEnd(
  page: Page,
  opts: { timeoutMs?: number; pollingMs?: number } = {},
): Promise<void> {
  await page.waitForFunction(
    () => {
      const scroller = document.querySelector('main');
      if (scroller) scroller.scrollTop = scroller.scrollHeight;
      return document.querySelector('.list-end') !== null;
    },
    null,
    { polling: opts.pollingMs ?? 100, timeout: opts.timeoutMs ?? 30_000 },
  );
}

/**
 * Wait until an element stops moving: a virtual list re-measuring the cards it let go can shift one after it
 * shows, and a click aimed at it then lands on whatever moved under the pointer.
 */
async function untilStill(locator: Locator): Promise<void> {
  let last = '';
  let still = 0;
  await expect
    .poll(
      async () => {
        const b = await locator.boundingBox();
        const now = b ? `${b.x},${b.y},${b.width},${b.height}` : '';
        still = now !== '' && now === last ? still + 1 : 0;
        last = now;
        return still;
      },
      { intervals: [100] },
    )
    .toBeGreaterThanOrEqual(3);
}

/**
 * Click an element of a virtual list the way a person does: brought into view, then clicked once it holds still
 * (scrolling it in makes the list render and measure the cards around it, which can move it once more).
 */
export async function clickWhenStill(locator: Locator): Promise<void> {
  await locator.scrollIntoViewIfNeeded();
  await untilStill(locator);
  await locator.click();
}

/** The sandbox's control plane (faults, request log, ledger) of a launched app. */
export async function sandbox(app: SkeinApp) {
  const base = await hostOf(app).sandboxUrl();
  if (!base) throw new Error('this app runs without the demo sandbox');
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} ${path}: HTTP ${res.status} ${await res.text()}`);
    return res.status === 204 ? null : ((await res.json()) as unknown);
  };
  return {
    /** the sandbox's address (its stand-in timestamp authority publishes its CA at /tsa/certificate.pem) */
    baseUrl: base,
    /** inject a fault or quirk (`401`, `page-size;n=100`, `empty-page` …) for some operations */
    fault: (fault: string, operations: string[], count?: number) =>
      call('POST', '/__sandbox/faults', { fault, operations, count }),
    clearFaults: () => call('DELETE', '/__sandbox/faults'),
    /** every API request the sandbox received, oldest first */
    requests: async () =>
      (
        (await call('GET', '/__sandbox/requests')) as {
          requests: Array<{ url: string; operation: string | null; status: number }>;
        }
      ).requests,
    clearRequests: () => call('DELETE', '/__sandbox/requests'),
    /** every media file the sandbox served, oldest first, with who asked (`Skein` when the app kept it) */
    mediaRequests: async () =>
      (
        (await call('GET', '/__sandbox/media-requests')) as {
          requests: Array<{ url: string; status: number; agent: string }>;
        }
      ).requests,
    clearMediaRequests: () => call('DELETE', '/__sandbox/media-requests'),
    /** every page of the small web the sandbox served, oldest first, with who asked */
    webRequests: async () =>
      (
        (await call('GET', '/__sandbox/web-requests')) as {
          requests: Array<{ url: string; status: number; agent: string }>;
        }
      ).requests,
    clearWebRequests: () => call('DELETE', '/__sandbox/web-requests'),
    /** the URLs sent to the stand-in save service, with when each came (the sandbox clock's epoch ms) */
    saveRequests: async () =>
      (
        (await call('GET', '/__sandbox/save-requests')) as {
          requests: Array<{ at: number; url: string; status: number; agent: string }>;
        }
      ).requests,
    clearSaveRequests: () => call('DELETE', '/__sandbox/save-requests'),
  };
}

export interface PostLike {
  id: string;
  quoteCount?: number;
  replyCount?: number;
  text?: string;
  author?: { userName: string; id: string };
  entities?: {
    media?: unknown[];
    urls?: Array<{ expanded_url: string; display_url: string }>;
    user_mentions?: Array<{ screen_name: string }>;
  } | null;
  quoted_tweet?: PostLike | null;
}

/** One API call through the app's own bridge (as the renderer makes it). */
export async function apiCall(page: Page, operation: string, params: Record<string, string | number | boolean>) {
  const res = (await page.evaluate(
    ({ operation, params }) =>
      (window as unknown as { skein: { api: { call: (i: unknown) => Promise<unknown> } } }).skein.api.call({
        operation,
        params,
      }),
    { operation, params },
  )) as { ok: boolean; error?: unknown; data: { items: unknown[]; paging: { nextCursor: string | null } | null } };
  if (!res.ok) throw new Error(`${operation} failed: ${JSON.stringify(res.error)}`);
  return res.data;
}

/**
 * Page through an operation until a post matches (for showcase cases the
 * examples do not name: a quoted quote, several images).
 */
export async function findPost(
  page: Page,
  operation: string,
  params: Record<string, string | number | boolean>,
  predicate: (p: PostLike) => boolean,
  maxPages = 10,
): Promise<PostLike> {
  let cursor: string | null = null;
  for (let i = 0; i < maxPages; i++) {
    const data = await apiCall(page, operation, { ...params, ...(cursor ? { cursor } : {}) });
    const hit = (data.items as PostLike[]).find(predicate);
    if (hit) return hit;
    cursor = data.paging?.nextCursor ?? null;
    if (!cursor) break;
  }
  throw new Error(`no matching post in ${maxPages} pages of ${operation}`);
}

/**
 * Specs that drive the sandbox's control plane or read what main handed to
 * the system browser run on the test host only: the Electron project cannot
 * reach the app process's sandbox, nor record external opens.
 */
export function hostOnly(testInfo: TestInfo): void {
  testInfo.skip(
    testInfo.project.name === 'electron',
    'needs the test host (sandbox control plane, recorded external opens)',
  );
}

/**
 * Virtualization as a person would see it, whatever the heights of the posts on screen: far fewer rows in
 * the DOM than items loaded, and the rows on screen leave no blank between the top of the view and the
 * list's end (or the bottom of the view). Returns the rendered row count.
 */
export async function expectVirtualizedAndCovered(page: Page, loaded: number): Promise<number> {
  const measure = () =>
    page.evaluate(() => {
      const view = document.querySelector('main')!.getBoundingClientRect();
      const end = document.querySelector('.list-end')?.getBoundingClientRect();
      const bottom = Math.min(view.bottom, end && end.top > view.top ? end.top : view.bottom);
      const rows = [...document.querySelectorAll('main .vlist__row')].map((r) => r.getBoundingClientRect());
      const spans = rows
        .map((r) => [Math.max(r.top, view.top), Math.min(r.bottom, bottom)] as const)
        .filter(([a, b]) => b > a)
        .sort((x, y) => x[0] - y[0]);
      // the widest blank inside [first row's top, bottom]: rows must tile what is between them
      let reach = spans[0]?.[0] ?? bottom;
      let blank = spans.length ? 0 : bottom - view.top;
      for (const [a, b] of spans) {
        blank = Math.max(blank, a - reach);
        reach = Math.max(reach, b);
      }
      blank = Math.max(blank, bottom - reach);
      return { rows: rows.length, visible: spans.length, blank: Math.round(blank) };
    });
  await expect
    .poll(async () => (await measure()).blank, { message: 'rows cover the view with no blank' })
    .toBeLessThanOrEqual(1);
  const { rows, visible } = await measure();
  expect(visible).toBeGreaterThan(0);
  expect(rows, `rows in the DOM for ${loaded} items loaded`).toBeLessThan(Math.min(120, loaded / 10));
  return rows;
}

/**
 * The `datetime` of the posts of a virtualized list in list order, at least `min` of them: scrolls the view
 * down a screen at a time until that many distinct rows have been seen (a tall post can leave only one or two
 * rows on screen), then back to the top.
 */
export async function postTimesInOrder(list: Locator, min: number): Promise<number[]> {
  const seen = new Map<number, number>();
  const page = list.page();
  for (let step = 0; step < 40 && seen.size < min; step++) {
    const rows = await list.locator('.vlist__row').evaluateAll((els) =>
      els.flatMap((r) => {
        const time = r.querySelector('article[data-post-id] time')?.getAttribute('datetime');
        return time ? [[Number(r.getAttribute('data-index')), Date.parse(time)] as [number, number]] : [];
      }),
    );
    for (const [i, t] of rows) seen.set(i, t);
    if (seen.size >= min) break;
    await page.getByRole('main').evaluate((m) => (m.scrollTop += m.clientHeight * 0.8));
    await expect.poll(() => list.locator('.vlist__row').count()).toBeGreaterThan(0);
  }
  await page.getByRole('main').evaluate((m) => (m.scrollTop = 0));
  expect(seen.size, `posts seen in the list`).toBeGreaterThanOrEqual(min);
  return [...seen.entries()].sort((a, b) => a[0] - b[0]).map(([, t]) => t);
}

type CollectionBridge = {
  skein: {
    api: { call: (i: unknown) => Promise<{ ok: boolean; data: { paging: { nextCursor: string | null } | null } }> };
    archive: { saveSearch: (i: unknown) => Promise<{ ok: boolean; data: { id: number; items: number } }> };
  };
};

/**
 * A collection of the demo profile's posts in the demo project, as browsing its pages and "Save as collection"
 * would make it (set-up for what is done with a collection: its media, its linked pages).
 */
export async function profileCollection(page: Page, userId: string): Promise<{ id: number; items: number }> {
  return page.evaluate(async (id) => {
    const s = (window as unknown as CollectionBridge).skein;
    let cursor: string | null = null;
    for (let i = 0; i < 20; i++) {
      const params: Record<string, string> = cursor ? { userId: id, cursor } : { userId: id };
      const r = await s.api.call({ operation: 'userTimeline', params, callId: `profile-${i}` });
      cursor = r.data.paging?.nextCursor ?? null;
      if (!cursor) break;
    }
    return (await s.archive.saveSearch({ project: 'demo', name: 'Profile' })).data;
  }, userId);
}
