/**
 * 1. Scroll and 2. prepend drift, on the sandbox's 10,000-reply conversation.
 *
 * Method (per speed, 2,400 and 9,000 px/s), each in a fresh renderer (reload:
 * empty query cache) on the same main, whose response store was filled first
 * (page.ts `preloadThread`) so pages arrive as fast as main can answer them
 * and the runs measure rendering, not the network; after a 1.5 s warm-up
 * scroll on another order of the thread (compiling, first image decodes):
 *  a. open the thread, scroll down for `durationMs` (every card is new, so
 *     unmeasured), then back up over what was just seen;
 *  b. hold End until ~1,000 more replies arrived (End renders only the last
 *     few cards of each page: the ones between are never measured), then
 *     scroll up for `durationMs` into those unmeasured cards.
 * Each run steps `scrollTop` in requestAnimationFrame by speed × elapsed time,
 * records frame intervals, blank frames and the anchor card's unexplained
 * movement (page.ts `scrollRun`), and the long tasks / long animation frames
 * the page's PerformanceObservers saw during the run.
 */
import type { Page } from '@playwright/test';
import { preloadThread, threadHash, waitForList, type BenchApp } from './app';
import { BUDGETS, budget, info, skipped, type Metric } from './budgets';
import { frameMetrics } from './frame-metrics';
import { idleFrames, loadUntil, scrollRun, type LongEntry, type ScrollRun } from './page';
import { distribution, round, shareAbove, type Distribution } from './stats';

const SECTION = 'scroll';

export interface ScrollDetail {
  speed: number;
  runs: Array<{
    name: string;
    frames: number;
    distancePx: number;
    stalledFrames: number;
    blankFrames: number;
    worstJumpPx: number;
    intervals: Distribution;
    /** renderer main thread per frame, ms: CPU (ThreadTime), wall time in tasks, script, layout, style */
    perFrameMs: Record<string, number>;
  }>;
  /** CPU time of the renderer's main thread per frame, over every run: the cost of a frame, whatever the load */
  cpuPerFrameMs: number;
  intervals: Distribution;
  slowFrameShare: number;
  longTasks: LongEntry[];
  loafs: LongEntry[];
  blankFrames: number;
  worstJumpPx: number;
  raster: RasterRun;
}

/** Chromium's counters for the renderer (CDP Performance.getMetrics): CPU and task time, seconds. */
export async function counters(app: BenchApp): Promise<Record<string, number>> {
  const { metrics } = await app.cdp.send('Performance.getMetrics');
  const out: Record<string, number> = {};
  for (const m of metrics) out[m.name] = m.value;
  return out;
}

const PER_FRAME = ['ThreadTime', 'TaskDuration', 'ScriptDuration', 'LayoutDuration', 'RecalcStyleDuration'] as const;

export async function probeEntries(page: Page): Promise<{ longTasks: LongEntry[]; loafs: LongEntry[] }> {
  return page.evaluate(() => {
    const p = window.__bench!;
    const out = { longTasks: [...p.longTasks], loafs: [...p.loafs] };
    p.reset();
    return out;
  });
}

export async function resetProbe(page: Page): Promise<void> {
  await page.evaluate(() => {
    const p = window.__bench!;
    p.longTasks.length = 0;
    p.loafs.length = 0;
  });
}

export interface RasterRun {
  frames: number;
  tasksPerFrame: number;
  rasterMsPerFrame: number;
  tiles: number;
  perTile: number;
  /** false: the trace did not complete within 30 s, and only what arrived was counted */
  traced: boolean;
}

/**
 * How much of the view Chromium rasters again while scrolling: one run down
 * into new cards, in a fresh renderer, traced (cc's `RasterTask` events over
 * CDP `Tracing`). Scrolling itself needs only the newly exposed tiles; a box
 * whose paint changes with every card measured (a border as tall as the list
 * was one: 22 tiles a frame) makes cc raster the same tiles again and again,
 * on the worker threads that share the machine with the renderer's main
 * thread. Apart from the measured runs, because tracing slows the page.
 */
