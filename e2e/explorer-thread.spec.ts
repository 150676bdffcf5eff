/**
 * The 10,000-reply thread: infinite scroll to its end, a bounded DOM, and
 * Back from a reply lands exactly where the user was.
 */
import { expect, test } from './fixtures';
import {
  attachScreenshot,
  demoExamples,
  expectVirtualizedAndCovered,
  hostOnly,
  openRoute,
  openThread,
  sandbox,
  scrollToListEnd,
} from './support/explorer';

test('scrolling the 10,000-reply thread to its end and back keeps the position', async ({ skein }, testInfo) => {
  hostOnly(testInfo);
  test.setTimeout(240_000);
  const { page } = skein;
  const ex = await demoExamples(page);
  // the live service pages replies v2 by 31–38; pages of 200 keep this run short on CI (50 pages, not 500)
  await (await sandbox(skein)).fault('page-size;n=200', ['postRepliesV2']);
  const replies = await openThread(page, ex.bigThreadPostId);

  // hold End: each time the list grows the next page is asked for, until the end marker shows
  const endMarker = replies.getByText(/^End of replies · 10,000 replies$/);
  await scrollToListEnd(page, { pollingMs: 50, timeoutMs: 200_000 });
  await expect(endMarker).toBeVisible();
  await attachScreenshot(page, testInfo, 'thread-end');

  // virtualized: ten thousand replies, a few dozen rows in the DOM, and they cover the view with no blank
  // (however tall the last replies are: with media and quotes the window may hold only two or three)
  await expectVirtualizedAndCovered(page, 10_000);

  // pick the last fully visible reply, open it, come back
  const before = await page.evaluate(() => {
    const main = document.querySelector('main')!;
    const box = main.getBoundingClientRect();
    const cards = [...document.querySelectorAll<HTMLElement>('main .vlist__row article[data-post-id]')].filter((el) => {
      const r = el.getBoundingClientRect();
      return r.top >= box.top + 60 && r.bottom <= box.bottom;
    });
    const card = cards.at(-1)!;
    return {
      id: card.dataset.postId!,
      top: Math.round(card.getBoundingClientRect().top),
      scrollTop: Math.round(main.scrollTop),
    };
  });
  await page.locator(`article[data-post-id="${before.id}"]`).first().locator('.post__time').click();
  await expect(page).toHaveURL(new RegExp(`#/post/${before.id}/replies$`));
  await expect(page.getByRole('heading', { name: 'Post', level: 1 })).toBeVisible();
  await page.keyboard.press('Alt+ArrowLeft');
  await expect(page).toHaveURL(new RegExp(`#/post/${ex.bigThreadPostId}$`));
  const back = page.locator(`article[data-post-id="${before.id}"]`).first();
  await expect(back).toBeVisible();
  await expect.poll(async () => Math.round((await back.boundingBox())?.y ?? -1)).toBe(before.top);
  await expect(endMarker).toBeVisible();
  await attachScreenshot(page, testInfo, 'thread-back');

  // and all the way back up, in big jumps: wherever it lands, the viewport shows posts, never a blank
  const visiblePosts = () =>
    page.evaluate(() => {
      const box = document.querySelector('main')!.getBoundingClientRect();
      return [...document.querySelectorAll('main article[data-post-id]')].filter((el) => {
        const r = el.getBoundingClientRect();
        return r.bottom > box.top && r.top < box.bottom;
      }).length;
    });
  for (let k = 1; k <= 10; k++) {
    await page.evaluate(
      (f) => {
        const main = document.querySelector('main')!;
        main.scrollTop = Math.round(main.scrollHeight * f);
      },
      1 - k / 10,
    );
    await expect.poll(visiblePosts).toBeGreaterThan(0);
  }
  await expect(replies.getByText('Original post')).toBeVisible();
});

