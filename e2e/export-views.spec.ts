/**
 * Export from the views beyond the thread: each view has one
 * Export button (the menu command opens exactly one dialog), and the JSON it
 * writes names the view's operation and params and holds the items the view
 * shows. The save path comes from main's dialog, which the host answers.
 */
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { expect, test, type SkeinApp } from './fixtures';
import { demoExamples, openRoute, scrollToListEnd } from './support/explorer';

interface Manifest {
  view: { kind: string; operation: string; title: string | null };
  requests: Array<{ operation: string; params: Record<string, unknown> }>;
  scope: string;
  counts: { pages: number; items: number; calls: number };
  complete: boolean;
  incomplete_reason: string | null;
  files: string[];
}

interface ExportDoc {
  manifest: Manifest;
  items: Array<Record<string, unknown>>;
}

const exportButton = (page: Page) => page.getByRole('button', { name: 'Export…', exact: true });
const exportDialog = (page: Page) => page.getByRole('dialog', { name: /^Export/ });

/** The menu command (Ctrl/Cmd+E) opens exactly one export dialog, the one of the view on screen. */
async function openExportByMenu(skein: SkeinApp, page: Page): Promise<Locator> {
  await skein.emit('menu', 'export');
  const dialog = exportDialog(page);
  await expect(dialog).toBeVisible();
  await expect(exportDialog(page)).toHaveCount(1);
  return dialog;
}

/** The items the open dialog says the view has loaded ("What is loaded now (N items)"). */
async function loadedItems(dialog: Locator): Promise<number> {
  const label = dialog.getByText(/What is loaded now/);
  await expect(label).toContainText(/\(\d[\d,]* items?\)/);
  return Number((/\(([\d,]+) items?\)/.exec((await label.textContent()) ?? '')?.[1] ?? '').replace(/,/g, ''));
}

/** In the open dialog: JSON (the default), "what is loaded now", saved to `target`; returns the file. */
async function saveJson(skein: SkeinApp, dialog: Locator, target: string): Promise<ExportDoc> {
  await expect(dialog.getByRole('radio', { name: /^JSON\b/ }).first()).toBeChecked();
  await skein.setSavePath(target);
  await dialog.getByRole('button', { name: 'Choose file and export' }).click();
  await expect(dialog.getByRole('status')).toContainText(/^(Done|Saved a partial export)/);
  const doc = JSON.parse(await readFile(target, 'utf8')) as ExportDoc;
  expect(doc.manifest.files).toEqual([target]);
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();
  return doc;
}

/** The rows a virtualized list has rendered: [place in the list, id of the row's card]. */
function rowsOnScreen(
  list: Locator,
  idAttribute: 'data-post-id' | 'data-user-id',
): Promise<Array<[number, string | null]>> {
  return list
    .locator('.vlist__row')
    .evaluateAll(
      (rows, attr) =>
        rows.map(
          (r) =>
            [
              Number(r.getAttribute('data-index')),
              r.querySelector(`:scope > [${attr}]`)?.getAttribute(attr) ?? null,
            ] as [number, string | null],
        ),
      idAttribute,
    );
}

/** The only Export button on screen opens the view's dialog. */
async function openExport(page: Page): Promise<Locator> {
  await expect(exportButton(page)).toHaveCount(1);
  await expect(exportButton(page)).toBeEnabled();
  await exportButton(page).click();
  const dialog = exportDialog(page);
  await expect(dialog).toBeVisible();
  return dialog;
}

