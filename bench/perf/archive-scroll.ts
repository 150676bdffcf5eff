/**
 * 10. Scrolling the Archive view, held to the thread's scroll budgets (the same person scrolls both).
 *
 * Method: the 10,000-reply thread is fetched through main (`preloadThread`), so the project's archive holds
 * its posts, as it would after a researcher browsed it. Per speed, in a fresh renderer: open `#/archive` (every
 * kept post, newest first, 50 a page from the archive's worker, no API call), a 1.5 s warm-up scroll, back to
 * the top, then a run down over new cards and a run back up over the ones just seen, stepped by
 * `scrollRun` exactly as the thread's runs are. Held against the thread's budgets: frame interval p95/p99,
 * frames over 25 ms, long tasks, blank frames (2,400 px/s) and the anchor's jump; the renderer's CPU per frame
 * is printed beside them, the figure that does not depend on the machine's load.
 */
import type { Page } from '@playwright/test';
import { preloadThread, type BenchApp } from './app';
import { info, type Metric } from './budgets';
import { frameMetrics } from './frame-metrics';
import { scrollRun, type ScrollRun } from './page';
import { counters, probeEntries, resetProbe } from './scroll';
import { distribution, round } from './stats';

const SECTION = 'archive scroll';

/** Opens the Archive view once the project holds at least `min` posts (the worker ingests what main received). */
async function openArchive(app: BenchApp, min: number): Promise<void> {
  const { page } = app;
  const deadline = Date.now() + 60_000;
  for (;;) {
    await app.reload();
    await app.goto('#/archive');
    await page.waitForSelector('main .vlist article[data-post-id]', { timeout: 60_000 });
    if ((await holdsAtLeast(page, min)) || Date.now() > deadline) return;
  }
}

/** Whether the project the view reads holds at least `min` posts (asked as the view asks, by offset). */
async function holdsAtLeast(page: Page, min: number): Promise<boolean> {
  return page.evaluate(async (offset) => {
    const skein = (
      window as unknown as {
        skein: { archive: { search: (q: unknown) => Promise<{ ok: boolean; data?: { hits: unknown[] } }> } };
      }
    ).skein;
    const res = await skein.archive.search({ text: '', kind: 'post', offset, limit: 1 });
    return res.ok && (res.data?.hits.length ?? 0) > 0;
  }, min - 1);
}

export async function measureArchiveScroll(
  app: BenchApp,
  opts: { speeds: number[]; durationMs: number },
): Promise<{ metrics: Metric[]; detail: unknown }> {
  const { page } = app;
  const preload = await preloadThread(page, app.examples.bigThreadPostId, 'Relevance', 150);
  const want = Math.min(2000, preload.items);
  await openArchive(app, want);
  const kept = (await holdsAtLeast(page, want)) ? want : 0;
  const metrics: Metric[] = [
    info(
      'archiveScroll.kept',
      SECTION,
      `the archive holds at least ${want.toLocaleString('en-US')} posts`,
      kept,
      'posts',
    ),
  ];
  const details: unknown[] = [];
  for (const speed of opts.speeds) {
    await openArchive(app, 1);
    await page.evaluate(scrollRun, { speed, direction: 1 as const, durationMs: 1500 });
    await page.evaluate(() => {
      (document.querySelector('main') as HTMLElement).scrollTop = 0;
    });
    await page.waitForTimeout(500);
    const runs: ScrollRun[] = [];
    const cpu = { ms: 0, frames: 0 };
    const long: number[] = [];
    for (const direction of [1, -1] as const) {
      await resetProbe(page);
      const c0 = await counters(app);
      const r = await page.evaluate(scrollRun, { speed, direction, durationMs: opts.durationMs });
      const c1 = await counters(app);
      cpu.ms += ((c1.ThreadTime ?? 0) - (c0.ThreadTime ?? 0)) * 1000;
      cpu.frames += r.frames;
      long.push(...(await probeEntries(page)).longTasks.map((t) => t.duration));
      runs.push(r);
    }
    const intervals = runs.flatMap((r) => r.intervals);
    const d = distribution(intervals);
    const blank = runs.reduce((n, r) => n + r.blankFrames, 0);
    const jump = round(Math.max(0, ...runs.flatMap((r) => r.jumps)), 1);
    const f = frameMetrics({
      id: `archiveScroll.${speed}`,
      section: SECTION,
      speed,
      cpuPerFrameMs: round(cpu.ms / Math.max(1, cpu.frames), 2),
      intervals,
      distribution: d,
      longTaskMs: long,
      blankFrames: blank,
      worstJumpPx: jump,
    });
    metrics.push(f.cpu, ...f.frames, ...f.marks);
    details.push({
      speed,
      intervals: d,
      cpuPerFrameMs: round(cpu.ms / Math.max(1, cpu.frames), 2),
      runs: runs.map((r) => ({ frames: r.frames, distancePx: Math.round(r.distancePx), stalled: r.stalledFrames })),
    });
  }
  return { metrics, detail: { preload, kept, speeds: details } };
}