test('the view scrolls on its own compositor layer, so scrolling does not repaint the window', async ({ skein }) => {
  const { page } = skein;
  const ex = await demoExamples(page);
  await openThread(page, ex.bigThreadPostId);

  // a scroller without an opaque background is painted into the window's layer at a device scale of 1
  // (LCD text): every scrolled frame then repaints and rasters the whole view on the renderer's main thread
  const cdp = await page.context().newCDPSession(page);
  const layers: { layerId: string; backendNodeId?: number }[] = [];
  cdp.on('LayerTree.layerTreeDidChange', (e) => layers.splice(0, layers.length, ...(e.layers ?? [])));
  const { result } = await cdp.send('Runtime.evaluate', { expression: 'document.getElementById("main")' });
  const { node } = await cdp.send('DOM.describeNode', { objectId: result.objectId });
  await cdp.send('LayerTree.enable');
  await page.locator('#main').evaluate((el) => (el.scrollTop += 400));
  await expect
    .poll(async () => {
      const own = layers.filter((l) => l.backendNodeId === node.backendNodeId);
      const reasons = await Promise.all(
        own.map(
          async (l) =>
            (await cdp.send('LayerTree.compositingReasons', { layerId: l.layerId })).compositingReasonIds ?? [],
        ),
      );
      return reasons.flat();
    })
    .toContain('OverflowScrolling');
  await cdp.detach();
});

test('the column lines stay the height of the window while the thread grows under them', async ({ skein }) => {
  const { page } = skein;
  const ex = await demoExamples(page);
  await openThread(page, ex.bigThreadPostId);

  // drawn as borders of the column, the lines grew with every card the list measured, and Chromium
  // re-rastered the whole scrolled view each time (frames over budget): they are a box of the window's height instead
  const geometry = () =>
    page.evaluate(() => {
      const main = document.getElementById('main')!.getBoundingClientRect();
      const column = document.querySelector('.view')!.getBoundingClientRect();
      const lines = document.querySelector('.view-rails__column')!;
      const r = lines.getBoundingClientRect();
      const style = getComputedStyle(lines);
      return {
        top: r.top - main.top,
        height: Math.round(r.height),
        windowHeight: Math.round(main.height),
        left: r.left - column.left,
        right: r.right - column.right,
        lines: [style.borderLeftWidth, style.borderRightWidth],
        scrollHeight: document.getElementById('main')!.scrollHeight,
      };
    });
  const first = await geometry();
  expect(first).toMatchObject({ top: 0, left: 0, right: 0, lines: ['1px', '1px'] });
  expect(first.height).toBe(first.windowHeight);
  let grown = first.scrollHeight;
  for (let k = 0; k < 4; k++) {
    const before = grown;
    await page.locator('#main').evaluate((el) => (el.scrollTop = el.scrollHeight));
    await expect.poll(async () => (grown = (await geometry()).scrollHeight)).toBeGreaterThan(before);
  }
  const after = await geometry();
  expect(after.scrollHeight).toBeGreaterThan(first.scrollHeight);
  expect(after).toMatchObject({ top: 0, left: 0, right: 0, height: first.height });
  // they take no room and let every pointer event through to the content under them
  await expect(page.locator('.view-rails')).toHaveCSS('pointer-events', 'none');
  await expect(page.locator('.view-rails')).toHaveCSS('height', '0px');
});

test('loading more keeps the Load more button, and its focus, under placeholders until the page lands', async ({
  skein,
}, testInfo) => {
  hostOnly(testInfo);
  const { page } = skein;
  const ex = await demoExamples(page);
  await openRoute(page, `#/post/${ex.bigThreadPostId}`);
  const replies = page.getByRole('region', { name: 'Replies' });
  const more = replies.getByRole('button', { name: 'Load more replies' });
  await expect(more).toBeEnabled();
  const lastRow = () =>
    replies
      .locator('.vlist__row')
      .evaluateAll((rows) => Math.max(...rows.map((r) => Number((r as HTMLElement).dataset.index))));

  // the page held long enough for every check of the loading state to run on a busy machine (1.5 s was not)
  await (await sandbox(skein)).fault('latency;ms=5000', ['postRepliesV2'], 1);
  await more.focus();
  const before = await lastRow();
  await page.keyboard.press('Enter');
  const loading = replies.getByRole('status').filter({ hasText: 'Loading more replies…' });
  await expect(loading).toBeAttached();
  await expect(replies.locator('.list-more__placeholders')).toBeVisible();
  await expect(more).toHaveAttribute('aria-disabled', 'true');
  await expect(more).toBeFocused();

  await expect(loading).toHaveCount(0, { timeout: 15_000 });
  await expect(more).not.toHaveAttribute('aria-disabled');
  await expect(more).toBeFocused();
  await expect(replies.locator('.list-more__placeholders')).toBeHidden();
  // the page is in: the list grew under the reader
  await expect.poll(lastRow).toBeGreaterThan(before);
});