test.describe('export from every kind of view', () => {
  let dir: string;
  test.beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'skein-e2e-export-views-'));
  });

  test('profile timeline: params follow the view options, items are the posts shown', async ({ skein }) => {
    test.setTimeout(90_000);
    const { page } = skein;
    const ex = await demoExamples(page);
    await openRoute(page, `#/user/${ex.profile.id}/posts`);
    const feed = page.getByRole('region', { name: `Posts by @${ex.profile.userName}` });
    await feed.scrollIntoViewIfNeeded(); // virtualized: rows exist once the list is on screen
    await expect(feed.locator('article[data-post-id]').first()).toBeVisible();

    let dialog = await openExport(page);
    let shown = await loadedItems(dialog);
    expect(shown).toBeGreaterThan(0);
    let doc = await saveJson(skein, dialog, join(dir, 'timeline.json'));
    expect(doc.manifest.view).toMatchObject({ kind: 'timeline', operation: 'userTimeline' });
    expect(doc.manifest.requests).toEqual([
      {
        operation: 'userTimeline',
        params: { userId: ex.profile.id, includeReplies: false, includeParentTweet: false },
      },
    ]);
    expect(doc.manifest).toMatchObject({ scope: 'loaded', counts: { items: shown, calls: 0 } });
    expect(doc.items).toHaveLength(shown);
    // every post rendered on screen is the file's item at the same place in the list
    const rendered = await rowsOnScreen(feed, 'data-post-id');
    expect(rendered.length).toBeGreaterThan(0);
    expect(rendered.map(([i]) => doc.items[i]?.id)).toEqual(rendered.map(([, id]) => id));

    // with replies: the export describes the view as it is now
    await page.getByRole('checkbox', { name: 'Include replies' }).check();
    await expect(page).toHaveURL(/replies=1/);
    await feed.scrollIntoViewIfNeeded();
    await expect(feed.locator('article[data-post-id]').first()).toBeVisible();
    dialog = await openExport(page);
    shown = await loadedItems(dialog);
    doc = await saveJson(skein, dialog, join(dir, 'timeline-replies.json'));
    expect(doc.manifest.requests[0]?.params).toEqual({
      userId: ex.profile.id,
      includeReplies: true,
      includeParentTweet: false,
    });
    expect(doc.items).toHaveLength(shown);
    if (skein.host) expect(skein.host.internalErrors()).toEqual([]);
  });

  test('people search scrolled to its end: every person shown, complete', async ({ skein }) => {
    test.setTimeout(90_000);
    const { page } = skein;
    await openRoute(page, '#/search?q=anne');
    const results = page.getByRole('region', { name: 'People matching “anne”' });
    await expect(results.locator('article[data-user-id]').first()).toBeVisible();
    await scrollToListEnd(page);
    const end = results.getByText(/^End of people · [\d,]+ people?$/);
    await expect(end).toBeVisible();
    const total = Number((/· ([\d,]+)/.exec((await end.textContent()) ?? '')?.[1] ?? '').replace(/,/g, ''));

    const dialog = await openExport(page);
    expect(await loadedItems(dialog)).toBe(total);
    await expect(dialog.getByRole('radio', { name: /Fetch everything/ })).toBeDisabled();
    const doc = await saveJson(skein, dialog, join(dir, 'people.json'));
    expect(doc.manifest.view).toMatchObject({ kind: 'peopleSearch', operation: 'userSearch' });
    expect(doc.manifest.requests).toEqual([{ operation: 'userSearch', params: { query: 'anne' } }]);
    expect(doc.manifest).toMatchObject({ complete: true, incomplete_reason: null, counts: { items: total, calls: 0 } });
    expect(doc.items).toHaveLength(total);
    const rendered = await rowsOnScreen(results, 'data-user-id');
    expect(rendered.length).toBeGreaterThan(0);
    expect(rendered.map(([i]) => doc.items[i]?.id)).toEqual(rendered.map(([, id]) => id));
  });

  test('list followers: the tab on screen owns the one Export, and the menu command opens it', async ({ skein }) => {
    test.setTimeout(90_000);
    const { page } = skein;
    const ex = await demoExamples(page);
    await openRoute(page, `#/list/${ex.listId}`);
    await expect(page.locator('article[data-post-id]').first()).toBeVisible();
    await expect(exportButton(page)).toHaveCount(1);
    await page.getByRole('tab', { name: 'Followers' }).click();
    // opened by its id alone, the list is named by a short id (the API has no list-info operation)
    const list = `list ${ex.listId.slice(0, 4)}…${ex.listId.slice(-4)}`;
    const followers = page.getByRole('region', { name: `Followers of ${list}` });
    await expect(followers.locator('.user-card, .entry').first()).toBeVisible();
    await expect(exportButton(page)).toHaveCount(1);
    await expect(exportButton(page)).toBeEnabled();

    // the menu command (Ctrl/Cmd+E) opens exactly one dialog: the followers'
    const dialog = await openExportByMenu(skein, page);
    await expect(dialog).toHaveAccessibleName(`Export “Followers of ${list}”`);
    const shown = await loadedItems(dialog);
    expect(shown).toBeGreaterThan(0);
    const doc = await saveJson(skein, dialog, join(dir, 'list-followers.json'));
    expect(doc.manifest.view).toMatchObject({ kind: 'listFollowers', operation: 'listFollowers' });
    expect(doc.manifest.requests).toEqual([{ operation: 'listFollowers', params: { list_id: ex.listId } }]);
    expect(doc.manifest).toMatchObject({ scope: 'loaded', counts: { items: shown, calls: 0 } });
    expect(doc.items).toHaveLength(shown);
  });

  test('trends: the ranked trends shown, with the place and count asked', async ({ skein }) => {
    test.setTimeout(60_000);
    const { page } = skein;
    await openRoute(page, '#/trends');
    await expect(page.getByRole('heading', { name: 'Trends · Worldwide', level: 1 })).toBeVisible();
    const ranked = page.getByRole('list', { name: 'Trends for Worldwide, ranked' });
    await expect(ranked.getByRole('listitem')).toHaveCount(30);
    const names = await ranked.locator('.trend__name').allTextContents();

    const dialog = await openExport(page);
    await expect(dialog.getByText(/What is loaded now/)).toHaveCount(0);
    const doc = await saveJson(skein, dialog, join(dir, 'trends.json'));
    expect(doc.manifest.view).toMatchObject({ kind: 'trends', operation: 'trends', title: 'Trends · Worldwide' });
    expect(doc.manifest.requests).toEqual([{ operation: 'trends', params: { woeid: 1, count: 30 } }]);
    expect(doc.manifest).toMatchObject({ complete: true, counts: { items: 30 } });
    // raw as received: the API may wrap each trend (`{trend: {name, …}}`)
    const nameOf = (t: Record<string, unknown>) =>
      ((t.trend as { name?: unknown } | undefined)?.name ?? t.name) as string;
    expect(doc.items.map(nameOf)).toEqual(names);
  });

  test('a community: its one record, by the id in view', async ({ skein }) => {
    test.setTimeout(60_000);
    const { page } = skein;
    const ex = await demoExamples(page);
    await openRoute(page, `#/community/${ex.communityId}`);
    const heading = page.getByRole('region', { name: 'Community' }).getByRole('heading', { level: 1 });
    await expect(heading).not.toBeEmpty();

    const dialog = await openExport(page);
    const doc = await saveJson(skein, dialog, join(dir, 'community.json'));
    expect(doc.manifest.view).toMatchObject({ kind: 'community', operation: 'communityInfo' });
    expect(doc.manifest.requests).toEqual([{ operation: 'communityInfo', params: { community_id: ex.communityId } }]);
    expect(doc.manifest).toMatchObject({ complete: true, counts: { items: 1 } });
    expect(doc.items).toHaveLength(1);
    const record = doc.items[0] as {
      data?: { community_results_by_rest_id?: { rest_id?: string; result?: { name?: string } } };
    };
    expect(record.data?.community_results_by_rest_id?.rest_id).toBe(ex.communityId);
    await expect(heading).toContainText(
      record.data?.community_results_by_rest_id?.result?.name ?? '(no name in the file)',
    );
    // a Members tab shown instead of the rules keeps the community's one Export
    await page.getByRole('tab', { name: 'Members' }).click();
    await expect(page.getByText('Community members are not available yet')).toBeVisible();
    await expect(exportButton(page)).toHaveCount(1);
  });

  test('the other views: one Export each, opened by the menu command, with their kind and params', async ({
    skein,
  }) => {
    test.setTimeout(120_000);
    const { page } = skein;
    const ex = await demoExamples(page);
    // each view is ready (its own content is in) before the menu command: never the previous view's button
    const views: Array<{
      hash: string;
      ready: Locator;
      kind: string;
      operation: string;
      params: Record<string, unknown>;
      items?: number;
    }> = [
      {
        hash: `#/post/${ex.bigThreadPostId}/direct`,
        ready: page.getByRole('region', { name: 'Direct replies' }),
        kind: 'directReplies',
        operation: 'postReplies',
        params: { tweetId: ex.bigThreadPostId },
      },
      {
        hash: `#/post/${ex.muchQuotedPostId}/quotes`,
        ready: page.getByRole('region', { name: 'Quotes' }),
        kind: 'quotes',
        operation: 'postQuotes',
        params: { tweetId: ex.muchQuotedPostId },
      },
      {
        hash: `#/user/${ex.profile.id}/mentions`,
        ready: page.getByRole('region', { name: `Posts mentioning @${ex.profile.userName}` }),
        kind: 'mentions',
        operation: 'userMentions',
        params: { userName: ex.profile.userName },
      },
      {
        hash: `#/list/${ex.listId}`,
        ready: page.getByRole('region', {
          name: `Posts of list ${ex.listId.slice(0, 4)}…${ex.listId.slice(-4)}, newest first`,
        }),
        kind: 'listPosts',
        operation: 'listTimeline',
        params: { listId: ex.listId },
      },
      {
        hash: `#/lookup/users?ids=${ex.profile.id},999`,
        ready: page.getByRole('status').filter({ hasText: 'Found 1 of 2 users' }),
        kind: 'usersByIds',
        operation: 'usersByIds',
        params: { userIds: `${ex.profile.id},999` },
        items: 1,
      },
      {
        hash: `#/lookup/posts?ids=${ex.mediaPostId}`,
        ready: page.getByRole('status').filter({ hasText: 'Found 1 of 1 posts' }),
        kind: 'postsByIds',
        operation: 'postsByIds',
        params: { tweet_ids: ex.mediaPostId },
        items: 1,
      },
      {
        hash: `#/space/${ex.endedSpaceId}`,
        ready: page.getByRole('region', { name: 'Audio space' }),
        kind: 'space',
        operation: 'spaceDetail',
        params: { space_id: ex.endedSpaceId },
        items: 1,
      },
    ];
    for (const v of views) {
      await test.step(v.kind, async () => {
        await openRoute(page, v.hash);
        await expect(v.ready).toBeVisible();
        await expect(exportButton(page)).toHaveCount(1);
        await expect(exportButton(page)).toBeEnabled();
        const dialog = await openExportByMenu(skein, page);
        const shown = v.items ?? (await loadedItems(dialog));
        const doc = await saveJson(skein, dialog, join(dir, `${v.kind}.json`));
        expect(doc.manifest.view).toMatchObject({ kind: v.kind, operation: v.operation });
        expect(doc.manifest.requests.map((r) => r.params)).toEqual([v.params]);
        expect(doc.manifest.counts.items).toBe(shown);
        expect(doc.items).toHaveLength(shown);
      });
    }
    if (skein.host) expect(skein.host.internalErrors()).toEqual([]);
  });
});