async function rasterRun(app: BenchApp, speed: number, durationMs: number): Promise<RasterRun> {
  const { page, cdp } = app;
  const postId = app.examples.bigThreadPostId;
  await app.reload();
  await app.goto(threadHash(postId));
  await waitForList(page);
  await page.waitForTimeout(300);
  const tasks: Array<{ dur?: number; tile?: string }> = [];
  const onData = (e: { value: Array<Record<string, unknown>> }) => {
    for (const ev of e.value) {
      if (ev.name !== 'RasterTask') continue;
      const tile = (ev.args as { tileData?: { tileId?: { id_ref?: string } } } | undefined)?.tileData?.tileId?.id_ref;
      tasks.push({ dur: typeof ev.dur === 'number' ? ev.dur : undefined, tile });
    }
  };
  cdp.on('Tracing.dataCollected', onData);
  const complete = new Promise<void>((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()));
  await cdp.send('Tracing.start', { traceConfig: { includedCategories: ['cc'] }, transferMode: 'ReportEvents' });
  const r = await page.evaluate(scrollRun, { speed, direction: 1 as const, durationMs });
  await cdp.send('Tracing.end');
  // never let a lost event hold the whole bench: what arrived in 30 s is what is counted
  let timer: ReturnType<typeof setTimeout> | undefined;
  const traced = await Promise.race([
    complete.then(() => true),
    new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), 30_000))),
  ]);
  clearTimeout(timer);
  cdp.off('Tracing.dataCollected', onData);
  const frames = Math.max(1, r.frames);
  const tiles = new Set(tasks.map((t) => t.tile)).size;
  return {
    frames: r.frames,
    tasksPerFrame: round(tasks.length / frames, 1),
    rasterMsPerFrame: round(tasks.reduce((n, t) => n + (t.dur ?? 0), 0) / 1000 / frames, 2),
    tiles,
    perTile: round(tasks.length / Math.max(1, tiles), 1),
    traced,
  };
}

/** The machine's own frame cadence: rAF on the idle app for `ms`. */
export async function rafBaseline(app: BenchApp, ms = 3000): Promise<{ metrics: Metric[]; detail: Distribution }> {
  const intervals = await app.page.evaluate(idleFrames, ms);
  const d = distribution(intervals);
  return {
    detail: d,
    metrics: [
      info('baseline.raf.p50', SECTION, 'idle rAF interval p50 (machine cadence)', d.p50, 'ms'),
      info('baseline.raf.p95', SECTION, 'idle rAF interval p95 (machine cadence)', d.p95, 'ms'),
      info('baseline.raf.p99', SECTION, 'idle rAF interval p99 (machine cadence)', d.p99, 'ms'),
      info(
        'baseline.raf.slow',
        SECTION,
        `idle frames over ${BUDGETS.slowFrameMs} ms`,
        round(shareAbove(intervals, BUDGETS.slowFrameMs) * 100, 2),
        '%',
      ),
    ],
  };
}

