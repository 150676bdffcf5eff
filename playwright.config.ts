/**
 * Two projects run the same specs: `chromium-host` (the built renderer in
 * Chromium with `window.skein` routed to the real main handlers in the test
 * process; runs everywhere) and `electron` (the real app; skipped with the
 * reason where no Electron binary exists). Specs use `e2e/fixtures`.
 * Results also go to `.tmp/results/playwright.json` (read by `.ci/run`).
 */
import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  outputDir: 'test-results',
  // a spec's whole budget: most shoot light, dark and a small window and run axe on each, which on a 2-core
  // runner with two browsers takes 15–25 s alone; its waits for conditions keep their own limits
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: true,
  forbidOnly: !!process.env.CI,
  // one retry on CI: a loaded 2-core runner can starve a browser; a retried pass is reported as flaky
  retries: process.env.CI ? 1 : 0,
  workers: 2,
  reporter: [['list'], ['json', { outputFile: process.env.SKEIN_PLAYWRIGHT_JSON ?? '.tmp/results/playwright.json' }]],
  use: { trace: 'retain-on-failure', screenshot: 'only-on-failure' },
  projects: [{ name: 'chromium-host' }, { name: 'electron' }],
});
