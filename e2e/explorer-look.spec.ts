/**
 * Light and dark follow the OS; both pass axe on a busy view (the thread).
 */
import { expect, test } from './fixtures';
import { attachScreenshot, demoExamples, expectAccessible, openThread } from './support/explorer';

for (const scheme of ['light', 'dark'] as const) {
  test(`the ${scheme} scheme follows the OS and stays accessible`, async ({ skein }, testInfo) => {
    const { page } = skein;
    await page.emulateMedia({ colorScheme: scheme });
    const ex = await demoExamples(page);
    await openThread(page, ex.bigThreadPostId);
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const [r = 0, g = 0, b = 0] = (background.match(/\d+/g) ?? []).map(Number);
    const luminance = (r + g + b) / 3;
    if (scheme === 'dark') expect(luminance).toBeLessThan(60);
    else expect(luminance).toBeGreaterThan(200);
    await expectAccessible(page, testInfo, `thread-${scheme}`);
    await attachScreenshot(page, testInfo, `thread-${scheme}`);
  });
}