export async function measureScroll(
  app: BenchApp,
  opts: { speeds: number[]; durationMs: number },
): Promise<{ metrics: Metric[]; details: ScrollDetail[] }> {
  const { page } = app;
  const postId = app.examples.bigThreadPostId;
  const metrics: Metric[] = [];
  const details: ScrollDetail[] = [];
  const preload = await preloadThread(page, postId, 'Relevance', 150);
  metrics.push(
    info(
      'scroll.preload',
      SECTION,
      `main's store filled with the thread (${preload.pages} pages, ${preload.items} posts)`,
      round(preload.ms / 1000, 1),
      's',
    ),
  );

  for (const speed of opts.speeds) {
    await app.reload();
    // warm-up on another order of the same thread: the first scroll of a fresh page compiles
    // the code paths and decodes the first images; the budgets are about scrolling, not that
    await app.goto(threadHash(postId, 'Likes'));
    await waitForList(page);
    await page.evaluate(scrollRun, { speed, direction: 1 as const, durationMs: 1500 });
    await app.goto(threadHash(postId));
    await waitForList(page);
    await page.waitForTimeout(500);
    const runs: ScrollDetail['runs'] = [];
    const all: ScrollRun[] = [];
    const longTasks: LongEntry[] = [];
    const loafs: LongEntry[] = [];
    const cpu = { ms: 0, frames: 0 };
    const arrivals = { pages: 0, dropped: 0, pagesDropping: 0 };
    const run = async (name: string, direction: 1 | -1) => {
      await resetProbe(page);
      const c0 = await counters(app);
      const r = await page.evaluate(scrollRun, { speed, direction, durationMs: opts.durationMs });
      const c1 = await counters(app);
      const calls = await page.evaluate(() =>
        window.__bench!.calls.filter((c) => c.operation === 'postRepliesV2' && c.items > 0),
      );
      const a = droppedOnArrival(r, calls);
      arrivals.pages += a.pages;
      arrivals.dropped += a.dropped;
      arrivals.pagesDropping += a.pagesDropping;
      const e = await probeEntries(page);
      const perFrameMs: Record<string, number> = {};
      for (const k of PER_FRAME)
        perFrameMs[k] = round((((c1[k] ?? 0) - (c0[k] ?? 0)) * 1000) / Math.max(1, r.frames), 2);
      cpu.ms += ((c1.ThreadTime ?? 0) - (c0.ThreadTime ?? 0)) * 1000;
      cpu.frames += r.frames;
      longTasks.push(...e.longTasks);
      loafs.push(...e.loafs);
      all.push(r);
      runs.push({
        name,
        frames: r.frames,
        distancePx: Math.round(r.distancePx),
        stalledFrames: r.stalledFrames,
        blankFrames: r.blankFrames,
        worstJumpPx: round(Math.max(0, ...r.jumps), 1),
        intervals: distribution(r.intervals),
        perFrameMs,
      });
    };
    await run('down (new cards)', 1);
    await run('up (cards just seen)', -1);
    const before = await page.evaluate(() => window.__bench!.itemsByOperation.postRepliesV2 ?? 0);
    await page.evaluate(loadUntil, { operation: 'postRepliesV2', target: before + 1000, timeoutMs: 90_000 });
    await page.waitForTimeout(300);
    await run('up into unmeasured cards', -1);
    const raster = await rasterRun(app, speed, Math.min(3000, opts.durationMs));

    const intervals = all.flatMap((r) => r.intervals);
    const d = distribution(intervals);
    const blank = all.reduce((n, r) => n + r.blankFrames, 0);
    const worstJump = round(Math.max(0, ...all.flatMap((r) => r.jumps)), 1);
    const slow = shareAbove(intervals, BUDGETS.slowFrameMs);
    const id = `scroll.${speed}`;
    const at = `at ${speed.toLocaleString('en-US')} px/s`;
    const cpuPerFrame = round(cpu.ms / Math.max(1, cpu.frames), 2);
    const f = frameMetrics({
      id,
      section: SECTION,
      speed,
      cpuPerFrameMs: cpuPerFrame,
      intervals,
      distribution: d,
      longTaskMs: longTasks.map((t) => t.duration),
      blankFrames: blank,
      worstJumpPx: worstJump,
    });
    metrics.push(
      f.cpu,
      info(`${id}.p50`, SECTION, `frame interval p50 ${at}`, d.p50, 'ms'),
      ...f.frames,
      info(
        `${id}.loafs`,
        SECTION,
        `long animation frames ${at}`,
        loafs.length,
        'count',
        loafs.length ? `longest ${Math.round(Math.max(...loafs.map((t) => t.duration)))} ms` : undefined,
      ),
      ...f.marks,
      budget(
        `${id}.arrival.dropped`,
        SECTION,
        `frames dropped as pages arrive while scrolling ${at}`,
        arrivals.dropped,
        'frames',
        BUDGETS.pageArrivalDroppedFrames,
        `${arrivals.pagesDropping} of ${arrivals.pages} pages arriving during the runs dropped a frame`,
      ),
      info(
        `${id}.raster`,
        SECTION,
        `tiles rastered per frame ${at}, down into new cards (a traced run apart)`,
        raster.tasksPerFrame,
        'tiles',
        `${raster.rasterMsPerFrame} ms of raster a frame; ${raster.tiles} tiles, each rastered ${raster.perTile}× over ${raster.frames} frames${raster.traced ? '' : ' (trace incomplete after 30 s: partial)'}`,
      ),
    );
    details.push({
      speed,
      raster,
      runs,
      cpuPerFrameMs: cpuPerFrame,
      intervals: d,
      slowFrameShare: slow,
      longTasks,
      loafs: loafs.slice(0, 50),
      blankFrames: blank,
      worstJumpPx: worstJump,
    });
  }
  return { metrics, details };
}

/**
 * Frames dropped around each page that arrived during a run: frame intervals ending between the answer and
 * two frames after its commit, each over `slowFrameMs` counting as the whole frames it missed.
 */
function droppedOnArrival(
  r: ScrollRun,
  calls: ReadonlyArray<{ answeredAt: number; handledAt: number | null }>,
): { pages: number; dropped: number; pagesDropping: number } {
  const frame = 1000 / 60;
  const first = r.times[0] ?? Infinity;
  const last = r.times.at(-1) ?? -Infinity;
  const out = { pages: 0, dropped: 0, pagesDropping: 0 };
  for (const c of calls) {
    if (c.answeredAt < first || c.answeredAt > last) continue;
    out.pages++;
    const until = (c.handledAt ?? c.answeredAt) + 2 * frame;
    let dropped = 0;
    for (let i = 1; i < r.times.length; i++) {
      const t = r.times[i]!;
      if (t < c.answeredAt || t > until) continue;
      const interval = t - r.times[i - 1]!;
      if (interval > BUDGETS.slowFrameMs) dropped += Math.round(interval / frame) - 1;
    }
    out.dropped += dropped;
    if (dropped > 0) out.pagesDropping++;
  }
  return out;
}

