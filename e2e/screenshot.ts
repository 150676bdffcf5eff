/**
 * Takes the README's screenshot through the e2e host (demo mode, built renderer):
 * `npm run build && npm run screenshot` → docs/screenshot.png
 */
import { join } from 'node:path';
import { ROOT, launchApp } from './host';

const app = await launchApp();
try {
  const { page } = app;
  await page.getByRole('link', { name: /A big thread/ }).click();
  await page.getByRole('article').nth(3).waitFor();
  await page.screenshot({ path: join(ROOT, 'docs', 'screenshot.png') });
} finally {
  await app.close();
}