test('opening a thread buys its first page only; the second comes when the reader scrolls', async ({
  skein,
}, testInfo) => {
  hostOnly(testInfo);
  const { page } = skein;
  const ex = await demoExamples(page);
  const control = await sandbox(skein);
  await control.clearRequests();
  const replies = await openThread(page, ex.bigThreadPostId);
  await expect(replies.locator('article[data-post-id]').nth(3)).toBeVisible();
  const threadCalls = async () => (await control.requests()).filter((r) => r.operation === 'postRepliesV2').length;
  // nothing asked for beyond the first page while the reader has not moved
  // a few frames after the rows arrived (where the near-end check runs), and the round trip of a call
  for (let i = 0; i < 3; i++)
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await page.evaluate(() =>
    (window as unknown as { skein: { app: { info: () => Promise<unknown> } } }).skein.app.info(),
  );
  expect(await threadCalls()).toBe(1);
  await page.locator('main').evaluate((m) => m.scrollTo(0, m.scrollHeight));
  await expect.poll(threadCalls).toBe(2);
});

test('in a small window the replies are in the page before the reader scrolls down to them', async ({
  skein,
}, testInfo) => {
  hostOnly(testInfo);
  const { page } = skein;
  await page.setViewportSize({ width: 760, height: 540 });
  const ex = await demoExamples(page);
  await openRoute(page, `#/post/${ex.bigThreadPostId}`);
  const replies = page.getByRole('region', { name: 'Replies' });
  // the post and the replies' controls fill the view: the list starts below its bottom
  await expect(page.getByRole('button', { name: 'Collapse all' })).toBeVisible();
  await expect
    .poll(() =>
      page.evaluate(() => {
        const list = document.querySelector('main .vlist')?.getBoundingClientRect();
        const view = document.querySelector('main')!.getBoundingClientRect();
        return list ? list.top >= view.bottom : null;
      }),
    )
    .toBe(true);
  // yet the first replies are there, for Tab and a screen reader, without a scroll
  await expect(replies.getByRole('article').nth(3)).toBeAttached();
  expect(await page.locator('main').evaluate((m) => m.scrollTop)).toBe(0);
  await attachScreenshot(page, testInfo, 'thread-small-window');
});

test('a thread opened a second time draws the replies where the reader scrolls to', async ({ skein }, testInfo) => {
  hostOnly(testInfo);
  const { page } = skein;
  await page.setViewportSize({ width: 760, height: 540 });
  const ex = await demoExamples(page);
  for (const visit of ['first', 'second']) {
    await openRoute(page, '#/');
    await expect(page.getByRole('heading', { name: 'Home' })).toBeVisible();
    // the second time the thread is in the app's cache: the list mounts with its view
    const replies = await openThread(page, ex.bigThreadPostId);
    // bring the list's top to the middle of the view, as Tab or a short scroll does
    await page.locator('main').evaluate((m) => {
      const list = m.querySelector('.vlist')!.getBoundingClientRect();
      m.scrollTop += list.top - m.getBoundingClientRect().top - m.clientHeight / 2;
    });
    await expect(replies.getByRole('article').first(), `${visit} visit`).toBeInViewport();
    await expect(replies.getByText('Original post'), `${visit} visit`).toBeInViewport();
    // and the rows below the view are rendered ahead (measured before a fast scroll brings them in)
    await expect.poll(() => replies.getByRole('article').count(), `${visit} visit`).toBeGreaterThanOrEqual(8);
  }
  await attachScreenshot(page, testInfo, 'thread-second-visit');
});
