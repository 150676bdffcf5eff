/**
 * The demo sandbox writes Japanese posts (kanji and kana): the machine running
 * the app (CI, screenshots) must have a font for them, or every character is
 * the same empty box. Two different characters drawn in the app's font must
 * give two different pictures.
 */
import { expect, test } from './fixtures';

test('Japanese text renders as glyphs, not empty boxes', async ({ skein }) => {
  const { page } = skein;
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  const distinct = await page.evaluate(() => {
    const font = `24px ${getComputedStyle(document.body).fontFamily}`;
    const draw = (ch: string) => {
      const c = document.createElement('canvas');
      c.width = c.height = 40;
      const g = c.getContext('2d')!;
      g.font = font;
      g.fillText(ch, 4, 30);
      return c.toDataURL();
    };
    // a missing font draws every one of these as the same .notdef box
    const pictures = ['漢', '字', 'か', 'ナ'].map(draw);
    return new Set(pictures).size;
  });
  expect(distinct, 'install a CJK font (fonts-noto-cjk): .ci/run does').toBe(4);
});