/* ---------------------------------------------------------------- prepend drift */

export interface DriftEvent {
  driftPx: number;
  rowsBefore: number;
  rowsAfter: number;
}

/**
 * In the page: from deep in the thread, scroll up in steps of 600 px (less
 * than the rendered range, so every row on the way is rendered); whenever the
 * list asks for a page meanwhile (loading upward: a windowed list bringing back
 * the pages above), stop, note where the card being read is, and once the page
 * is in and laid out (4 frames), how far that card moved.
 */
function prependDriftInPage(args: {
  events: number;
  timeoutMs: number;
}): Promise<{ events: DriftEvent[]; reachedTop: boolean }> {
  const scroller = document.querySelector('main') as HTMLElement;
  const view = scroller.getBoundingClientRect();
  const probe = window.__bench!;
  const t0 = performance.now();
  const events: DriftEvent[] = [];
  const reader = (): Element | null => {
    const middle = (view.top + view.bottom) / 2;
    let best: Element | null = null;
    let d = Infinity;
    for (const c of scroller.querySelectorAll('.vlist article[data-post-id]:not(.post--quoted)')) {
      const r = c.getBoundingClientRect();
      if (r.bottom <= view.top || r.top >= view.bottom) continue;
      const x = Math.abs((r.top + r.bottom) / 2 - middle);
      if (x < d) {
        d = x;
        best = c;
      }
    }
    return best;
  };
  const frame = () => new Promise<void>((r) => requestAnimationFrame(() => r()));
  const timedOut = () => performance.now() - t0 > args.timeoutMs;
  return (async () => {
    while (events.length < args.events && !timedOut()) {
      while (probe.inFlight > 0 && !timedOut()) await frame();
      if (scroller.scrollTop === 0) return { events, reachedTop: true };
      scroller.scrollTop = Math.max(0, scroller.scrollTop - 600);
      await frame();
      await frame();
      if (probe.inFlight === 0) continue;
      // a page is on its way while the reader goes up: hold still and watch the card being read
      const card = reader();
      if (!card) continue;
      const before = card.getBoundingClientRect().top;
      const rowsBefore = document.querySelectorAll('.vlist__row').length;
      while (probe.inFlight > 0 && !timedOut()) await frame();
      for (let i = 0; i < 4; i++) await frame();
      if (!card.isConnected) continue;
      events.push({
        driftPx: Math.abs(card.getBoundingClientRect().top - before),
        rowsBefore,
        rowsAfter: document.querySelectorAll('.vlist__row').length,
      });
    }
    return { events, reachedTop: false };
  })();
}

export async function measurePrepend(
  app: BenchApp,
  opts: { depthItems: number; events: number },
): Promise<{ metrics: Metric[]; detail: unknown }> {
  const { page } = app;
  await app.reload();
  await app.goto(threadHash(app.examples.bigThreadPostId));
  await waitForList(page);
  const loaded = await page.evaluate(loadUntil, {
    operation: 'postRepliesV2',
    target: opts.depthItems,
    timeoutMs: 120_000,
  });
  await page.waitForTimeout(300);
  const result = await page.evaluate(prependDriftInPage, { events: opts.events, timeoutMs: 90_000 });
  const name = 'prepend drift: worst move of the card being read when replies load above it (scrolling up)';
  if (result.events.length === 0) {
    return {
      metrics: [
        skipped(
          'prepend.drift',
          SECTION,
          name,
          'px',
          BUDGETS.prependDriftPx,
          result.reachedTop
            ? `no upward load: scrolling up from ${loaded.items} replies to the top asked for no page (the renderer still held them all)`
            : 'no upward load observed before the timeout',
        ),
      ],
      detail: { loaded, ...result },
    };
  }
  const worst = round(Math.max(...result.events.map((e) => e.driftPx)), 1);
  return {
    metrics: [
      budget(
        'prepend.drift',
        SECTION,
        name,
        worst,
        'px',
        BUDGETS.prependDriftPx,
        `${result.events.length} upward loads after ${loaded.items} replies`,
      ),
    ],
    detail: { loaded, ...result },
  };
}
